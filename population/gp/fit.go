package gp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// The priors of Fit, on the logarithms of the hyperparameters: a length
// scale's median is PriorLengthScale with a spread of a factor e (the
// middle 95% from 0.04 to 2.1 of the box), and s's median is the scale of
// the observations (their standard deviation, at least their noise's)
// with a spread of a factor e^1.5. Weak beside the likelihood of a few
// dozen observations, they keep a fit from a handful finite.
const (
	PriorLengthScale = 0.3
	priorLogSD       = 1.0
	priorSignalLogSD = 1.5
)

// FitOptions set how Fit searches the hyperparameters; the zero value
// means the defaults.
type FitOptions struct {
	// Starts is the number of random starts besides the default one
	// (every length scale PriorLengthScale, s the observations' scale);
	// 0 means 3.
	Starts int
	// Evaluations bounds the likelihood's evaluations from each start; 0
	// means 150.
	Evaluations int
}

// Fit returns the posterior whose hyperparameters maximise the log
// marginal likelihood of the observations plus the log of their priors
// (see the package doc), over L-BFGS runs from the default start and
// opts.Starts starts drawn from rng: log length scales uniform from
// log 0.05 to log 2, log s the default's with a normal spread of 1. The
// run with the highest objective wins (the earliest on a tie), so the
// result depends on the observations and rng alone. Each evaluation
// costs O(n³ + n²d).
func Fit(x [][]float64, y, noise []float64, rng *rand.Rand, opts FitOptions) (*Model, error) {
	if err := check(x, y, noise); err != nil {
		return nil, err
	}
	if opts.Starts <= 0 {
		opts.Starts = 3
	}
	if opts.Evaluations <= 0 {
		opts.Evaluations = 150
	}
	obj := newObjective(x, y, noise)
	d := len(x[0])
	starts := make([][]float64, 0, opts.Starts+1)
	first := make([]float64, d+1)
	for j := range d {
		first[j] = math.Log(PriorLengthScale)
	}
	first[d] = obj.logScale
	starts = append(starts, first)
	for range opts.Starts {
		s := make([]float64, d+1)
		for j := range d {
			s[j] = math.Log(0.05) + rng.Float64()*(math.Log(2)-math.Log(0.05))
		}
		s[d] = obj.logScale + rng.NormFloat64()
		starts = append(starts, s)
	}
	best, bestF := first, obj.value(first, nil)
	problem := optimize.Problem{Func: func(t []float64) float64 { return obj.value(t, nil) },
		Grad: func(g, t []float64) { obj.value(t, g) }}
	for _, s := range starts {
		settings := &optimize.Settings{FuncEvaluations: opts.Evaluations, GradientThreshold: 1e-6,
			Converger: &optimize.FunctionConverge{Absolute: 1e-7, Relative: 1e-9, Iterations: 10}}
		res, err := optimize.Minimize(problem, s, settings, &optimize.LBFGS{})
		if res == nil {
			continue
		}
		_ = err // a run that stopped on a limit or a failed line search keeps the best point it found
		if f := res.F; f < bestF && !math.IsNaN(f) {
			best, bestF = res.X, f
		}
	}
	return New(x, y, noise, obj.hyper(best))
}

// objective is the negative log posterior of the hyperparameters t =
// (log ℓ_1, ..., log ℓ_d, log s) given the observations.
type objective struct {
	x        [][]float64
	y, noise []float64
	logScale float64 // the prior median of log s
}

func newObjective(x [][]float64, y, noise []float64) *objective {
	mean, sd, noiseMean := 0.0, 0.0, 0.0
	for i, v := range y {
		mean += v
		noiseMean += noise[i]
	}
	n := float64(len(y))
	mean /= n
	for _, v := range y {
		sd += (v - mean) * (v - mean)
	}
	scale := math.Max(math.Sqrt(sd/n), math.Sqrt(noiseMean/n))
	if !(scale > 0) {
		scale = 1
	}
	return &objective{x: x, y: y, noise: noise, logScale: math.Log(scale)}
}

func (o *objective) hyper(t []float64) Hyper {
	d := len(t) - 1
	h := Hyper{LengthScales: make([]float64, d), SignalSD: math.Exp(t[d])}
	for j := range d {
		h.LengthScales[j] = math.Exp(t[j])
	}
	return h
}

// value returns the objective at t and, when grad is not nil, puts its
// gradient there: ∂/∂t_k of the log likelihood is ½ tr((ααᵀ - K⁻¹)
// ∂K/∂t_k), with ∂k/∂log ℓ_j = s² (5/3)(1 + √5 r) exp(-√5 r) (Δ_j/ℓ_j)²
// and ∂K/∂log s = 2 s² (R + jitter I); the mean, fitted for each t, adds
// nothing (its own derivative is 0 at its optimum). Hyperparameters
// beyond e^±12 or a covariance that does not factorise give +Inf.
func (o *objective) value(t, grad []float64) float64 {
	for _, v := range t {
		if math.Abs(v) > 12 || math.IsNaN(v) {
			fillInf(grad)
			return math.Inf(1)
		}
	}
	h := o.hyper(t)
	d := len(t) - 1
	var chol mat.Cholesky
	if !chol.Factorize(covariance(o.x, o.noise, h)) {
		fillInf(grad)
		return math.Inf(1)
	}
	_, alpha, logLik := posterior(&chol, o.y)
	f := -logLik
	for j := range d {
		z := (t[j] - math.Log(PriorLengthScale)) / priorLogSD
		f += 0.5 * z * z
	}
	zs := (t[d] - o.logScale) / priorSignalLogSD
	f += 0.5 * zs * zs
	if grad == nil {
		return f
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		fillInf(grad)
		return math.Inf(1)
	}
	n := len(o.y)
	s2 := h.SignalSD * h.SignalSD
	for k := range grad {
		grad[k] = 0
	}
	for a := 0; a < n; a++ {
		w := alpha[a]*alpha[a] - inv.At(a, a)
		grad[d] += 0.5 * w * 2 * s2 * (1 + jitter)
		for b := a + 1; b < n; b++ {
			w := alpha[a]*alpha[b] - inv.At(a, b) // counted twice: W and ∂K are symmetric
			r := distance(o.x[a], o.x[b], h.LengthScales)
			e := math.Exp(-math.Sqrt(5) * r)
			grad[d] += w * 2 * s2 * (1 + math.Sqrt(5)*r + 5*r*r/3) * e
			c := w * s2 * 5 / 3 * (1 + math.Sqrt(5)*r) * e
			for j, l := range h.LengthScales {
				q := (o.x[a][j] - o.x[b][j]) / l
				grad[j] += c * q * q
			}
		}
	}
	// grad holds ∂ log likelihood: negate, and add the priors'.
	for j := range d {
		grad[j] = -grad[j] + (t[j]-math.Log(PriorLengthScale))/(priorLogSD*priorLogSD)
	}
	grad[d] = -grad[d] + (t[d]-o.logScale)/(priorSignalLogSD*priorSignalLogSD)
	return f
}

// fillInf gives the gradient at a point where the objective is +Inf:
// zeros, so that a line search steps back and a run that lands there
// stops (its +Inf never wins).
func fillInf(g []float64) {
	for i := range g {
		g[i] = 0
	}
}
