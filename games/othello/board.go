package othello

import "math/bits"

// Squares are numbered 0-63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
// (rank 1 at the top, as in the usual diagrams). A Bitboard has one bit a
// square.
type Bitboard = uint64

const (
	fileA Bitboard = 0x0101010101010101
	rank1 Bitboard = 0x00000000000000ff
	notA  Bitboard = 0xfefefefefefefefe // every file but a
	notH  Bitboard = 0x7f7f7f7f7f7f7f7f // every file but h
	inner Bitboard = notA & notH
)

// legalMoves returns the empty squares where the player with discs p can
// play against discs o: all eight directions at once, by shifted fills.
// Each fill takes o's discs next to p's, then doubles its reach twice
// through pairs of o's discs (pre), covering runs of up to six, the most a
// line holds between two other discs: four shift-and-mask steps a
// direction instead of six. Along a rank towards higher squares an
// addition does it in one: a disc added on the first of a run of o's inner
// discs carries through the run to the square beyond it, inside the rank.
func legalMoves(p, o Bitboard) Bitboard {
	oh := o & innerSquares // wrapping directions only cross inner discs
	east := (oh + (p<<1)&oh) &^ oh
	moves := east | fillRight(p, oh, 1) |
		fillLeft(p, o, 8) | fillRight(p, o, 8) |
		fillLeft(p, oh, 9) | fillRight(p, oh, 9) |
		fillLeft(p, oh, 7) | fillRight(p, oh, 7)
	return moves &^ (p | o)
}

// innerSquares is inner in a variable: with the constant the compiler
// folds it into every step of the fills, two ANDs where one does.
var innerSquares = inner

// fillLeft returns the squares s places beyond a run of discs of o
// (towards higher squares) that starts next to a disc of p.
func fillLeft(p, o Bitboard, s uint) Bitboard {
	t := o & (p << s)
	t |= o & (t << s)
	pre := o & (o << s)
	t |= pre & (t << (2 * s))
	t |= pre & (t << (2 * s))
	return t << s
}

// fillRight is fillLeft towards lower squares.
func fillRight(p, o Bitboard, s uint) Bitboard {
	t := o & (p >> s)
	t |= o & (t >> s)
	pre := o & (o >> s)
	t |= pre & (t >> (2 * s))
	t |= pre & (t >> (2 * s))
	return t >> s
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

// fileByte gathers the a-file squares of b into a byte, a1 as bit 0 and a8
// as bit 7: the multiplier moves square 8k to bit 56+k, and no two of its
// partial products meet, so nothing carries.
func fileByte(b Bitboard) uint8 {
	return uint8((b & fileA) * fileGather >> 56)
}
