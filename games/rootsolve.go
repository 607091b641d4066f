package games

import "context"

// RootSolver is implemented by Exact positions whose game has a solver of
// whole positions near the end stronger than the engine's search to the
// end (Othello's disc-margin solver). With engine.Options.SolveRoot, a
// search whose root has its plies left known (PliesLeft >= 0) returns the
// solver's move and score. The engine makes one EndSolver per searcher, at
// its first such root, and keeps it.
type RootSolver interface {
	Exact
	// NewEndSolver returns a solver of the game's positions, to be used by
	// one goroutine at a time.
	NewEndSolver() (EndSolver, error)
}

// EndSolver solves positions of its game exactly (RootSolver).
type EndSolver interface {
	// SolveRoot returns a best move of p (by the value of the game's own
	// solver, which may be finer than win, draw or loss: one of the moves
	// that keep the game's result), p's score as the engine's search to
	// the end returns it at a root (Ender's scale: a finished game scores
	// win for the side to move if it wins, -win if it loses, 0 for a
	// draw, less one for every ply below p, best play hastening a win and
	// delaying a loss) and the moves it played, passes included. p is an
	// Exact position of the solver's game with PliesLeft >= 0 and a move to
	// play; it is returned unchanged. It stops with ctx's error when ctx is
	// done.
	SolveRoot(ctx context.Context, p Position, win int32) (RootSolution, error)
	// NewGame forgets what earlier solves left in the solver's tables, so
	// that the moves of a game depend on that game alone.
	NewGame()
}

// RootSolution is what an EndSolver found.
type RootSolution struct {
	Move  Move
	Score int32
	Nodes int64
}
