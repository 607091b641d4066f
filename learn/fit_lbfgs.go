package learn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/optimize"
)

// An evaluator without tables has a few weights (tens), each read at
// nearly every position: the Texel tuner's (population). Its fit is the
// same as a fit of tables in everything but the optimiser: the same
// positions (quiescence leaves, forced passes skipped), the same held-out
// games, the same K, the same loss. The optimiser is full-batch L-BFGS
// (gonum) to convergence, not Adam: with a few dense weights every pass
// sees each weight at every position, so a quasi-Newton step goes to the
// optimum in tens of passes, with no rate to choose, where Adam's steps,
// bounded by its rate, would need hundreds of epochs to move a material
// value from 300 to 900. Tables of hundreds of thousands of entries, each
// touched by few positions, are what Adam's sparse steps are for.

// lbfgsPenalty weighs the square of a weight's distance outside its range
// (as a fraction of the range) in the L-BFGS fit's objective: steep
// enough that the optimum stays in range, smooth for L-BFGS.
const lbfgsPenalty = 10.0

// fitScalars fits f.w to the training positions by L-BFGS: the weights
// scaled by their ranges and moved from the start, the objective the
// mean loss plus lbfgsPenalty outside the ranges; the optimum is clamped
// to the ranges (then FitOptions.Snap). It stops when the loss has gained
// less than 1e-8 in 10 iterations (a mean squared error of about 0.1, so
// far below what the results' noise tells apart), or after 500. Features
// with an empty range keep their start. Cancelled, it returns the start
// weights with ctx's error.
func (f *fitter) fitScalars(ctx context.Context, res FitResult, began time.Time) (FitResult, error) {
	start := slices.Clone(f.w)
	scale := make([]float64, len(f.w))
	for j, ft := range f.ev.Features {
		scale[j] = ft.Max - ft.Min // 0 for a fixed feature
	}
	train := f.inOrder(&f.train, f.trainGames)
	outs := make([]shardOut, len(train))
	for i := range outs {
		outs[i].scalar = make([]float64, len(f.w))
	}
	var failed error
	// loss sets f.w from x and returns the mean training loss, with its
	// gradient in x's units into grad when grad is not nil.
	loss := func(x, grad []float64) float64 {
		for j := range f.w {
			f.w[j] = start[j] + x[j]*scale[j]
		}
		sum, n, err := f.runShards(ctx, train, outs, grad != nil)
		if err != nil || n == 0 {
			failed = cmpErr(err, fmt.Errorf("learn: no training positions to fit"))
			return math.NaN()
		}
		v := sum / float64(n)
		for j, ft := range f.ev.Features {
			if scale[j] == 0 {
				if grad != nil {
					grad[j] = 0
				}
				continue
			}
			o := max(f.w[j]-ft.Max, ft.Min-f.w[j], 0) / scale[j]
			v += lbfgsPenalty * o * o
			if grad == nil {
				continue
			}
			g := 0.0
			for s := range outs {
				g += outs[s].scalar[j]
			}
			grad[j] = g / float64(n) * scale[j]
			switch {
			case f.w[j] > ft.Max:
				grad[j] += 2 * lbfgsPenalty * o
			case f.w[j] < ft.Min:
				grad[j] -= 2 * lbfgsPenalty * o
			}
		}
		return v
	}
	problem := optimize.Problem{
		Func: func(x []float64) float64 { return loss(x, nil) },
		Grad: func(g, x []float64) { loss(x, g) },
	}
	settings := &optimize.Settings{MajorIterations: 500, GradientThreshold: 1e-10,
		Converger: &optimize.FunctionConverge{Absolute: 1e-8, Iterations: 10}}
	res.StartLoss = loss(make([]float64, len(f.w)), nil)
	if failed != nil {
		return f.result(res), failed
	}
	opt, err := optimize.Minimize(problem, make([]float64, len(f.w)), settings, &optimize.LBFGS{})
	if failed != nil {
		copy(f.w, start)
		return f.result(res), failed
	}
	if err != nil && opt == nil {
		copy(f.w, start)
		return f.result(res), fmt.Errorf("learn: the L-BFGS fit: %w", err)
	}
	res.Iterations = opt.Stats.MajorIterations
	for j, ft := range f.ev.Features {
		f.w[j] = start[j] + opt.X[j]*scale[j]
		res.Raw = append(res.Raw, f.w[j])
		f.w[j] = max(ft.Min, min(ft.Max, f.w[j]))
	}
	if f.opts.Snap != nil {
		f.w = f.opts.Snap(f.w)
	}
	if res.Loss, res.Positions, err = f.meanLoss(ctx, train); err != nil {
		return f.result(res), err
	}
	res.StartHeldOut, res.HeldOutLoss, res.HeldOutError, err = f.pairedHeldOut(ctx, start, f.w)
	if err != nil {
		return f.result(res), err
	}
	e := FitEpoch{Epoch: 1, TrainLoss: res.Loss, HeldOutLoss: res.HeldOutLoss, Positions: res.Positions, Elapsed: time.Since(began)}
	res.Epochs = append(res.Epochs, e)
	if f.opts.Progress != nil {
		f.opts.Progress(e)
	}
	return f.result(res), nil
}

// cmpErr is err, or else other.
func cmpErr(err, other error) error {
	if err != nil {
		return err
	}
	return other
}

// meanLoss is the mean loss of the shards' positions with f.w, and their
// count.
func (f *fitter) meanLoss(ctx context.Context, shards []shard) (float64, int, error) {
	sum, n, err := f.runShards(ctx, shards, make([]shardOut, len(shards)), false)
	if err != nil || n == 0 {
		return 0, 0, err
	}
	return sum / float64(n), n, nil
}

// pairedHeldOut returns the mean losses of the weights a and b on the
// held-out positions and the standard error of their difference, from
// the differences position by position: how surely b predicts the games
// it was not fitted on better than a. All 0 without held-out positions.
func (f *fitter) pairedHeldOut(ctx context.Context, a, b []float64) (lossA, lossB, stdErr float64, err error) {
	shards := f.inOrder(&f.held, f.heldGames)
	type sums struct {
		a, b, d, dd float64
		n           int
	}
	part := make([]sums, len(shards))
	err = f.parallel(ctx, len(shards), func(wk *fitWorker, i int) error {
		s := &part[i]
		return f.walk(wk, shards[i], func(st *positions, j int) {
			y := float64(st.labels[j])
			ea := sigmoid(f.k*f.evalWith(st, j, a)) - y
			eb := sigmoid(f.k*f.evalWith(st, j, b)) - y
			d := eb*eb - ea*ea
			s.a, s.b, s.d, s.dd, s.n = s.a+ea*ea, s.b+eb*eb, s.d+d, s.dd+d*d, s.n+1
		})
	})
	if err != nil {
		return 0, 0, 0, err
	}
	var t sums
	for _, s := range part {
		t.a, t.b, t.d, t.dd, t.n = t.a+s.a, t.b+s.b, t.d+s.d, t.dd+s.dd, t.n+s.n
	}
	if t.n == 0 {
		return 0, 0, 0, nil
	}
	n := float64(t.n)
	m := t.d / n
	return t.a / n, t.b / n, math.Sqrt(max(t.dd/n-m*m, 0) / n), nil
}
