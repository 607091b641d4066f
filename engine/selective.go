package engine

import (
	"math"

	"github.com/gametune/gametune/games"
)

// The selective search (Options.Selective). Its techniques live here; the
// negamax of search.go calls them where they apply, and never in the
// exact search.

// selection is the part of a Searcher the selective search uses, set at
// the start of each Search.
type selection struct {
	on        bool // Options.Selective
	par       SearchParams
	checks    games.Checker    // the game's checks, for the techniques that must not prune a check
	nullMover games.NullMover  // nil when the game has none or NoNullMove is set
	exchanger games.Exchanger  // nil when the game has none or NoExchangePruning is set
	prober    games.ProbCutter // nil when the game has none or NoProbCut is set
	nullOff   bool             // within a null-move verification search: no null move
	afterNull [MaxPly + 2]bool // the node at this ply was reached by a null move
	reduction [64][64]int8     // late-move reductions by depth and move number
	builtFor  SearchParams     // the parameters reduction was computed for
}

// setSelection prepares the selective search of p, or turns it off.
func (s *Searcher) setSelection(p games.Position) {
	sel := &s.sel
	sel.on = s.opts.Selective
	sel.checks, sel.nullMover, sel.exchanger, sel.prober = nil, nil, nil, nil
	sel.nullOff = false
	if !sel.on {
		return
	}
	sel.par = s.opts.Params
	if sel.par == (SearchParams{}) {
		sel.par = DefaultSearchParams(p)
	}
	if sel.par != sel.builtFor {
		sel.buildReductions()
	}
	if c, ok := p.(games.Checker); ok {
		sel.checks = c
	}
	if n, ok := p.(games.NullMover); ok && !s.opts.NoNullMove {
		sel.nullMover = n
	}
	if x, ok := p.(games.Exchanger); ok && !s.opts.NoExchangePruning {
		sel.exchanger = x
	}
	if pc, ok := p.(games.ProbCutter); ok && !s.opts.NoProbCut {
		sel.prober = pc
	}
}

// buildReductions fills the table of late-move reductions:
// ReductionBase/100 + ln(depth)*ln(move)*100/ReductionDivisor plies,
// rounded down.
func (sel *selection) buildReductions() {
	p := sel.par
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			r := float64(p.ReductionBase)/100 + math.Log(float64(d))*math.Log(float64(m))*100/float64(p.ReductionDivisor)
			sel.reduction[d][m] = int8(min(max(r, 0), 63))
		}
	}
	sel.builtFor = p
}

// lateReduction is the plies a quiet move, the move-th searched (1-based)
// at depth, is searched less.
func (s *Searcher) lateReduction(depth, move int, pv bool) int {
	p := &s.sel.par
	if s.opts.NoLateReductions || p.ReductionMinDepth == 0 || depth < p.ReductionMinDepth || move <= p.ReductionMinMove {
		return 0
	}
	r := int(s.sel.reduction[min(depth, 63)][min(move, 63)])
	if pv && r > 0 {
		r--
	}
	return max(min(r, depth-2), 0)
}

// givesCheck tells whether move m checks the opponent (the game's
// Checker): a move that does is neither pruned nor reduced.
func (s *Searcher) givesCheck(m games.Move) bool {
	if s.sel.checks == nil {
		return false
	}
	s.pos.Play(m)
	check := s.sel.checks.InCheck()
	s.pos.Undo()
	return check
}

// prunable tells whether the quiet move m, the quiets-th quiet move at a
// node of depth whose static evaluation is eval, can be skipped: late-move
// pruning and futility pruning. It is asked only at nodes outside the
// principal variation, not in check, once a move has been searched.
func (s *Searcher) prunable(m games.Move, depth, quiets int, eval, alpha int32) bool {
	p := &s.sel.par
	late := !s.opts.NoLatePruning && depth <= p.PruneMaxDepth && quiets >= p.PruneBase+depth*depth*p.PruneScale/100
	futile := !s.opts.NoFutility && depth <= p.FutilityMaxDepth && eval+int32(p.FutilityBase+p.FutilityMargin*depth) <= alpha
	return (late || futile) && !s.givesCheck(m)
}

