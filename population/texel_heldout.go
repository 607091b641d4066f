package population

import (
	"context"
	"fmt"
	"slices"

	"github.com/gametune/gametune/games"
)

// HeldOutPercent is the share of Texel's positions held out of the fit
// (Positions.HeldOut): the fit never sees them, and a round's fit is a
// candidate only when it lowers their loss.
const HeldOutPercent = 20

// heldOut reports whether the position of Zobrist hash h is held out by a
// run of seed: a fixed HeldOutPercent share of positions, chosen by the
// hash alone, so a resumed run splits its positions as before and a
// position met in many games is always on the same side.
func heldOut(seed, h uint64) bool {
	return games.Mix(games.Mix(seed^0x9e3779b97f4a7c15)^h)%100 < HeldOutPercent
}

// TexelRound is what one round of Texel's method found: the fit on the
// training positions and the losses (mean squared error with the fit's K)
// of the weights the round started from and of the fitted weights (as
// snapped to the steps), on the training and on the held-out positions.
// Accepted is false when the fit does not lower the held-out loss (or
// there is nothing to judge it on): then the round keeps its start
// weights, and Reason says why.
type TexelRound struct {
	Fit                  TexelFit
	TrainStart, TrainFit float64
	HeldStart, HeldFit   float64
	Train, Held          int // positions in each set
	Accepted             bool
	Reason               string
}

// String describes the round in a line: its losses and its verdict.
func (r TexelRound) String() string {
	s := fmt.Sprintf("train loss %.5f -> %.5f (%d positions), held-out loss %.5f -> %.5f (%d positions)",
		r.TrainStart, r.TrainFit, r.Train, r.HeldStart, r.HeldFit, r.Held)
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

// FitRound fits the weights to the training positions from start
// (FitWeights) and judges the fit on the held-out positions: it is
// accepted only when its snapped weights have a lower held-out loss than
// start, with the same K. With no training or no held-out positions
// nothing is fitted or accepted. It costs FitWeights and O(held*Dim).
func FitRound(ctx context.Context, train, held *Positions, ev *games.Evaluator, start []float64) (TexelRound, error) {
	r := TexelRound{Train: train.Len(), Held: held.Len()}
	if r.Train == 0 || r.Held == 0 {
		r.Fit = TexelFit{Weights: slices.Clone(start), Raw: slices.Clone(start)}
		r.Reason = fmt.Sprintf("too few positions to fit and judge a fit (%d to fit, %d held out)", r.Train, r.Held)
		return r, nil
	}
	if held.Dim != train.Dim {
		return r, fmt.Errorf("population: held-out positions of %d features, training positions of %d", held.Dim, train.Dim)
	}
	fit, err := FitWeights(ctx, train, ev, start)
	if err != nil {
		return r, err
	}
	r.Fit = fit
	r.TrainStart, r.TrainFit = fit.LossStart, texelLoss(train, fit.K, fit.Weights, nil)
	r.HeldStart, r.HeldFit = texelLoss(held, fit.K, start, nil), texelLoss(held, fit.K, fit.Weights, nil)
	r.Accepted = r.HeldFit < r.HeldStart
	if !r.Accepted {
		r.Reason = "the fit does not lower the held-out loss"
	}
	return r, nil
}
