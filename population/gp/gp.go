// Package gp is Gaussian-process regression for tuning by Bayesian
// optimisation: a model of a noisy function over the unit box [0, 1]^d
// from observations each with a noise variance of its own.
//
// The model (Rasmussen and Williams, "Gaussian Processes for Machine
// Learning", chapters 2 and 5):
//
//   - kernel: Matérn 5/2 with one length scale per dimension (ARD),
//     k(a, b) = s² (1 + √5 r + 5r²/3) exp(-√5 r), r² = Σ_j ((a_j - b_j)/ℓ_j)²;
//     twice differentiable, neither as rough as the exponential kernel nor
//     as smooth as the squared exponential, the usual choice for tuning;
//   - mean: a constant, estimated by generalised least squares for the
//     kernel and noise of the fit;
//   - noise: known, one variance per observation (heteroscedastic), added
//     to the kernel's diagonal with a jitter of 1e-8 s²;
//   - hyperparameters (the length scales and s): Fit maximises the log
//     marginal likelihood plus weak log-normal priors on them (a MAP fit,
//     so that a few observations cannot drive a length scale to 0 or to
//     infinity), with gonum/optimize's L-BFGS from a default start and
//     seeded random ones;
//   - algebra: gonum/mat's Cholesky of the n x n covariance: a fit costs
//     O(n³) per evaluation of the likelihood, a prediction O(n²).
package gp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// ErrData is wrapped by the errors of observations that do not make a
// model.
var ErrData = errors.New("gp: observations")

// jitter is added to the kernel's diagonal, times s², so that the
// covariance stays positive definite when observations are noiseless or
// repeated.
const jitter = 1e-8

// Hyper are the kernel's hyperparameters.
type Hyper struct {
	// LengthScales are the length scales, one per dimension, in units of
	// the box (a function varies over about a length scale).
	LengthScales []float64
	// SignalSD is s, the prior standard deviation of the function around
	// its mean.
	SignalSD float64
}

// Model is the posterior of a Gaussian process given observations. Its
// methods do not change it: a Model may be read by several goroutines.
type Model struct {
	x      [][]float64
	y      []float64
	noise  []float64
	hyper  Hyper
	mean   float64
	lower  *mat.TriDense // the Cholesky factor L of K, K = L Lᵀ
	chol   mat.Cholesky
	alpha  []float64 // K⁻¹ (y - mean)
	logLik float64   // the log marginal likelihood
}

// New returns the posterior of the process with hyperparameters h given
// the observations: y[i] observed at x[i] (a point of [0, 1]^d, every
// point of the same d) with noise variance noise[i] (0: exact). Its mean
// is the constant that generalised least squares fits. Observations that
// are not finite, points of another dimension, negative noise or a
// length scale that is not positive are an error wrapping ErrData.
func New(x [][]float64, y, noise []float64, h Hyper) (*Model, error) {
	if err := check(x, y, noise); err != nil {
		return nil, err
	}
	if len(h.LengthScales) != len(x[0]) || !(h.SignalSD > 0) || math.IsInf(h.SignalSD, 0) {
		return nil, fmt.Errorf("%w: %d length scales for %d dimensions, signal sd %g (want one each and a finite sd > 0)", ErrData, len(h.LengthScales), len(x[0]), h.SignalSD)
	}
	for j, l := range h.LengthScales {
		if !(l > 0) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("%w: length scale %d is %g, want a finite number > 0", ErrData, j, l)
		}
	}
	m := &Model{x: copyPoints(x), y: append([]float64(nil), y...), noise: append([]float64(nil), noise...),
		hyper: Hyper{LengthScales: append([]float64(nil), h.LengthScales...), SignalSD: h.SignalSD}}
	k := covariance(m.x, m.noise, m.hyper)
	if !m.chol.Factorize(k) {
		return nil, fmt.Errorf("%w: the covariance is not positive definite (length scales %v)", ErrData, h.LengthScales)
	}
	m.lower = &mat.TriDense{}
	m.chol.LTo(m.lower)
	m.mean, m.alpha, m.logLik = posterior(&m.chol, m.y)
	return m, nil
}

