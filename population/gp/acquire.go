package gp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"
)

// ExpectedImprovement is the expected amount by which a normal value of
// mean and standard deviation sd exceeds best: (μ - best) Φ(z) + sd φ(z),
// z = (μ - best)/sd; max(μ - best, 0) when sd is 0.
func ExpectedImprovement(mean, sd, best float64) float64 {
	gain := mean - best
	if !(sd > 0) {
		return math.Max(gain, 0)
	}
	z := gain / sd
	return gain*distuv.UnitNormal.CDF(z) + sd*distuv.UnitNormal.Prob(z)
}

// Sample draws the function at the points of a joint posterior (Joint's
// mean and factor): mean + L z with z standard normal from rng.
func Sample(mean []float64, factor mat.Matrix, rng *rand.Rand) []float64 {
	z := make([]float64, len(mean))
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	var draw mat.VecDense
	draw.MulVec(factor, mat.NewVecDense(len(z), z))
	out := make([]float64, len(mean))
	for i := range out {
		out[i] = mean[i] + draw.AtVec(i)
	}
	return out
}

// MaximizeOptions set how Maximize searches; the zero value means the
// defaults.
type MaximizeOptions struct {
	// Candidates is the number of points drawn uniformly in the box; 0
	// means 128 per dimension, at least 512.
	Candidates int
	// Refine is the number of the best points refined by Nelder-Mead; 0
	// means 3.
	Refine int
	// Evaluations bounds each refinement's evaluations of f; 0 means 40
	// per dimension, at least 100.
	Evaluations int
}

// Maximize looks for the highest value of f over the box [0, 1]^d: it
// evaluates f at points (the caller's, such as the observations) and at
// opts.Candidates points drawn uniformly from rng, then refines the
// opts.Refine best of them with gonum's Nelder-Mead (simplex 0.05 of the
// box), every point clamped into the box before f sees it. It returns
// the best point found and f there; the earliest wins a tie, so the
// result depends on f, points and rng alone.
func Maximize(f func(x []float64) float64, d int, points [][]float64, rng *rand.Rand, opts MaximizeOptions) ([]float64, float64) {
	if opts.Candidates <= 0 {
		opts.Candidates = max(128*d, 512)
	}
	if opts.Refine <= 0 {
		opts.Refine = 3
	}
	if opts.Evaluations <= 0 {
		opts.Evaluations = max(40*d, 100)
	}
	type scored struct {
		x []float64
		v float64
	}
	var all []scored
	for _, p := range points {
		x := clamp(p)
		all = append(all, scored{x, f(x)})
	}
	for range opts.Candidates {
		x := make([]float64, d)
		for j := range x {
			x[j] = rng.Float64()
		}
		all = append(all, scored{x, f(x)})
	}
	// The Refine best, in order, without repeats of a point.
	var top []scored
	for range opts.Refine {
		b := -1
		for i, s := range all {
			if !math.IsNaN(s.v) && (b < 0 || s.v > all[b].v) {
				b = i
			}
		}
		if b < 0 {
			break
		}
		top = append(top, all[b])
		all[b].v = math.NaN()
	}
	if len(top) == 0 {
		return make([]float64, d), math.Inf(-1)
	}
	best := top[0]
	problem := optimize.Problem{Func: func(z []float64) float64 { return -f(clamp(z)) }}
	for _, s := range top {
		settings := &optimize.Settings{FuncEvaluations: opts.Evaluations,
			Converger: &optimize.FunctionConverge{Absolute: 1e-9, Iterations: 20}}
		res, _ := optimize.Minimize(problem, s.x, settings, &optimize.NelderMead{SimplexSize: 0.05})
		if res == nil {
			continue
		}
		if v := -res.F; v > best.v {
			best = scored{clamp(res.X), v}
		}
	}
	return best.x, best.v
}

// clamp is x with every coordinate clamped into [0, 1].
func clamp(x []float64) []float64 {
	out := make([]float64, len(x))
	for j, v := range x {
		out[j] = min(max(v, 0), 1)
	}
	return out
}
