// Package tournament plays games between engines: one game (Play), many on
// a worker pool (Pool) with results in a deterministic order, openings, and
// the formats engine testers know: match, gauntlet, round robin and knockout
// brackets. Its statistics (Elo, LOS, SPRT) live in tournament/stats.
package tournament
