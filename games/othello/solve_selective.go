package othello

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

// exactLevel is the level of the exact search: no ProbCut.
const exactLevel = 5

// selectiveEmpties is the least number of empty squares at the root at
// which the solver searches the selectivity levels before the exact one;
// selectiveFrom is the first level it searches.
var selectiveEmpties, selectiveFrom = 22, 0

// endCutEmpties is the least number of empty squares at which a
// null-window node at a selective level tries ProbCut.
var endCutEmpties = 12

// endCutDepths: the shallow search of a node with n empty squares is
// 2*((n-endCutDepths[0])/endCutDepths[1]) plies deep, plus one when n is
// odd (Edax's choice with 0 and 8: 2 plies at 12 empties, 6 at 24).
var endCutDepths = [2]int{0, 8}

// endCutDepth is the depth of the shallow search of ProbCut at a node
// with n empty squares.
func endCutDepth(n int) int {
	return max(2*((n-endCutDepths[0])/endCutDepths[1]), 0) + n&1
}

// endCutSigma is the standard deviation, in tenths of a disc, of the
// exact score (times ten) less the depth-d midSearch score at a position
// with n empty squares: a + b*n + c*d with the constants endCutFit,
// fitted by TestFitEndCut.
func endCutSigma(n, d int) float64 {
	return max(endCutFit[0]+endCutFit[1]*float64(n)+endCutFit[2]*float64(d), 10)
}

// endCutFit are endCutSigma's constants (tenths of a disc), printed by
//
//	GAMETUNE_EXPERIMENTS=1 go test -run 'TestFitEndCut$' -v ./games/othello
var endCutFit = [3]float64{40, 2, -4}

// endCut tries ProbCut at a null-window node of p, o (n empty squares)
// against alpha at w's selectivity level: it returns the node's fail-high
// (alpha+1) or fail-low (alpha) score and true when the shallow search
// predicts it with the level's confidence. As Edax does, the static
// evaluation first tells which of the two cuts to try.
func (w *worker) endCut(p, o Bitboard, alpha, n int) (int, bool) {
	d := endCutDepth(n)
	t := selectivity[w.level]
	margin := int(t*endCutSigma(n, d) + 0.5)
	evalMargin := int(t*(endCutSigma(n, 0)+endCutSigma(n, d))/2 + 0.5)
	eval := w.ev.eval(p, o)
	if hi := 10*(alpha+1) + margin; hi <= 640 && eval >= 10*(alpha+1)-evalMargin {
		if w.midSearch(p, o, d, hi-1, hi) >= hi {
			w.endCuts++
			return alpha + 1, true
		}
	}
	if lo := 10*alpha - margin; lo >= -640 && eval < 10*alpha+evalMargin {
		if w.midSearch(p, o, d, lo, lo+1) <= lo {
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