// check checks observations for New and Fit.
func check(x [][]float64, y, noise []float64) error {
	if len(x) == 0 || len(y) != len(x) || len(noise) != len(x) {
		return fmt.Errorf("%w: %d points, %d values and %d noise variances (want as many of each, at least one)", ErrData, len(x), len(y), len(noise))
	}
	d := len(x[0])
	if d == 0 {
		return fmt.Errorf("%w: points of dimension 0", ErrData)
	}
	for i, p := range x {
		if len(p) != d {
			return fmt.Errorf("%w: point %d has %d coordinates, point 0 has %d", ErrData, i, len(p), d)
		}
		for _, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: point %d has a coordinate %g", ErrData, i, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) || !(noise[i] >= 0) || math.IsInf(noise[i], 0) {
			return fmt.Errorf("%w: observation %d is %g with noise variance %g (want finite numbers, the variance >= 0)", ErrData, i, y[i], noise[i])
		}
	}
	return nil
}

func copyPoints(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, p := range x {
		out[i] = append([]float64(nil), p...)
	}
	return out
}

// matern is the Matérn 5/2 correlation at scaled distance r.
func matern(r float64) float64 {
	s := math.Sqrt(5) * r
	return (1 + s + s*s/3) * math.Exp(-s)
}

// distance is r, the distance from a to b scaled by the length scales.
func distance(a, b, scales []float64) float64 {
	sum := 0.0
	for j, l := range scales {
		d := (a[j] - b[j]) / l
		sum += d * d
	}
	return math.Sqrt(sum)
}

// covariance is K: the kernel between every two points, the noise and
// the jitter on its diagonal.
func covariance(x [][]float64, noise []float64, h Hyper) *mat.SymDense {
	n := len(x)
	s2 := h.SignalSD * h.SignalSD
	k := mat.NewSymDense(n, nil)
	for a := 0; a < n; a++ {
		k.SetSym(a, a, s2*(1+jitter)+noise[a])
		for b := a + 1; b < n; b++ {
			k.SetSym(a, b, s2*matern(distance(x[a], x[b], h.LengthScales)))
		}
	}
	return k
}

// posterior returns the generalised least squares mean m = 1ᵀK⁻¹y /
// 1ᵀK⁻¹1, alpha = K⁻¹(y - m) and the log marginal likelihood of y given
// the factorised K.
func posterior(chol *mat.Cholesky, y []float64) (mean float64, alpha []float64, logLik float64) {
	n := len(y)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	var kOnes, kY mat.VecDense
	chol.SolveVecTo(&kOnes, mat.NewVecDense(n, ones))
	chol.SolveVecTo(&kY, mat.NewVecDense(n, append([]float64(nil), y...)))
	mean = mat.Sum(&kY) / mat.Sum(&kOnes)
	alpha = make([]float64, n)
	fit := 0.0
	for i := range alpha {
		alpha[i] = kY.AtVec(i) - mean*kOnes.AtVec(i)
		fit += (y[i] - mean) * alpha[i]
	}
	logLik = -0.5*fit - 0.5*chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	return mean, alpha, logLik
}

// Len is the number of observations.
func (m *Model) Len() int { return len(m.x) }

// Dim is the dimension of the box.
func (m *Model) Dim() int { return len(m.x[0]) }

// Hyper returns the model's hyperparameters.
func (m *Model) Hyper() Hyper {
	return Hyper{LengthScales: append([]float64(nil), m.hyper.LengthScales...), SignalSD: m.hyper.SignalSD}
}

// Mean is the constant mean the model fitted: its prediction far from
// every observation.
func (m *Model) Mean() float64 { return m.mean }

// LogLikelihood is the log marginal likelihood of the observations, the
// mean fitted.
func (m *Model) LogLikelihood() float64 { return m.logLik }

// cross is the kernel between x and every observed point.
func (m *Model) cross(x []float64) []float64 {
	s2 := m.hyper.SignalSD * m.hyper.SignalSD
	k := make([]float64, len(m.x))
	for i, p := range m.x {
		k[i] = s2 * matern(distance(x, p, m.hyper.LengthScales))
	}
	return k
}

