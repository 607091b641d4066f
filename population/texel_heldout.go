package population

import (
	"context"
	"fmt"
	"math"
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
// HeldError is the standard error of HeldFit-HeldStart (from the
// positions' paired differences). Accepted is false when the fit does not
// lower the held-out loss by more than HeldError (or there is nothing to
// judge it on): then the round keeps its start weights, and Reason says
// why.
type TexelRound struct {
	Fit                  TexelFit
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

// FitRound fits the weights to the training positions from start
// (FitWeights) and judges the fit on the held-out positions: it is
// accepted only when its snapped weights have a held-out loss lower than
// start's, with the same K, by more than the standard error of the
// difference (and minHeldGain): a gain the held-out positions cannot tell from noise (all
// draws, say) is no gain. With no training or no held-out positions
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
	r.HeldStart, r.HeldFit, r.HeldError = pairedLoss(held, fit.K, start, fit.Weights)
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

// pairedLoss returns the losses of weights a and b on p with scaling
// constant k (texelLoss) and the standard error of their difference, from
// the differences position by position. It costs O(n*Dim).
func pairedLoss(p *Positions, k float64, a, b []float64) (lossA, lossB, stdErr float64) {
	d := p.Dim
	var sum, sq float64
	for i, r := range p.Results {
		x := p.Values[i*d : i*d+d]
		ea, eb := r-sigmoidOf(k, a, x), r-sigmoidOf(k, b, x)
		lossA += ea * ea
		lossB += eb * eb
		diff := eb*eb - ea*ea
		sum += diff
		sq += diff * diff
	}
	n := float64(p.Len())
	if n == 0 {
		return 0, 0, 0
	}
	mean := sum / n
	return lossA / n, lossB / n, math.Sqrt(max(sq/n-mean*mean, 0) / n)
}

// sigmoidOf is the predicted result 1/(1+exp(-k w.x)).
func sigmoidOf(k float64, w, x []float64) float64 {
	q := 0.0
	for j, v := range x {
		q += w[j] * v
	}
	return 1 / (1 + math.Exp(-k*q))
}
