package othello

import (
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
