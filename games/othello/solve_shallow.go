package othello

import "math/bits"

// The solver's last plies: null-window searches (beta = alpha+1) of the
// last one to shallowEmpties empty squares, without move lists, the table
// or sorting. A move is tried on each empty square, those in a quadrant
// with an odd number of empty squares first (parity: the side that moves
// last in a region gains there), then by square class (corners first,
// X-squares last); a square is a move when it flips something. Scores are
// final disc differences for the side to move, empty squares to the
// winner; they are always even but for a draw's 0, so that an odd alpha
// makes a window that no score lands on. Every function is fail-soft.

// shallowEmpties is the most empty squares searched by shallow, without
// the table and the sorting.
var shallowEmpties = 5

// quadrants are the four 4x4 corners of the board.
var quadrants = [4]Bitboard{0x000000000f0f0f0f, 0x00000000f0f0f0f0, 0x0f0f0f0f00000000, 0xf0f0f0f000000000}

// quadrantOf[sq] is the quadrant mask holding sq.
var quadrantOf = func() (q [64]Bitboard) {
	for sq := range q {
		for _, m := range quadrants {
			if m&(1<<sq) != 0 {
				q[sq] = m
			}
		}
	}
	return q
}()

// oddQuadrants returns the empty squares of the quadrants that hold an odd
// number of empty squares.
func oddQuadrants(empty Bitboard) Bitboard {
	var odd Bitboard
	for _, q := range quadrants {
		if bits.OnesCount64(empty&q)&1 != 0 {
			odd |= q
		}
	}
	return odd & empty
}

// neighbourSquares[sq] are the squares next to sq.
var neighbourSquares = func() (n [64]Bitboard) {
	for sq := range n {
		n[sq] = neighbours(1 << sq)
	}
	return n
}()

// flipsNear is flips after a look at sq's neighbours: a move turns a disc
// beside it, so a square with none of o's beside it turns nothing.
func flipsNear(p, o Bitboard, sq int) Bitboard {
	if neighbourSquares[sq&63]&o == 0 {
		return 0
	}
	return flips(p, o, sq)
}

// finalScore is the score of a game over with p to move: discs difference,
// the empty squares to the one ahead.
func finalScore(p, o Bitboard) int {
	n, m := popcount(p), popcount(o)
	switch {
	case n > m:
		return 64 - 2*m
	case n < m:
		return 2*n - 64
	}
	return 0
}

// solve1 is the score with p to move and sq the one empty square.
func (w *worker) solve1(p Bitboard, sq int) int {
	n := popcount(p)
	if f := lastFlipCount(p, sq); f > 0 {
		w.nodes++
		return 2*(n+f) - 62 // n+f+1 discs of 64
	}
	if f := lastFlipCount(^p&^(1<<sq), sq); f > 0 {
		w.nodes += 2 // a pass, a move
		return 2*(n-f) - 64
	}
	if 2*n > 63 {
		return 2*n - 62 // the empty square to p
	}
	return 2*n - 64
}

// solve2 is the null-window score with p to move and x, y empty.
func (w *worker) solve2(p, o Bitboard, alpha int, x, y int) int {
	best := -inf
	if f := flipsNear(p, o, x); f != 0 {
		w.nodes++
		if best = -w.solve1(o&^f, y); best > alpha {
			return best
		}
	}
	if f := flipsNear(p, o, y); f != 0 {
		w.nodes++
		return max(best, -w.solve1(o&^f, x))
	}
	if best != -inf {
		return best
	}
	// p passes.
	best = inf
	if f := flipsNear(o, p, x); f != 0 {
		w.nodes += 2
		if best = w.solve1(p&^f, y); best <= alpha {
			return best
		}
	}
	if f := flipsNear(o, p, y); f != 0 {
		w.nodes += 2
		return min(best, w.solve1(p&^f, x))
	}
	if best != inf {
		return best
	}
	return finalScore(p, o)
}

// solve3 is the null-window score with p to move and the three empty
// squares of empty, the one alone in its quadrant first.
func (w *worker) solve3(p, o Bitboard, alpha int, empty Bitboard) int {
	x, y, z := threeSquares(empty)
	best := -inf
	for range 3 {
		if f := flipsNear(p, o, x); f != 0 {
			w.nodes++
			if sc := -w.solve2(o&^f, p|f|1<<x, -alpha-1, y, z); sc > best {
				if best = sc; sc > alpha {
					return best
				}
			}
		}
		x, y, z = y, z, x
	}
	if best != -inf {
		return best
	}
	best = inf
	for range 3 {
		if f := flipsNear(o, p, x); f != 0 {
			w.nodes += 2
			if sc := w.solve2(p&^f, o|f|1<<x, alpha, y, z); sc < best {
				if best = sc; sc <= alpha {
					return best
				}
			}
		}
		x, y, z = y, z, x
	}
	if best != inf {
		return best
	}
	return finalScore(p, o)
}

