package engine

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/games"
)

// Value is the game-theoretic value of a position for the side to move.
type Value int8

const (
	Unknown Value = iota // the tree could not be exhausted within the depth
	Win
	Loss
	DrawValue
)

func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case DrawValue:
		return "draw"
	}
	return "unknown"
}

// Solution is the result of Solve.
type Solution struct {
	Value Value
	Move  games.Move // a best move: the quickest win, the slowest loss, or a drawing move
	Plies int        // plies to the end with best play, for a win or a loss
	Depth int        // the depth that settled the value
	Nodes int64      // positions visited over all iterations
}

// Solve finds the exact value of p by searching ever deeper until every
// leaf of the tree is a finished game (or a forced win or loss is proven),
// up to maxDepth plies. The table is cleared before each depth so that no
// result from a shallower search stands in for an exhausted subtree.
// Value is Unknown when maxDepth is not enough.
func (s *Searcher) Solve(ctx context.Context, p games.Position, ev *games.Evaluator, maxDepth int) (Solution, error) {
	return s.SolveEach(ctx, p, ev, maxDepth, 0, nil)
}

// SolveEach is Solve that stops after nodes nodes over all depths (0: no
// limit; Value Unknown, Depth the last depth searched in full) and gives
// each depth searched in full to each, when not nil, as it completes, on
// the search's goroutine. With Progress, a caller can show how a long
// solve advances. When ctx is done it returns what the depths searched in
// full found, with ctx's error.
func (s *Searcher) SolveEach(ctx context.Context, p games.Position, ev *games.Evaluator, maxDepth int, nodes int64, each func(Solution)) (Solution, error) {
	if maxDepth < 1 || maxDepth > MaxPly/2 {
		return Solution{}, fmt.Errorf("engine: solve depth %d out of range (1-%d)", maxDepth, MaxPly/2)
	}
	if nodes < 0 {
		return Solution{}, fmt.Errorf("engine: solve node limit %d is negative (0 for none)", nodes)
	}
	var sol Solution
	w := ev.Defaults()
	if s.opts.Selective { // a value is exact only from the full-width search
		s.opts.Selective = false
		defer func() { s.opts.Selective = true }()
	}
	for depth := 1; depth <= maxDepth; depth++ {
		lim := Limits{Depth: depth}
		if nodes > 0 {
			if lim.Nodes = nodes - sol.Nodes; lim.Nodes <= 0 {
				return sol, nil
			}
		}
		s.NewGame()
		res, err := s.Search(ctx, p, ev, w, lim)
		sol.Nodes += res.Stats.Nodes
		if err != nil {
			return sol, err
		}
		if res.Stats.Depth < depth && !IsWin(res.Score) && !IsLoss(res.Score) {
			return sol, nil // the node limit
		}
		sol.Move, sol.Depth = res.Move, depth
		switch {
		case IsWin(res.Score):
			sol.Value, sol.Plies = Win, Mate-res.Score
		case IsLoss(res.Score):
			sol.Value, sol.Plies = Loss, Mate+res.Score
		case res.Stats.Evals == 0:
			sol.Value = DrawValue
		}
		if each != nil {
			each(sol)
		}
		if sol.Value != Unknown {
			return sol, nil
		}
	}
	return sol, nil
}
