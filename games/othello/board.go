package othello

import "math/bits"

// Squares are numbered 0-63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
// (rank 1 at the top, as in the usual diagrams). A Bitboard has one bit a
// square.
type Bitboard = uint64

const (
	notA  Bitboard = 0xfefefefefefefefe // every file but a
	notH  Bitboard = 0x7f7f7f7f7f7f7f7f // every file but h
	inner Bitboard = notA & notH
)

// legalMoves returns the empty squares where the player with discs p can
// play against discs o: all eight directions at once, by shifted fills.
func legalMoves(p, o Bitboard) Bitboard {
	empty := ^(p | o)
	oh := o & inner // wrapping directions only cross inner discs
	var moves Bitboard

	// East / west: shifts by 1 through discs off the a/h files.
	t := oh & (p << 1)
	t |= oh & (t << 1)
	t |= oh & (t << 1)
	t |= oh & (t << 1)
	t |= oh & (t << 1)
	t |= oh & (t << 1)
	moves |= t << 1
	t = oh & (p >> 1)
	t |= oh & (t >> 1)
	t |= oh & (t >> 1)
	t |= oh & (t >> 1)
	t |= oh & (t >> 1)
	t |= oh & (t >> 1)
	moves |= t >> 1

	// South / north: shifts by 8 never wrap.
	t = o & (p << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	t |= o & (t << 8)
	moves |= t << 8
	t = o & (p >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	t |= o & (t >> 8)
	moves |= t >> 8

	// Diagonals: shifts by 7 and 9 through inner discs.
	t = oh & (p << 9)
	t |= oh & (t << 9)
	t |= oh & (t << 9)
	t |= oh & (t << 9)
	t |= oh & (t << 9)
	t |= oh & (t << 9)
	moves |= t << 9
	t = oh & (p >> 9)
	t |= oh & (t >> 9)
	t |= oh & (t >> 9)
	t |= oh & (t >> 9)
	t |= oh & (t >> 9)
	t |= oh & (t >> 9)
	moves |= t >> 9
	t = oh & (p << 7)
	t |= oh & (t << 7)
	t |= oh & (t << 7)
	t |= oh & (t << 7)
	t |= oh & (t << 7)
	t |= oh & (t << 7)
	moves |= t << 7
	t = oh & (p >> 7)
	t |= oh & (t >> 7)
	t |= oh & (t >> 7)
	t |= oh & (t >> 7)
	t |= oh & (t >> 7)
	t |= oh & (t >> 7)
	moves |= t >> 7

	return moves & empty
}

func popcount(b Bitboard) int { return bits.OnesCount64(b) }

// neighbours returns the squares next to any disc of b.
func neighbours(b Bitboard) Bitboard {
	n := b
	n |= (b << 1) & notA
	n |= (b >> 1) & notH
	n |= b << 8
	n |= b >> 8
	n |= (b << 9) & notA
	n |= (b << 7) & notH
	n |= (b >> 7) & notA
	n |= (b >> 9) & notH
	return n &^ b
}
