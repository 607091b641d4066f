package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/gametune/gametune/games"
)

// ProbCutFits are the relations between shallow and deep searches that a
// games.ProbCutter gives the selective search: Fits[stage][depth] for a
// deep search of depth plies at a stage of the game (Shallow 0 where none
// was fitted).
type ProbCutFits [][]games.ProbCutFit

// minProbCutSamples is the fewest positions a relation is fitted from.
const minProbCutSamples = 20

// FitProbCut fits Buro's relations for Multi-ProbCut from positions: it
// searches each position to maxDepth with the exact search (iterative
// deepening gives the value at every depth on the way), and for each stage
// (stage(p), 0 to stages-1) and each deep depth d from 3 to maxDepth fits
// the value at d against the value at shallow(d) by least squares: Slope
// and Offset of the line, Sigma the deviation of what it leaves. Positions
// whose value at some depth is a win or a loss are left out, and a
// relation fitted from fewer than 20 positions is left empty. It costs one
// search to maxDepth a position.
func FitProbCut(ctx context.Context, positions []games.Position, stage func(games.Position) int, stages int, ev *games.Evaluator, w []float64, maxDepth int, shallow func(depth int) int) (ProbCutFits, error) {
	if maxDepth < 3 || maxDepth > MaxDepth || stages < 1 {
		return nil, fmt.Errorf("engine: ProbCut fit to depth %d over %d stages: want a depth from 3 to %d and a stage at least", maxDepth, stages, MaxDepth)
	}
	s, err := New(Options{NoExact: true})
	if err != nil {
		return nil, err
	}
	// sums[stage][depth] accumulate the pairs (shallow value, deep value).
	type sums struct{ n, x, y, xx, xy, yy float64 }
	acc := make([][]sums, stages)
	for i := range acc {
		acc[i] = make([]sums, maxDepth+1)
	}
	values := make([]float64, maxDepth+1)
	for _, p := range positions {
		st := stage(p)
		if st < 0 || st >= stages {
			return nil, fmt.Errorf("engine: stage %d of %s: want 0 to %d", st, p, stages-1)
		}
		s.NewGame()
		decided := false
		_, err := s.SearchEach(ctx, p, ev, w, Limits{Depth: maxDepth}, func(r Result) {
			if r.Stats.Depth <= maxDepth {
				values[r.Stats.Depth] = float64(r.Score)
			}
			decided = decided || IsWin(r.Score) || IsLoss(r.Score)
		})
		if err == ErrGameOver {
			continue
		}
		if err != nil {
			return nil, err
		}
		if decided || s.stats.Depth != maxDepth {
			continue
		}
		for d := 3; d <= maxDepth; d++ {
			sh := shallow(d)
			if sh < 1 || sh >= d {
				continue
			}
			x, y := values[sh], values[d]
			a := &acc[st][d]
			a.n++
			a.x, a.y, a.xx, a.xy, a.yy = a.x+x, a.y+y, a.xx+x*x, a.xy+x*y, a.yy+y*y
		}
	}
	fits := make(ProbCutFits, stages)
	for st := range fits {
		fits[st] = make([]games.ProbCutFit, maxDepth+1)
		for d := 3; d <= maxDepth; d++ {
			a := acc[st][d]
			if a.n < minProbCutSamples {
				continue
			}
			vx := a.xx - a.x*a.x/a.n
			if vx <= 0 {
				continue
			}
			slope := (a.xy - a.x*a.y/a.n) / vx
			offset := (a.y - slope*a.x) / a.n
			// The residuals' sum of squares: Syy - slope*Sxy, centred.
			rss := (a.yy - a.y*a.y/a.n) - slope*(a.xy-a.x*a.y/a.n)
			fits[st][d] = games.ProbCutFit{Shallow: shallow(d), Slope: float32(slope), Offset: float32(offset), Sigma: float32(math.Sqrt(max(rss, 0) / (a.n - 2)))}
		}
	}
	return fits, nil
}
