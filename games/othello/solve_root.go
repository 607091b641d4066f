package othello

import "github.com/gametune/gametune/games"

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
	m := &list.moves[0]
	w.nodes++
	best := -w.pvs(o&^m.flips, p|m.flips|1<<m.sq, -beta, -alpha, n-1)
	switch {
	case w.stopped:
		return 0, -1
	case best >= beta:
		return best, int(m.sq)
	}
	// The others in turn, never shared: the first of the best is found.
	return w.serial(p, o, list, max(alpha, best), beta, n, true, best, int(m.sq))
}
