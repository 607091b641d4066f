package othello

import "math/bits"

// worker is one goroutine of a Solver: its cache-sized table, its counts,
// its evaluation scratch, and the split point it works in.
type worker struct {
	s         *Solver
	near      endTable
	nodes     int64 // this solve's moves
	published int64 // of nodes, those added to Solver.searched
	poll      int64 // the node count at which to look at the stops next
	stopped   bool  // the solve stopped, or a split point above was cut: unwind
	sp        *splitPoint
	ev        *endEval
	mid       midTable // the sort and ProbCut searches' bounds
	level     int      // the selectivity level of the search under way (solve_selective.go)
	endCuts   int64    // this solve's ProbCuts
	// endCutNodes are the nodes of the ProbCuts' shallow searches.
	endCutNodes int64
	// levelNodes[l] are w's nodes at the end of the root's search at
	// level l, for experiments.
	levelNodes [exactLevel + 1]int64
}

// pollEvery is how many nodes pass between two looks at the context, the
// node limit and the split points above.
const pollEvery = 1 << 14

// reset readies w for a solve.
func (w *worker) reset() {
	w.nodes, w.published, w.poll, w.stopped, w.sp = 0, 0, pollEvery, false, nil
	w.level, w.endCuts, w.endCutNodes, w.levelNodes = exactLevel, 0, 0, [exactLevel + 1]int64{}
}

// publish adds w's new nodes to the solver's count.
func (w *worker) publish() {
	w.s.searched.Add(w.nodes - w.published)
	w.published = w.nodes
}

// pollNow tells whether the search must unwind: at every pollEvery nodes
// it publishes the nodes and looks at the context, the node limit and the
// split points w works in.
func (w *worker) pollNow() bool {
	if w.stopped {
		return true
	}
	if w.nodes < w.poll {
		return false
	}
	w.poll = w.nodes + pollEvery
	w.publish()
	s := w.s
	n := s.searched.Load()
	if s.progress != nil {
		s.progress.Store(n)
	}
	if s.stop.Load() || s.limit > 0 && n >= s.limit {
		s.stop.Store(true)
		w.stopped = true
		return true
	}
	select {
	case <-s.done:
		s.stop.Store(true)
		w.stopped = true
		return true
	default:
	}
	if w.sp.cutAbove() {
		w.stopped = true
	}
	return w.stopped
}

// empties counts the empty squares.
func empties(p, o Bitboard) int { return 64 - popcount(p|o) }

// tableOf is the table of nodes with n empty squares.
func (w *worker) tableOf(n int) *endTable {
	if n < nearEmpties {
		return &w.near
	}
	return &w.s.table
}

// tableMove returns the table's best move for p, o, or -1.
func (w *worker) tableMove(p, o Bitboard, n int) int {
	if e, ok := w.tableOf(n).probe(p, o); ok {
		return int(e.move)
	}
	return -1
}

// pvs is the score of p, o (n empty squares) in the window (alpha, beta):
// its first move with the window, the others with a null window first.
func (w *worker) pvs(p, o Bitboard, alpha, beta, n int) int {
	if n == 0 {
		return finalScore(p, o)
	}
	if w.pollNow() {
		return 0
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		w.nodes++
		return -w.pvs(o, p, -beta, -alpha, n)
	}
	var list moveList
	w.order(&list, p, o, moves, w.tableMove(p, o, n), n, alpha)
	m := &list.moves[0]
	w.nodes++
	best, bestSq := -w.pvs(o&^m.flips, p|m.flips|1<<m.sq, -beta, -alpha, n-1), int(m.sq)
	if w.stopped {
		return 0
	}
	if best < beta && list.n > 1 {
		best, bestSq = w.siblings(p, o, max(alpha, best), beta, n, true, &list, best, bestSq)
		if w.stopped {
			return 0
		}
	}
	w.tableOf(n).store(p, o, n, alpha, beta, best, bestSq, w.storeLevel(n))
	return best
}

// stabilityThreshold[n] is the least alpha at which a node with n empty
// squares counts the opponent's stable discs: below it the bound rarely
// cuts and the count costs more than it saves.
var stabilityThreshold = [61]int{
	99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48,
	48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
}

