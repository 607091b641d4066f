package othello

import "math/bits"

// othRays[d][s]: the squares from s (exclusive) to the edge in direction d.
// Directions 0-3 grow the square index (E, S, SE, SW), 4-7 shrink it (W,
// N, NW, NE).
var othRays [8][64]Bitboard

func init() {
	deltas := [8][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}
	for s := 0; s < 64; s++ {
		f, r := s%8, s/8
		for d, dd := range deltas {
			for k := 1; ; k++ {
				ff, rr := f+k*dd[0], r+k*dd[1]
				if ff < 0 || ff > 7 || rr < 0 || rr > 7 {
					break
				}
				othRays[d][s] |= 1 << (rr*8 + ff)
			}
		}
	}
}

// flips returns the discs of o that a disc of p placed on square sq turns:
// along each direction, the first square that is not o's closes the run of
// o's discs when it is p's.
func flips(p, o Bitboard, sq int) Bitboard {
	var all Bitboard
	notO := ^o
	for d := 0; d < 4; d++ {
		ray := othRays[d][sq]
		if stop := ray & notO; stop != 0 {
			first := bits.TrailingZeros64(stop)
			if p&(1<<first) != 0 {
				all |= ray &^ othRays[d][first] &^ (1 << first)
			}
		}
	}
	for d := 4; d < 8; d++ {
		ray := othRays[d][sq]
		if stop := ray & notO; stop != 0 {
			first := 63 - bits.LeadingZeros64(stop)
			if p&(1<<first) != 0 {
				all |= ray &^ othRays[d][first] &^ (1 << first)
			}
		}
	}
	return all
}