// threeSquares lists three empty squares, the one alone in its quadrant
// (if any) first.
func threeSquares(empty Bitboard) (x, y, z int) {
	x = bits.TrailingZeros64(empty)
	empty &= empty - 1
	y = bits.TrailingZeros64(empty)
	z = bits.TrailingZeros64(empty & (empty - 1))
	switch {
	case quadrantOf[x] == quadrantOf[y]:
		return z, x, y
	case quadrantOf[x] == quadrantOf[z]:
		return y, x, z
	}
	return x, y, z
}

// solve4 is the null-window score with p to move and the four empty
// squares of empty, those alone in their quadrant first.
func (w *worker) solve4(p, o Bitboard, alpha int, empty Bitboard) int {
	if alpha >= stabilityThreshold[4] {
		if bound := 64 - 2*popcount(stableDiscs(o, p)); bound <= alpha {
			return bound
		}
	}
	var sq [4]int
	sq[0], sq[1], sq[2], sq[3] = fourSquares(empty)
	best := -inf
	for i := range 4 {
		x := sq[i]
		if f := flipsNear(p, o, x); f != 0 {
			w.nodes++
			if sc := -w.solve3(o&^f, p|f|1<<x, -alpha-1, empty&^(1<<x)); sc > best {
				if best = sc; sc > alpha {
					return best
				}
			}
		}
	}
	if best != -inf {
		return best
	}
	best = inf
	for i := range 4 {
		x := sq[i]
		if f := flipsNear(o, p, x); f != 0 {
			w.nodes += 2
			if sc := w.solve3(p&^f, o|f|1<<x, alpha, empty&^(1<<x)); sc < best {
				if best = sc; sc <= alpha {
					return best
				}
			}
		}
	}
	if best != inf {
		return best
	}
	return finalScore(p, o)
}

// fourSquares lists four empty squares, those in a quadrant with an odd
// number of them first, each group by square class.
func fourSquares(empty Bitboard) (a, b, c, d int) {
	odd := oddQuadrants(empty)
	var sq [4]int
	n := 0
	for _, group := range [2]Bitboard{odd, empty &^ odd} {
		for _, class := range squareClasses {
			for m := group & class; m != 0; m &= m - 1 {
				sq[n&3] = bits.TrailingZeros64(m)
				n++
			}
		}
	}
	return sq[0], sq[1], sq[2], sq[3]
}

// shallow is the null-window score with p to move and n empty squares
// (5 to shallowEmpties): each move's position is searched by shallow or,
// at four empty squares, solve4.
func (w *worker) shallow(p, o Bitboard, alpha, n int) int {
	if alpha >= stabilityThreshold[n] {
		if bound := 64 - 2*popcount(stableDiscs(o, p)); bound <= alpha {
			return bound
		}
	}
	empty := ^(p | o)
	odd := oddQuadrants(empty)
	best := -inf
	for _, group := range [2]Bitboard{odd, empty &^ odd} {
		for _, class := range squareClasses {
			for m := group & class; m != 0; m &= m - 1 {
				x := bits.TrailingZeros64(m)
				f := flipsNear(p, o, x)
				if f == 0 {
					continue
				}
				w.nodes++
				np, no := o&^f, p|f|1<<x
				var sc int
				if n == 5 {
					sc = -w.solve4(np, no, -alpha-1, empty&^(1<<x))
				} else {
					sc = -w.shallow(np, no, -alpha-1, n-1)
				}
				if sc > best {
					if best = sc; sc > alpha {
						return best
					}
				}
			}
		}
	}
	if best != -inf {
		return best
	}
	if legalMoves(o, p) == 0 {
		return finalScore(p, o)
	}
	w.nodes++
	return -w.shallow(o, p, -alpha-1, n)
}

// squareClasses groups the squares by their class in the positional table
// (squareWeights), best first: corners, A-squares, B-squares, the centre,
// C-squares, X-squares.
var squareClasses = func() []Bitboard {
	return frontierOrder
}()
