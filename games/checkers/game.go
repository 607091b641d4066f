// Package checkers is English draughts (checkers) on 32-square bitboards:
// men move and capture diagonally forward, kings in all four directions,
// capture is mandatory and a capture sequence is one move, a man reaching
// the last row is crowned and its move ends there, a side with no move
// loses. Draws: threefold repetition (since the last capture or man's move)
// and the no-progress rule (NoProgressPlies plies without a capture or a
// man's move); tournaments add their ply cap. The hash covers the pieces
// and the side to move; the repetition and no-progress state lives in the
// history (it depends on the path).
//
// Notation: squares 1-32 in the standard numbering (Black starts on 1-12
// and moves first); moves "11-15", captures "22x15" or the full path
// "9x18x27"; positions as PDN FEN, "B:W21-32:B1-12" at the start.
package checkers

import "github.com/gametune/gametune/games"

// StartNotation is the start position.
const StartNotation = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

// Game returns English draughts, registered as "checkers".
func Game() games.Game { return game{definition} }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("checkers", doc, notation, Start, Parse, paperEvaluator, fullEvaluator, patternsEvaluator)

// Start returns the start position.
func Start() *Position {
	p, _ := Parse(StartNotation)
	return p
}

// game is the defined game with its records (games.Recorder).
type game struct{ games.Game }

// doc and notation describe the game in 'tune games'.
const (
	doc      = "English draughts: 8x8, Black first, mandatory captures, men crowned on the last row; no move loses"
	notation = "position: PDN FEN such as B:W21-32:B1-12 (side to move, then each colour's squares, K for kings); " +
		"move: 11-15, captures 22x15 or the full path 9x18x27"
)
