// Package tournament plays games between engines: one game (Play), many on
// a worker pool (Pool, a Runner) with results in a deterministic order,
// openings, and the formats engine testers know: match (MatchSpecs,
// RunMatch), round robin and gauntlet (RoundRobin, Gauntlet, with
// Standings), and knockout brackets (Knockout; PlayBracket adapts games to
// it; KnockoutTournament plays one between players). Its statistics (Elo,
// LOS, SPRT) live in tournament/stats.
package tournament
