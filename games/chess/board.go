package chess

import "math/bits"

// Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
type Bitboard = uint64

// Piece kinds.
const (
	Pawn = iota
	Knight
	Bishop
	Rook
	Queen
	King
	noPiece = 6
)

const (
	white = 0
	black = 1
)

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank2 Bitboard = rank1 << 8
	rank4 Bitboard = rank1 << 24
	rank5 Bitboard = rank1 << 32
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
)

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// rays[d][s]: the squares from s (exclusive) to the edge in direction d:
	// 0 N, 1 S, 2 E, 3 W, 4 NE, 5 NW, 6 SE, 7 SW. Directions 0, 2, 4, 5 grow
	// the square index ("positive"), the others shrink it.
	rays [8][64]Bitboard
	// between[a][b]: squares strictly between a and b on a line, or 0.
	between [64][64]Bitboard
	// line[a][b]: the whole line through a and b, or 0.
	line [64][64]Bitboard
)

// opposite[d] is the direction opposite to d.
var opposite = [8]int{1, 0, 3, 2, 7, 6, 5, 4}

var dirDelta = [8][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func init() {
	for s := 0; s < 64; s++ {
		f, r := s%8, s/8
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+d[0], r+d[1]) {
				knightAttacks[s] |= 1 << ((r+d[1])*8 + f + d[0])
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if (df != 0 || dr != 0) && onBoard(f+df, r+dr) {
					kingAttacks[s] |= 1 << ((r+dr)*8 + f + df)
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if onBoard(f+df, r+1) {
				pawnAttacks[white][s] |= 1 << ((r+1)*8 + f + df)
			}
			if onBoard(f+df, r-1) {
				pawnAttacks[black][s] |= 1 << ((r-1)*8 + f + df)
			}
		}
		for d, dd := range dirDelta {
			for k := 1; onBoard(f+k*dd[0], r+k*dd[1]); k++ {
				rays[d][s] |= 1 << ((r+k*dd[1])*8 + f + k*dd[0])
			}
		}
	}
	for a := 0; a < 64; a++ {
		for d := 0; d < 8; d++ {
			for b := rays[d][a]; b != 0; b &= b - 1 {
				t := bits.TrailingZeros64(b)
				between[a][t] = rays[d][a] &^ rays[d][t] &^ (1 << t)
				line[a][t] = rays[d][a] | rays[opposite[d]][a] | 1<<a
			}
		}
	}
}

// upRay returns the squares of ray (towards higher squares) up to its first
// blocker in occ, included, without a branch: the blocker is the lowest bit
// of the ray's occupied squares, and no blocker (0) keeps every bit.
func upRay(ray, occ Bitboard) Bitboard {
	b := ray & occ
	return ray & ((b&-b)<<1 - 1)
}

// downRay is upRay towards lower squares: the blocker is the highest bit,
// and square 0 stands in when there is none (it is below every ray square).
func downRay(ray, occ Bitboard) Bitboard {
	b := ray&occ | 1
	return ray & -(1 << 63 >> bits.LeadingZeros64(b))
}

// sliderRays[s] holds the eight rays of square s: rook rays N, E, S, W
// (the first two upwards), then bishop rays NE, NW, SE, SW (the first two
// upwards), for rookAttacks and bishopAttacks in one cache line.
var sliderRays [64][8]Bitboard

func init() {
	for s := 0; s < 64; s++ {
		sliderRays[s] = [8]Bitboard{rays[0][s], rays[2][s], rays[1][s], rays[3][s], rays[4][s], rays[5][s], rays[6][s], rays[7][s]}
	}
	initMagics()
}

// rookRays and bishopRays compute the sliders' attacks ray by ray: they
// fill the magic tables (magic.go), which answer rookAttacks and
// bishopAttacks.
func rookRays(s int, occ Bitboard) Bitboard {
	r := &sliderRays[s]
	return upRay(r[0], occ) | upRay(r[1], occ) | downRay(r[2], occ) | downRay(r[3], occ)
}

func bishopRays(s int, occ Bitboard) Bitboard {
	r := &sliderRays[s]
	return upRay(r[4], occ) | upRay(r[5], occ) | downRay(r[6], occ) | downRay(r[7], occ)
}

func popcount(b Bitboard) int { return bits.OnesCount64(b) }

func lsb(b Bitboard) int { return bits.TrailingZeros64(b) }
