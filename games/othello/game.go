// Package othello is Othello (Reversi) on 64-bit bitboards: legal moves by
// shifted fills over all eight directions, flips by lookups on the four
// lines through the square played, make/unmake without allocation, Zobrist
// hashing, an explicit pass move, and a classic four-term evaluation (discs,
// mobility, disc-square weights, corner-anchored discs) beside a stronger
// one, both by table lookups where they count squares.
//
// Notation: squares a1..h8, file then rank, rank 1 at the top as in the usual
// diagrams, case-insensitive; "pass". A position is 64 characters from a1 to
// h8 (X black, O white, - empty), a space and the side to move; the start
// is StartNotation.
package othello

import (
	"math/bits"

	"github.com/gametune/gametune/games"
)

// Game returns Othello, registered as "othello".
func Game() games.Game { return game{definition} }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("othello", doc, notation, Start, Parse, reportEvaluator, fullEvaluator, patternsEvaluator)

// game is the defined game with its records (games.Recorder).
type game struct{ games.Game }

// doc and notation describe the game in 'tune games'.
const (
	doc      = "Othello: 8x8, black (X) first, outflank to flip; a side with no move passes; most discs wins"
	notation = "position: 64 characters a1..h8 (rank 1 first; X black, O white, - empty), a space, the side to move X or O; " +
		"move: a square such as d3 (files a-h, ranks 1-8 from the top) or pass"
)

func trailingZeros(b Bitboard) int { return bits.TrailingZeros64(b) }
