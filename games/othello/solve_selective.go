package othello

import "math"

// Iterative selective deepening, as Edax and Egaroucid solve: far enough
// from the end (selectiveEmpties), the root is first searched at
// increasing selectivity levels, each with ProbCut in the null-window
// searches (endCut), and only then exactly. A level's best moves, kept in
// the table, order the next level's search, so that the exact search
// meets a near-perfect order and spends its nodes on the proof.
//
// ProbCut at a null-window node with n empty squares (endCutEmpties or
// more) searched against alpha: a shallow midSearch of depth
// endCutDepth(n) predicts the exact score; when it is at least
// t*endCutSigma(n, d) above alpha+1 the node fails high, when it is that
// far below alpha it fails low, without the exact search (t: the level's
// selectivity). Table entries carry the level of the search that found
// them (endData.level): they cut searches of their level or a less exact
// one, and serve a more exact one only for their move. The last level is
// exactLevel, with no ProbCut, so that every score the solver returns is
// exact.

// selectivity[level] is the number of standard deviations of the shallow
// search's error that a ProbCut at that level asks for (Edax's levels:
// about 73%, 87%, 95%, 98% and 99% of the cuts right).
var selectivity = [exactLevel]float64{1.1, 1.5, 2.0, 2.6, 3.3}

// selectiveLevels tells which of the levels before the exact one the
// driver searches: the first, whose search is cheap, and the fourth
// (t = 2.6), which leaves the exact search the best order (on FFO
// #41-#44, 5% fewer nodes than all five levels, 30% fewer than the exact
// search alone; one level alone left #43 its nodes).
var selectiveLevels = [exactLevel]bool{true, false, false, true, false}

// exactLevel is the level of the exact search: no ProbCut.
const exactLevel = 5

// selectiveEmpties is the least number of empty squares at the root at
// which the solver searches the selectivity levels before the exact one.
var selectiveEmpties = 22

// endCutEmpties is the least number of empty squares at which a
// null-window node at a selective level tries ProbCut.
var endCutEmpties = 12

// endCutDepths: the shallow search of a node with n empty squares is
// 2*((n-endCutDepths[0])/endCutDepths[1]) plies deep, plus one when n is
// odd (Edax's choice with 0 and 8: 2 plies at 12 empties, 6 at 24), at
// most endCutMaxDepth.
var endCutDepths = [2]int{0, 8}

// endCutMaxDepth is the deepest shallow search fitted (endCutLines).
const endCutMaxDepth = 8

// endCutDepth is the depth of the shallow search of ProbCut at a node
// with n empty squares.
func endCutDepth(n int) int {
	d := max(2*((n-endCutDepths[0])/endCutDepths[1]), 0) + n&1
	for d > endCutMaxDepth {
		d -= 2
	}
	return d
}

// endCutLines[n&1][d] are the slope and the offset of the line that
// predicts the exact score (in tenths of a disc) of a position with n
// empty squares from its depth-d midSearch score: the endgame evaluation
// (endeval.go) is near the scale of the final disc difference, deeper
// searches a little above it, and the side to move gains when the empty
// squares are odd. Fitted by TestFitEndCut, as endCutFit.
var endCutLines = [2][endCutMaxDepth + 1][2]float64{
	{{1.098, -7.1}, {1.099, 2.6}, {1.035, 9.1}, {1.059, -1.0}, {1.017, 8.2}, {1.032, -8.9}, {0.976, 6.9}, {0.923, -8.6}, {0.859, 7.0}},
	{{0.977, 3.3}, {0.986, 15.2}, {0.989, 14.4}, {1.017, 5.6}, {1.029, 11.0}, {0.998, -2.1}, {0.965, 10.4}, {0.884, -3.3}, {0.825, 15.6}},
}

// endCutSigma is the standard deviation, in tenths of a disc, of the
// exact score (times ten) about its prediction from a depth-d midSearch
// (endCutLines) at a position with n empty squares: the constants
// endCutFit weigh endCutFeatures(n, d), at least 10.
func endCutSigma(n, d int) float64 {
	x := endCutFeatures(n, d)
	var sigma float64
	for i, c := range endCutFit {
		sigma += c * x[i]
	}
	return max(sigma, 10)
}

