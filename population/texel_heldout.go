package population

import (
	"context"
	"fmt"
	"slices"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/learn"
)

// TexelRound is what one round of Texel's method found: the fit
// (learn.Fit: K, the weights on their steps, the optimum before snapping)
// and the losses (mean squared error with the fit's K) of the weights the
// round started from and of the fitted weights, on the training and on the
// held-out positions. HeldError is the standard error of HeldFit-HeldStart
// (from the positions' paired differences). Accepted is false when the fit
// does not lower the held-out loss by more than HeldError (or there is
// nothing to judge it on): then the round keeps its start weights, and
// Reason says why.
type TexelRound struct {
	Fit                  learn.FitResult
	TrainStart, TrainFit float64
	HeldStart, HeldFit   float64
	HeldError            float64
	Train, Held          int // positions in each set
	Accepted             bool
	Reason               string
}

// String describes the round in a line: its losses and its verdict.
func (r TexelRound) String() string {
	s := fmt.Sprintf("train loss %.5f -> %.5f (%d positions), held-out loss %.5f -> %.5f ± %.5f (%d positions)",
		r.TrainStart, r.TrainFit, r.Train, r.HeldStart, r.HeldFit, r.HeldError, r.Held)
	if r.Accepted {
		return s + ": fit accepted"
	}
	return s + ": kept the previous weights, " + r.Reason
}

// Champion returns the weights the round ends with: the fit's when it
// was accepted, start otherwise.
func (r TexelRound) Champion(start []float64) []float64 {
	if r.Accepted {
		return r.Fit.Weights
	}
	return start
}

// FitRound fits ev's weights to the games of set from start by learn's
// fit (learn.Fit: an evaluator's weights alone are fitted by L-BFGS),
// holding out learn's share of the games chosen by seed, and judges the
// fit on them: it is accepted only when its weights, snapped to their
// steps, have a held-out loss lower than start's, with the same K, by more
// than the standard error of the difference (and minHeldGain): a gain the
// held-out positions cannot tell from noise (all draws, say) is no gain.
// With no training or no held-out positions nothing is accepted, and the
// round's fit is start.
func FitRound(ctx context.Context, set *learn.Set, ev *games.Evaluator, start []float64, seed uint64) (TexelRound, error) {
	var r TexelRound
	keep := func() {
		r.Fit.Weights, r.Fit.Raw = slices.Clone(start), slices.Clone(start)
		r.Reason = fmt.Sprintf("too few positions to fit and judge a fit (%d to fit, %d held out)", r.Train, r.Held)
	}
	if len(set.Games) == 0 {
		keep()
		return r, nil
	}
	sp := space{ev.Features}
	fit, err := learn.Fit(ctx, weightsOnly(ev), start, set, learn.FitOptions{Seed: seed, Snap: sp.snapAll})
	if err != nil {
		return r, fmt.Errorf("population: Texel's fit: %w", err)
	}
	r.Fit, r.Train, r.Held = fit, fit.Positions, fit.HeldOutPositions
	if r.Train == 0 || r.Held == 0 {
		keep()
		return r, nil
	}
	r.TrainStart, r.TrainFit = fit.StartLoss, fit.Loss
	r.HeldStart, r.HeldFit, r.HeldError = fit.StartHeldOut, fit.HeldOutLoss, fit.HeldOutError
	r.Accepted = r.HeldFit < r.HeldStart-max(r.HeldError, minHeldGain)
	if !r.Accepted {
		r.Reason = "the fit does not lower the held-out loss by more than its standard error"
	}
	return r, nil
}

// minHeldGain is the least fall of the held-out loss (a mean squared
// error of about 0.1 on decided games) that FitRound takes for a gain:
// positions that are all draws, say, are fitted a little better by any
// weights nearer zero, which is no reason to move.
const minHeldGain = 1e-6