// Predict returns the posterior mean of the function at x and its
// variance (of the function, not of a noisy observation of it). It
// costs O(n²) for n observations.
func (m *Model) Predict(x []float64) (mean, variance float64) {
	k := m.cross(x)
	mean = m.mean
	for i, a := range m.alpha {
		mean += k[i] * a
	}
	var v mat.VecDense
	if err := v.SolveVec(m.lower, mat.NewVecDense(len(k), k)); err != nil {
		return mean, 0 // not reached: L is non-singular
	}
	s2 := m.hyper.SignalSD * m.hyper.SignalSD
	return mean, math.Max(s2*(1+jitter)-mat.Dot(&v, &v), 0)
}

// PredictMean is Predict's mean alone, in O(n).
func (m *Model) PredictMean(x []float64) float64 {
	mean := m.mean
	s2 := m.hyper.SignalSD * m.hyper.SignalSD
	for i, p := range m.x {
		mean += s2 * matern(distance(x, p, m.hyper.LengthScales)) * m.alpha[i]
	}
	return mean
}

// Difference returns the posterior mean and standard deviation of f(a) -
// f(b): the means' difference, and the variances less twice the
// covariance. It costs O(n²).
func (m *Model) Difference(a, b []float64) (mean, sd float64) {
	ka, kb := m.cross(a), m.cross(b)
	var va, vb mat.VecDense
	if va.SolveVec(m.lower, mat.NewVecDense(len(ka), ka)) != nil || vb.SolveVec(m.lower, mat.NewVecDense(len(kb), kb)) != nil {
		return 0, 0 // not reached: L is non-singular
	}
	s2 := m.hyper.SignalSD * m.hyper.SignalSD
	for i, x := range m.alpha {
		mean += (ka[i] - kb[i]) * x
	}
	cov := s2*matern(distance(a, b, m.hyper.LengthScales)) - mat.Dot(&va, &vb)
	variance := 2*s2*(1+jitter) - mat.Dot(&va, &va) - mat.Dot(&vb, &vb) - 2*cov
	return mean, math.Sqrt(math.Max(variance, 0))
}

// Joint returns the posterior mean at each of xs and the lower Cholesky
// factor L of their joint posterior covariance (L Lᵀ), for drawing samples of the
// function at every point at once (Sample). It costs O(n²k + nk² + k³)
// for k points.
func (m *Model) Joint(xs [][]float64) (mean []float64, factor mat.Triangular, err error) {
	k := len(xs)
	n := len(m.x)
	cross := mat.NewDense(n, k, nil)
	mean = make([]float64, k)
	for c, x := range xs {
		col := m.cross(x)
		mean[c] = m.mean
		for i, v := range col {
			cross.Set(i, c, v)
			mean[c] += v * m.alpha[i]
		}
	}
	var v mat.Dense
	if err := v.Solve(m.lower, cross); err != nil {
		return nil, nil, err
	}
	s2 := m.hyper.SignalSD * m.hyper.SignalSD
	prior := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		prior.SetSym(a, a, s2*(1+1e-6)) // a little more jitter: nearby points are nearly collinear
		for b := a + 1; b < k; b++ {
			prior.SetSym(a, b, s2*matern(distance(xs[a], xs[b], m.hyper.LengthScales)))
		}
	}
	var cov mat.SymDense
	cov.SymRankK(prior, -1, v.T()) // prior - VᵀV
	// LAPACK's Potrf alone: mat.Cholesky would also estimate the
	// condition number, which costs as much again.
	raw := cov.RawSymmetric()
	if _, ok := lapack64.Potrf(raw); !ok {
		return nil, nil, fmt.Errorf("gp: the joint posterior covariance of %d points is not positive definite (points too close together)", k)
	}
	upper := mat.NewTriDense(k, mat.Upper, raw.Data)
	factor = upper.TTri()
	return mean, factor, nil
}
