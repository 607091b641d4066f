package engine

import (
	"context"
	"reflect"

	"github.com/gametune/gametune/games"
)

// solveRoot answers a search from a root the game's solver takes
// (Options.SolveRoot, a games.RootSolver with its plies left known, in a
// search without a node limit): res gets the solver's move and score (the
// exact search's), its nodes counted. It tells whether it answered. Its
// error is the solver's; when ctx is done it answers nothing and returns
// true, for the search to return ctx's error.
func (s *Searcher) solveRoot(ctx context.Context, p games.Position, lim Limits, res *Result, each func(Result)) (bool, error) {
	rs, ok := p.(games.RootSolver)
	if !ok || !s.opts.SolveRoot || s.opts.NoExact || lim.Nodes != 0 {
		return false, nil
	}
	depth := rs.PliesLeft()
	if depth < 0 || depth >= MaxPly/2 {
		return false, nil
	}
	if t := reflect.TypeOf(p); s.endSolver == nil || s.endSolverOf != t {
		es, err := rs.NewEndSolver()
		if err != nil {
			return true, err
		}
		s.endSolver, s.endSolverOf = es, t
	}
	sol, err := s.endSolver.SolveRoot(ctx, p, Mate)
	s.stats.Nodes += sol.Nodes
	if err != nil {
		if ctx.Err() != nil {
			return true, nil
		}
		return true, err
	}
	res.Move, res.Score = sol.Move, int(sol.Score)
	s.stats.Depth, s.stats.Evals = depth, 0
	s.rootPV = append(s.rootPV[:0], sol.Move)
	if each != nil {
		res.PV, res.Stats = s.rootPV, s.iterationStats()
		each(*res)
	}
	return true, nil
}
