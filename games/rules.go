package games

// Optional abilities of positions that the front-ends (the protocol
// servers, the play command) use for the rules of some games only. Each is
// found by a type assertion; a game without it does without.

// Passer is implemented by positions of games in which a side with no
// legal move passes (Othello). ForcedPass returns the pass move and true
// when passing is the side to move's only legal move.
type Passer interface {
	ForcedPass() (Move, bool)
}

// DiscCounter is implemented by positions of games decided by counting the
// pieces on the board (Othello's discs): Discs returns the first and the
// second side's counts.
type DiscCounter interface {
	Discs() (first, second int)
}

// Pacer is implemented by positions that can estimate how many moves the
// side to move still plays in the game (Othello: half the empty squares),
// so that a time manager spreads the clock over them.
type Pacer interface {
	MovesLeft() int
}

// MoveDrawer is implemented by Drawer positions that can also mark the
// legal moves on the board they draw.
type MoveDrawer interface {
	DrawWithMoves() string
}
