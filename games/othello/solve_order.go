package othello

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// Far from the end the solver orders moves by the evaluation too: each
// move's position is scored by a shallow alpha-beta search with the
// endgame evaluation (endeval.go), and the score joins the mobility key.

// evalOrderEmpties is the least number of empty squares at which a node
// sorts its moves by the evaluation.
var evalOrderEmpties = 12

// sortDepth is the depth of the searches that score a node's moves with n
// empty squares.
func sortDepth(n int) int {
	return min(max((n-sortDepths[0])/sortDepths[1], 0), 6)
}

// sortDepths: the sort searches are (n-sortDepths[0])/sortDepths[1] plies
// deep, from 0 to 6.
var sortDepths = [2]int{15, 2}

// orderEval[d] weighs the score of a depth-d search of the move (tenths
// of a disc) against a unit of mobility (orderMobility): a unit of
// mobility is worth 8 discs at depth 0, 2 deeper. The endgame evaluation
// (endeval.go) errs by about 9 discs at depth 0 here, Edax's less (it
// makes a unit 4 discs at depth 0, 2 at 1, 1 deeper); with the shipped
// patterns evaluation, on twice and more the disc difference's scale and
// erring more, 16 and 8 discs ordered best (docs/experiments.md).
var orderEval = [3]int32{orderMobility / 80, orderMobility / 20, orderMobility / 20}

// sortWindow is how far below alpha (in discs) the searches that order
// moves keep their scores exact.
const sortWindow = 8

// evalKey is the evaluation's part of the ordering key of a move to np,
// no (the mover's discs and the opponent's, n empty squares before the
// move) at a node searched against alpha.
func (w *worker) evalKey(np, no Bitboard, n, alpha int) int32 {
	d := sortDepth(n)
	v := w.midSearch(no, np, d, -1<<20, -10*(alpha-sortWindow)+1)
	return -int32(v) * orderEval[min(d, 2)]
}

// endEval evaluates for the solver's ordering and ProbCut: the endgame
// evaluation (endeval.go), through a scratch position.
type endEval struct {
	pos Position
	ev  *games.Evaluator
	w   []float64
}

func newEndEval() *endEval {
	e := endEvaluation()
	return &endEval{ev: e.ev, w: e.w}
}

// eval scores p to move against o, in tenths of a disc.
func (e *endEval) eval(p, o Bitboard) int {
	e.pos.discs[0], e.pos.discs[1], e.pos.turn, e.pos.legal = p, o, 0, legalMoves(p, o)
	return e.ev.Evaluate(&e.pos, e.w)
}

// midSearch is the alpha-beta score of p, o to depth with the evaluation
// at the leaves, in tenths of a disc; a finished game scores its disc
// difference.
func (w *worker) midSearch(p, o Bitboard, depth, alpha, beta int) int {
	if depth == 0 {
		return w.ev.eval(p, o)
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return 10 * finalScore(p, o)
		}
		return -w.midSearch(o, p, depth, -beta, -alpha)
	}
	first := -1
	var e *midEntry
	if depth >= midTableDepth && midTableBits > 0 {
		e = w.mid.slot(p, o)
		if e.p == p && e.o == o && int(e.depth) == depth {
			switch {
			case int(e.lower) >= beta:
				return int(e.lower)
			case int(e.upper) <= alpha, e.lower == e.upper:
				return int(e.upper)
			}
			first = int(e.move)
		} else {
			*e = midEntry{p: p, o: o, lower: -1 << 20, upper: 1 << 20, depth: int8(depth), move: -1}
		}
	}
	best, bestSq := w.midMoves(p, o, moves, first, depth, alpha, beta)
	if e != nil && e.p == p && e.o == o && int(e.depth) == depth {
		switch {
		case best >= beta:
			e.lower = int32(max(int(e.lower), best))
		case best <= alpha:
			e.upper = int32(min(int(e.upper), best))
		default:
			e.lower, e.upper = int32(best), int32(best)
		}
		if best > alpha || e.move < 0 {
			e.move = int8(bestSq)
		}
	}
	return best
}

