package othello

// What Othello gives the engine's selective search: its own defaults for
// the search parameters (games.SearchDefaulter), in tenths of a disc. A
// pass is a real move in Othello, taken only when a side has no other, so
// Othello has no null move (games.NullMover): Multi-ProbCut prunes its
// trees instead (games.ProbCutter).

// searchDefaults are Othello's defaults for the selective search's
// parameters, in tenths of a disc (games.SearchDefaulter).
var searchDefaults = map[string]int{}

// SearchDefaults returns Othello's defaults for the engine's search
// parameters (games.SearchDefaulter).
func (p *Position) SearchDefaults() map[string]int { return searchDefaults }
