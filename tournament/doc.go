// Package tournament plays games between players: one game (Play between
// built-in players, PlayMovers between any movers), many on a worker pool
// (Pool, a Runner) with results in a deterministic order, openings, and
// the formats engine testers know: match (MatchSpecs, RunMatch, Pair),
// round robin and gauntlet (RoundRobin, Gauntlet, with Standings), and
// knockout brackets (Knockout; PlayBracket adapts games to it;
// KnockoutTournament plays one between players). PlayFormat plays a
// tournament of a format named by the user. The results as data are the
// JSON shapes tune match and tune tournament print (MatchJSON,
// TournamentJSON); games are written to files of records (RecordFile).
//
// Two words name who plays. A Player describes one side of a game: the
// built-in searcher with an evaluator, weights and limits, or an Engine
// that plays instead. A Mover is the live thing a worker holds during a
// game and keeps between games: a built-in searcher, or an engine's
// process; the referee asks it for moves, keeps the clocks and records a
// Fault (crash, stall, illegal move) or a loss on time. The tournament
// knows engines only through that interface: external engine processes
// are package tournament/external's. Statistics (Elo, LOS, SPRT) live in
// tournament/stats.
package tournament