// nws is the null-window score of p, o (n empty squares) against alpha
// (beta = alpha+1), fail-soft.
func (w *worker) nws(p, o Bitboard, alpha, n int) int {
	switch {
	case n <= 4:
		return w.small(p, o, alpha, n)
	case n <= shallowEmpties:
		return w.shallow(p, o, alpha, n)
	}
	if w.pollNow() {
		return 0
	}
	if alpha >= stabilityThreshold[n] {
		if bound := 64 - 2*popcount(stableDiscs(o, p)); bound <= alpha {
			return bound
		}
	}
	first := -1
	t := w.tableOf(n)
	if e, ok := t.probe(p, o); ok {
		switch {
		case !e.bounds(w.level):
		case int(e.lower) > alpha:
			return int(e.lower)
		case int(e.upper) <= alpha:
			return int(e.upper)
		}
		first = int(e.move)
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		w.nodes++
		return -w.nws(o, p, -alpha-1, n)
	}
	if n >= etcEmpties {
		sc, hint, ok := w.etc(p, o, moves, alpha, n)
		if ok {
			return sc
		}
		if first < 0 {
			first = hint
		}
	}
	if w.level < exactLevel && n >= endCutEmpties {
		if sc, ok := w.endCut(p, o, alpha, n); ok {
			return sc
		}
	}
	// The table's move is searched before the others are sorted (lazyOrder):
	// it cuts most often, and then their sort's searches are spared.
	var list moveList
	var f Bitboard
	if !lazyOrder || first < 0 || moves&(1<<first) == 0 {
		w.order(&list, p, o, moves, first, n, alpha)
		first, f = int(list.moves[0].sq), list.moves[0].flips
	} else {
		f = flips(p, o, first)
	}
	w.nodes++
	best, bestSq := -w.nws(o&^f, p|f|1<<first, -alpha-1, n-1), first
	if w.stopped {
		return 0
	}
	if best <= alpha && list.n == 0 && moves&(moves-1) != 0 {
		w.order(&list, p, o, moves, first, n, alpha)
	}
	if best <= alpha && list.n > 1 {
		best, bestSq = w.siblings(p, o, alpha, alpha+1, n, false, &list, best, bestSq)
		if w.stopped {
			return 0
		}
	}
	t.store(p, o, n, alpha, alpha+1, best, bestSq, w.storeLevel(n))
	return best
}

// siblings searches the moves of list after the first, which scored best
// (by bestSq) without a cutoff: with a null window at alpha, and for a PV
// node (pv) again with the window up to beta when one scores inside it.
// Idle workers share the work when the node is far enough from the end
// (splitEmpties). It returns the node's score and best move.
func (w *worker) siblings(p, o Bitboard, alpha, beta, n int, pv bool, list *moveList, best, bestSq int) (int, int) {
	list.sortRest()
	if n >= splitEmpties && w.s.idle.Load() > 0 {
		return w.split(p, o, alpha, beta, n, pv, list, best, bestSq)
	}
	return w.serial(p, o, list, alpha, beta, n, pv, best, bestSq)
}

// serial is siblings by w alone, the moves one after the other.
func (w *worker) serial(p, o Bitboard, list *moveList, alpha, beta, n int, pv bool, best, bestSq int) (int, int) {
	for i := 1; i < list.n; i++ {
		m := &list.moves[i]
		sc := w.sibling(p, o, m, alpha, beta, n, pv)
		if w.stopped {
			return 0, -1
		}
		if sc > best {
			best, bestSq = sc, int(m.sq)
			if sc >= beta {
				break
			}
			alpha = max(alpha, sc)
		}
	}
	return best, bestSq
}

// sibling searches move m of p, o with a null window at alpha, and again up
// to beta for a PV node when it scores inside (alpha, beta).
func (w *worker) sibling(p, o Bitboard, m *sortedMove, alpha, beta, n int, pv bool) int {
	np, no := o&^m.flips, p|m.flips|1<<m.sq
	w.nodes++
	sc := -w.nws(np, no, -alpha-1, n-1)
	if pv && sc > alpha && sc < beta && !w.stopped {
		sc = -w.pvs(np, no, -beta, -sc+1, n-1)
	}
	return sc
}

// lazyOrder searches the table's move before ordering a null-window
// node's other moves, whose sort searches a cut then spares: the same
// tree, 0.6% fewer nodes (the sort searches') on FFO #49-#52 on one
// worker; with the other moves sorted only when the first does not cut
// (sortRest), 2-4% less time on #45-#48.
var lazyOrder = true

// small is nws for 1 to 4 empty squares.
func (w *worker) small(p, o Bitboard, alpha, n int) int {
	empty := ^(p | o)
	switch n {
	case 4:
		return w.solve4(p, o, alpha, empty)
	case 3:
		return w.solve3(p, o, alpha, empty)
	case 2:
		x := bits.TrailingZeros64(empty)
		return w.solve2(p, o, alpha, x, bits.TrailingZeros64(empty&(empty-1)))
	case 1:
		return w.solve1(p, bits.TrailingZeros64(empty))
	}
	return finalScore(p, o)
}
