package engine

import "github.com/gametune/gametune/games"

// Minimax returns the plain minimax (negamax) value of p to depth plies from
// the side to move's point of view: no pruning, no table, no ordering, the
// same terminal scores, the same extensions (a ply more where the side to
// move is in check, or below the root after a move games.Extender names,
// up to twice the depth), the same draws by repetition in the tree
// (games.Repeater) and the same quiescence over noisy moves as the
// Searcher (with a games.QuietChecker, its quiet checks at the first ply
// and every legal move at the second where the side to move is in check).
// It is the reference the Searcher is tested against; its cost is the
// whole tree.
func Minimax(p games.Position, ev *games.Evaluator, w []float64, depth int) int {
	v, _ := MinimaxNodes(p, ev, w, depth)
	return v
}

// MinimaxNodes is Minimax that also counts the positions it visits, counted
// as Stats.Nodes counts them.
func MinimaxNodes(p games.Position, ev *games.Evaluator, w []float64, depth int) (int, int64) {
	m := minimax{p: p, ev: ev, w: w, nodes: 1, extendTo: 2 * depth}
	m.checker, _ = p.(games.Checker)
	m.quietChecker, _ = p.(games.QuietChecker)
	m.extender, _ = p.(games.Extender)
	m.repeater, _ = p.(games.Repeater)
	return int(m.search(depth, 0)), m.nodes
}

// MinimaxLimited is MinimaxNodes that gives up (ok false) once it has
// visited more than maxNodes positions: plain quiescence over every capture
// can be very large in chess.
func MinimaxLimited(p games.Position, ev *games.Evaluator, w []float64, depth int, maxNodes int64) (value int, nodes int64, ok bool) {
	m := minimax{p: p, ev: ev, w: w, nodes: 1, limit: maxNodes, extendTo: 2 * depth}
	m.checker, _ = p.(games.Checker)
	m.quietChecker, _ = p.(games.QuietChecker)
	m.extender, _ = p.(games.Extender)
	m.repeater, _ = p.(games.Repeater)
	v := m.search(depth, 0)
	return int(v), m.nodes, !m.over
}

type minimax struct {
	p     games.Position
	ev    *games.Evaluator
	w     []float64
	nodes int64
	limit int64 // 0: none
	over  bool

	checker      games.Checker
	quietChecker games.QuietChecker
	extender     games.Extender
	repeater     games.Repeater
	extendTo     int
}

func (m *minimax) play(mv games.Move) {
	m.p.Play(mv)
	m.nodes++
	if m.limit > 0 && m.nodes > m.limit {
		m.over = true
	}
}

func (m *minimax) search(depth, ply int) int32 {
	if m.repeater != nil && m.repeater.Repeats(ply) {
		return 0
	}
	moves, outcome := m.p.Moves(nil)
	if outcome != games.Ongoing {
		return terminal(outcome, m.p.Turn(), ply)
	}
	if ply < m.extendTo && ((m.checker != nil && m.checker.InCheck()) || (m.extender != nil && ply > 0 && m.extender.Extend())) {
		depth++
	}
	if depth <= 0 || ply >= MaxPly {
		return m.quiesce(ply, 0)
	}
	best := int32(-infinity)
	for _, mv := range moves {
		if m.over {
			break
		}
		m.play(mv)
		best = max(best, -m.search(depth-1, ply+1))
		m.p.Undo()
	}
	return best
}

func (m *minimax) quiesce(ply, qply int) int32 {
	if m.repeater != nil && qply > 0 && m.repeater.Repeats(ply) {
		return 0
	}
	var moves []games.Move
	best := int32(-infinity)
	if m.quietChecker != nil && evasionsAt(qply) && m.quietChecker.InCheck() && ply < MaxPly {
		var outcome games.Outcome
		if moves, outcome = m.p.Moves(nil); outcome != games.Ongoing {
			return terminal(outcome, m.p.Turn(), ply)
		}
	} else {
		v := m.ev.Evaluate(m.p, m.w)
		best = int32(min(max(v, -games.MaxEval), games.MaxEval))
		if ply >= MaxPly {
			return best
		}
		moves = m.p.Noisy(nil)
		if m.quietChecker != nil && quietChecksAt(qply, best) {
			moves = m.quietChecker.QuietChecks(moves)
		}
	}
	for _, mv := range moves {
		if m.over {
			break
		}
		m.play(mv)
		best = max(best, -m.quiesce(ply+1, qply+1))
		m.p.Undo()
	}
	return best
}
