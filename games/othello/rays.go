package othello

import "math/bits"

// othSquareRays[s][d]: the squares from s (exclusive) to the edge in
// direction d. Directions 0-3 grow the square index (E, S, SE, SW), 4-7
// shrink it (W, N, NW, NE).
var othSquareRays [64][8]Bitboard

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
				othSquareRays[s][d] |= 1 << (rr*8 + ff)
			}
		}
	}
}

// flips returns the discs of o that a disc of p placed on square sq turns:
// along each direction, the first square that is not o's (the outflank)
// closes the run of o's discs when it is p's. Without branches: towards
// higher squares the outflank is the lowest bit of the ray off o's discs
// and the run is the ray below it; towards lower squares it is the highest
// and the run is the ray above it. An outflank that is not p's is 0 and
// turns nothing.
func flips(p, o Bitboard, sq int) Bitboard {
	rays := &othSquareRays[sq]
	return up(p, o, rays[0]) | up(p, o, rays[1]) | up(p, o, rays[2]) | up(p, o, rays[3]) |
		down(p, o, rays[4]) | down(p, o, rays[5]) | down(p, o, rays[6]) | down(p, o, rays[7])
}

// up is the run a ray towards higher squares turns.
func up(p, o, ray Bitboard) Bitboard {
	stop := ray &^ o
	out := stop & -stop & p
	below := out - 1 // every bit when out is 0: cleared by its sign
	return ray & below &^ Bitboard(int64(below)>>63)
}

// down is the run a ray towards lower squares turns. The outflank is
// never square 63 (the ray holds squares below sq), so out<<1 is not 0
// unless out is. When stop is 0 its 64 leading zeros shift by 0 (the count
// masked to six bits, which spares the compiler's test for shifts of 64):
// out is then at most square 63, whose out<<1 is 0 and turns nothing.
func down(p, o, ray Bitboard) Bitboard {
	stop := ray &^ o
	out := (1 << 63 >> (bits.LeadingZeros64(stop) & 63)) & p
	return ray & -(out << 1)
}
