package othello

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

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

// root searches the root with the full window and returns the score and
// a best move: from selectiveEmpties up, at each selectivity level of
// selectiveLevels in turn, then exactly. The root's moves are searched one
// after the other in the order sorted before (PVS), so that the move
// found is the first of the best in it whatever the workers. (A window
// around a score guessed by a midgame search, widened when the score
// falls outside, searched more nodes on FFO #40-#47.)
func (w *worker) root(p, o Bitboard) (int, games.Move) {
	moves := legalMoves(p, o)
	n := empties(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o), games.NoMove
		}
		w.nodes++
		return -w.pvs(o, p, -inf, inf, n), PassMove
	}
	first := exactLevel
	if n >= selectiveEmpties && n >= endCutEmpties {
		first = 0
	}
	var sc, sq int
	searched := false // a level before this one was searched
	for w.level = first; w.level <= exactLevel; w.level++ {
		if w.level < exactLevel && !selectiveLevels[w.level] {
			continue
		}
		var list moveList
		w.mid.clear()
		w.order(&list, p, o, moves, w.rootMove(p, o, n), n, -inf)
		alpha, beta := -inf, inf
		if searched && selectiveAspiration {
			alpha, beta = sc-1, sc+1
		}
		sc, sq = w.rootWindow(p, o, &list, alpha, beta, n)
		if (sc <= alpha || sc >= beta) && !w.stopped {
			sc, sq = w.rootWindow(p, o, &list, -inf, inf, n)
		}
		if w.stopped {
			return 0, games.NoMove
		}
		w.s.table.store(p, o, n, -inf, inf, sc, sq, w.level)
		w.levelNodes[w.level] = w.nodes
		searched = true
	}
	w.level = exactLevel
	return sc, games.Move(sq + 1)
}

// rootMove is the table's move to search first at the root at w's
// level, or -1: at the exact level only an exact search's, so that the
// exact search's order, and the move it finds, do not depend on the
// selective levels' searches, whose scores depend on the table's other
// entries and so on the number of workers (rootOrderSelective: any
// level's move first, for experiments).
func (w *worker) rootMove(p, o Bitboard, n int) int {
	e, ok := w.tableOf(n).probe(p, o)
	if !ok || w.level == exactLevel && int(e.level) < exactLevel && !rootOrderSelective {
		return -1
	}
	return int(e.move)
}

// selectiveAspiration: each level after the first searches the root in
// the window about the score of the level before (searched again with the
// full window when the score falls outside): with the endgame tables,
// 6% fewer nodes on FFO #49-#52 on one worker (with etcEmpties at 12 as
// well, #57 took a third of its nodes). The move found is still the first
// of the best in the order of the root's moves (TestSelectiveSolveWorkers).
var selectiveAspiration = true

// rootOrderSelective lets the exact search at the root try the selective
// levels' best move first: fewer nodes, but the best move found among
// several of the same score may then depend on the number of workers.
var rootOrderSelective = false

// rootWindow searches the root's moves of list in the window (alpha,
// beta), fail-soft, and returns the score and the best move's square.
func (w *worker) rootWindow(p, o Bitboard, list *moveList, alpha, beta, n int) (int, int) {
	list.sortRest()
	best, bestSq := -inf, -1
	for i := range list.n {
		m := &list.moves[i]
		np, no := o&^m.flips, p|m.flips|1<<m.sq
		w.nodes++
		var sc int
		if i == 0 {
			sc = -w.pvs(np, no, -beta, -alpha, n-1)
		} else if sc = -w.nws(np, no, -alpha-1, n-1); sc > alpha && sc < beta {
			sc = -w.pvs(np, no, -beta, -sc+1, n-1)
		}
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
	var list moveList
	var best, bestSq int
	if lazyOrder && first >= 0 && moves&(1<<first) != 0 {
		// The table's move first, before sorting the others: it cuts most
		// often, and then their sort's searches are spared.
		f := flips(p, o, first)
		w.nodes++
		best, bestSq = -w.nws(o&^f, p|f|1<<first, -alpha-1, n-1), first
		if w.stopped {
			return 0
		}
		if best <= alpha && moves&(moves-1) != 0 {
			w.order(&list, p, o, moves, first, n, alpha)
		}
	} else {
		w.order(&list, p, o, moves, first, n, alpha)
		m := &list.moves[0]
		w.nodes++
		best, bestSq = -w.nws(o&^m.flips, p|m.flips|1<<m.sq, -alpha-1, n-1), int(m.sq)
		if w.stopped {
			return 0
		}
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

// etcEmpties is the least number of empty squares at which a null-window
// node looks its moves' positions up in the table before searching them
// (12 rather than 16: 4% fewer nodes on FFO #45-#52, in about the same
// time on one worker; 11 since the probes are fetched together, 1% fewer
// nodes on #45-#48 and 1.6% on #49-#52 than 12, 10 no better).
var etcEmpties = 11

// etc looks the positions after each move up in the table (enhanced
// transposition cutoff): when one of them is bounded low enough that the
// move scores above alpha, the node is cut without a search; else it
// returns the move to search first by etcHint (-1: none). Their
// buckets are asked of memory all together first (prefetch), as these
// probes miss the processor's caches: on FFO #55 they were 12% of the
// time before; with the fetches first, FFO #53 on one worker took 5% less
// time (two pairs side by side, 93.3 s and 96.3 s against 94.9 s and
// 106.2 s).
func (w *worker) etc(p, o, moves Bitboard, alpha, n int) (int, int, bool) {
	t := w.tableOf(n - 1)
	var next [32][2]Bitboard // the positions after the moves
	var sqs [32]int8
	k := 0
	for m := moves; m != 0 && k < len(next); m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p, o, sq)
		next[k] = [2]Bitboard{o &^ f, p | f | 1<<sq}
		sqs[k] = int8(sq)
		t.fetch(next[k][0], next[k][1])
		k++
	}
	hint, hintUpper := -1, 99
	for i, x := range next[:k] {
		e, ok := t.probe(x[0], x[1])
		if !ok {
			continue
		}
		if e.bounds(w.level) && -int(e.upper) > alpha {
			w.nodes++
			return -int(e.upper), -1, true
		}
		if etcHint && -int(e.upper) > alpha && int(e.upper) < hintUpper {
			hint, hintUpper = int(sqs[i]), int(e.upper)
		}
	}
	return 0, hint, false
}

// etcHint: a null-window node with no move of its own in the table
// searches first the move whose position a less exact search (a
// selectivity level before) bounded best, when that bound puts the move
// above alpha: 1.6%, 0.3% and 0.8% fewer nodes on FFO #45-#48, #49-#52
// and #53 on one worker, in about the same time.
var etcHint = true

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