// endCutCoarse is the least number of empty squares at the shallow
// search's leaves at which its error is larger: the endgame tables'
// stage 5 (15 to 21 empty squares) and the scaled stages before it predict
// the final score worse than stage 6 (7 to 14) (at 20 empty squares, a standard deviation of 9
// to 11 discs from shallow searches of 0 to 5 plies, 5 to 6 from 6 to 8).
const endCutCoarse = 16

// endCutFeatures are what endCutSigma weighs: 1, n, d, and 1 when the
// leaves of the shallow search have endCutCoarse empty squares or more.
func endCutFeatures(n, d int) [4]float64 {
	coarse := 0.0
	if n-d >= endCutCoarse {
		coarse = 1
	}
	return [4]float64{1, float64(n), float64(d), coarse}
}

// endCutFit are endCutSigma's constants, printed with endCutLines by
//
//	GAMETUNE_EXPERIMENTS=1 go test -run 'TestFitEndCut$' -v -timeout 1h ./games/othello
//
// (1,650 self-play positions of 10 to 20 empty squares, the samples
// predicted within 16 discs of a draw): 5 to 7 discs, less with more
// empty squares, 2.5 discs more when the shallow search's leaves have 16
// empty squares or more (the endgame tables' stage 5 errs more than
// stage 6). Positions of more than 20 empty squares take
// too long to solve by the thousand; the fit is used beyond them as it is.
var endCutFit = [4]float64{91.17, -1.806, -0.007, 25.51}

// endCutBounds are the midSearch scores at depth d at or above which
// (hi) and at or below which (lo) the exact score of a position with n
// empty squares is predicted above target+margin, or below target-margin
// (tenths of a disc).
func endCutBounds(n, d, target, margin int) (lo, hi int) {
	l := endCutLines[n&1][d]
	hi = int(math.Ceil((float64(target+margin) - l[1]) / l[0]))
	lo = int(math.Floor((float64(target-margin) - l[1]) / l[0]))
	return lo, hi
}

// endCut tries ProbCut at a null-window node of p, o (n empty squares)
// against alpha at w's selectivity level: it returns the node's fail-high
// (alpha+1) or fail-low (alpha) score and true when the shallow search
// predicts it with the level's confidence. As Edax does, the static
// evaluation first tells which of the two cuts to try.
func (w *worker) endCut(p, o Bitboard, alpha, n int) (int, bool) {
	start := w.nodes
	sc, ok := w.probCut(p, o, alpha, n)
	w.endCutNodes += w.nodes - start
	return sc, ok
}

// probCut is endCut but for the count of its nodes.
func (w *worker) probCut(p, o Bitboard, alpha, n int) (int, bool) {
	d := endCutDepth(n)
	t := selectivity[w.level]
	margin := int(t*endCutSigma(n, d) + 0.5)
	evalMargin := int(t*(endCutSigma(n, 0)+endCutSigma(n, d))/2 + 0.5)
	eval := w.ev.eval(p, o)
	if _, hi := endCutBounds(n, 0, 10*(alpha+1), -evalMargin); 10*(alpha+1)+margin <= 640 && eval >= hi {
		if _, hi := endCutBounds(n, d, 10*(alpha+1), margin); w.midSearch(p, o, d, hi-1, hi) >= hi {
			w.endCuts++
			return alpha + 1, true
		}
	}
	if lo, _ := endCutBounds(n, 0, 10*alpha, -evalMargin); 10*alpha-margin >= -640 && eval <= lo {
		if lo, _ := endCutBounds(n, d, 10*alpha, margin); w.midSearch(p, o, d, lo, lo+1) <= lo {
			w.endCuts++
			return alpha, true
		}
	}
	return 0, false
}

// storeLevel is the level of the bounds of a node with n empty squares
// searched at w's level: exact below endCutEmpties, where no ProbCut
// happens in the node's tree.
func (w *worker) storeLevel(n int) int {
	if n < endCutEmpties {
		return exactLevel
	}
	return w.level
}