// midMoves is midSearch's search of the moves of p, o, the table's move
// first (-1: none): the score and the best move.
func (w *worker) midMoves(p, o, moves Bitboard, first, depth, alpha, beta int) (int, int) {
	best, bestSq := -1<<20, -1
	if depth >= 3 {
		var list moveList
		w.order(&list, p, o, moves, first, 0, 0)
		list.sortRest()
		for i := range list.n {
			m := &list.moves[i]
			w.nodes++
			sc := -w.midSearch(o&^m.flips, p|m.flips|1<<m.sq, depth-1, -beta, -max(alpha, best))
			if sc > best {
				if best, bestSq = sc, int(m.sq); sc >= beta {
					break
				}
			}
		}
		return best, bestSq
	}
	if first >= 0 && moves&(1<<first) != 0 {
		f := flips(p, o, first)
		w.nodes++
		if best, bestSq = -w.midSearch(o&^f, p|f|1<<first, depth-1, -beta, -alpha), first; best >= beta {
			return best, bestSq
		}
		moves &^= 1 << first
	}
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(p, o, sq)
		w.nodes++
		sc := -w.midSearch(o&^f, p|f|1<<sq, depth-1, -beta, -max(alpha, best))
		if sc > best {
			if best, bestSq = sc, sq; sc >= beta {
				break
			}
		}
	}
	return best, bestSq
}

// moveList holds a node's moves, sorted best first.
type moveList struct {
	moves [32]sortedMove
	n     int
}

// sortedMove is a move, what it flips and its ordering key.
type sortedMove struct {
	flips Bitboard
	key   int32
	sq    int8
}

// Ordering weights: the opponent's mobility after the move dominates
// (corners counting twice), then the mover's discs next to its corners,
// then the opponent's potential mobility (empty squares beside the mover's
// discs), then parity and the square's class.
const (
	orderFirst     = 1 << 30 // the table's move
	orderWipeout   = 1 << 29 // a move that takes the last disc of the opponent
	orderMobility  = 1 << 15
	orderCorner    = 1 << 11
	orderPotential = 1 << 6
	orderParity    = 1 << 4
)

// squareValue is the square-class part of the ordering key.
var squareValue = func() (v [64]int32) {
	for sq, w := range squareWeights {
		v[sq] = int32(w/10 + 5)
	}
	return v
}()

// order lists the moves of p, o and puts the best first: first (the
// table's move, -1 for none), else the one of the highest ordering key,
// the evaluation's part from evalOrderEmpties up. The others are sorted
// only when searched (sortRest).
func (w *worker) order(list *moveList, p, o, moves Bitboard, first, n, alpha int) {
	empty := ^(p | o)
	var odd Bitboard
	if n < evalOrderEmpties {
		odd = oddQuadrants(empty)
	}
	list.n = 0
	top, b := int32(math.MinInt32), 0 // the highest key, its move's index
	for m := moves; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p, o, sq)
		np, no := p|f|1<<sq, o&^f
		var key int32
		switch {
		case sq == first:
			key = orderFirst
		case no == 0:
			key = orderWipeout
		default:
			replies := legalMoves(no, np)
			key = -int32(popcount(replies)+popcount(replies&cornerMask)) * orderMobility
			key += int32(cornerStability(np)) * orderCorner
			key -= int32(popcount(neighbours(np)&empty&^(1<<sq))) * orderPotential
			if n >= evalOrderEmpties {
				key += w.evalKey(np, no, n, alpha)
			} else {
				if odd&(1<<sq) != 0 {
					key += orderParity
				}
				key += squareValue[sq]
			}
		}
		if key > top {
			top, b = key, list.n
		}
		list.moves[list.n] = sortedMove{flips: f, key: key, sq: int8(sq)}
		list.n++
	}
	list.toFront(b)
}

// toFront moves the move of index b to the front, the others keeping
// their order: a node cut by it, the first of the highest key, sorts no
// further.
func (list *moveList) toFront(b int) {
	if b > 0 {
		m := list.moves[b]
		copy(list.moves[1:b+1], list.moves[:b])
		list.moves[0] = m
	}
}

// sortRest sorts the moves after the first, best first and stably (an
// insertion sort: lists are short), as if the whole list had been sorted.
func (list *moveList) sortRest() {
	for i := 2; i < list.n; i++ {
		for j := i; j > 1 && list.moves[j].key > list.moves[j-1].key; j-- {
			list.moves[j], list.moves[j-1] = list.moves[j-1], list.moves[j]
		}
	}
}

// cornerStability counts the discs of p on its corners and on the edge
// squares beside a corner it holds: a cheap part of stability.
func cornerStability(p Bitboard) int {
	c := p & cornerMask
	near := (c<<1|c>>1)&(rank1|rank8) | (c<<8 | c>>8)
	return popcount(c) + popcount(near&p)
}