// expectsFailLow tells, when the parameters ask (NullTableCheck), whether
// the table holds an upper bound below beta for the position: a null
// move there is expected to fail low.
func (s *Searcher) expectsFailLow(ply int, beta int32) bool {
	if s.sel.par.NullTableCheck == 0 || s.opts.NoTable {
		return false
	}
	e, ok := s.table.probe(s.pos.Hash())
	return ok && e.bound == boundUpper && fromTable(e.score, ply) < beta
}

// playNull passes the move and counts the new position, as play does.
func (s *Searcher) playNull() {
	s.sel.nullMover.PlayNull()
	s.stats.Nodes++
	if s.stats.Nodes >= s.nodeLimit {
		s.stop = true
	}
}

// pruneNode tries the techniques that end a node outside the principal
// variation before its moves are searched: reverse futility, razoring,
// null move and ProbCut, in that order. It returns the node's score and
// true when one of them ends it. searchedHere is true when it searched
// the node's own position (razoring's quiescence, a verification, a
// ProbCut search), which reuses the node's move list: the caller then
// lists the moves again.
func (s *Searcher) pruneNode(depth, ply int, alpha, beta, eval int32) (score int32, cut, searchedHere bool) {
	p := &s.sel.par
	if IsWin(int(beta)) || IsLoss(int(alpha)) {
		return 0, false, false
	}
	if !s.opts.NoReverseFutility && depth <= p.ReverseMaxDepth && eval-int32(p.ReverseMargin*depth) >= beta {
		return eval, true, false
	}
	if !s.opts.NoRazoring && depth <= p.RazorMaxDepth && eval+int32(p.RazorBase+p.RazorMargin*depth) <= alpha {
		searchedHere = true
		if v := s.quiesce(ply, 0, alpha, alpha+1); v <= alpha || s.stop {
			return v, true, true
		}
	}
	if s.sel.nullMover != nil && !s.sel.nullOff && !s.sel.afterNull[ply] && p.NullMinDepth > 0 && depth >= p.NullMinDepth && eval >= beta && s.sel.nullMover.NullSafe() && !s.expectsFailLow(ply, beta) {
		r := p.NullReduction + depth/p.NullDivisor
		if p.NullEvalMargin > 0 {
			r += min(int(eval-beta)/p.NullEvalMargin, p.NullEvalMax)
		}
		s.playNull()
		s.sel.afterNull[ply+1] = true
		v := -s.negamax(depth-1-r, ply+1, -beta, -beta+1)
		s.sel.afterNull[ply+1] = false
		s.sel.nullMover.UndoNull()
		if s.stop {
			return 0, true, searchedHere
		}
		if v >= beta {
			if IsWin(int(v)) {
				v = beta
			}
			if depth < p.NullVerifyFrom {
				return v, true, searchedHere
			}
			s.sel.nullOff = true
			w := s.negamax(depth-1-r, ply, beta-1, beta)
			s.sel.nullOff = false
			if w >= beta || s.stop {
				return v, true, true
			}
			searchedHere = true
		}
	}
	if s.sel.prober != nil && p.ProbCutMinDepth > 0 && depth >= p.ProbCutMinDepth {
		if fit, ok := s.sel.prober.ProbCut(depth); ok && fit.Shallow >= 1 && fit.Shallow < depth && fit.Slope > 0 {
			searchedHere = true
			margin := float64(p.ProbCutThreshold) / 100 * float64(fit.Sigma)
			// The deep value is predicted Slope*v + Offset from the
			// shallow value v: it clears beta by margin when v reaches up.
			up := int32(math.Ceil((float64(beta) + margin - float64(fit.Offset)) / float64(fit.Slope)))
			if up < games.MaxEval {
				if v := s.negamax(fit.Shallow, ply, up-1, up); v >= up || s.stop {
					return beta, true, true
				}
			}
			down := int32(math.Floor((float64(alpha) - margin - float64(fit.Offset)) / float64(fit.Slope)))
			if down > -games.MaxEval {
				if v := s.negamax(fit.Shallow, ply, down, down+1); v <= down || s.stop {
					return alpha, true, true
				}
			}
		}
	}
	return 0, false, searchedHere
}
