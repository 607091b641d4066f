package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}

// TestInterpolatesNoiseless: with exact observations the posterior mean
// goes through every one and its variance there vanishes.
func TestInterpolatesNoiseless(t *testing.T) {
	x := [][]float64{{0.1, 0.2}, {0.9, 0.4}, {0.5, 0.5}, {0.3, 0.8}, {0.7, 0.9}}
	y := []float64{3, -1, 2.5, 0, 4}
	m, err := New(x, y, make([]float64, len(x)), Hyper{LengthScales: []float64{0.4, 0.3}, SignalSD: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range x {
		mean, v := m.Predict(p)
		near(t, "mean at an observation", mean, y[i], 1e-5)
		near(t, "variance at an observation", v, 0, 1e-5)
		near(t, "PredictMean", m.PredictMean(p), mean, 1e-9)
	}
	// Far from every point it reverts to the fitted constant, with the
	// prior's variance.
	m2, _ := New([][]float64{{0}}, []float64{7}, []float64{0}, Hyper{LengthScales: []float64{0.01}, SignalSD: 3})
	mean, v := m2.Predict([]float64{1})
	near(t, "mean far away", mean, 7, 1e-9)
	near(t, "variance far away", v, 9*(1+jitter), 1e-9)
}

// TestTwoPointsByHand: the posterior of two noisy observations in one
// dimension, worked by hand with the 2x2 inverse: the generalised least
// squares mean, the posterior mean and variance at a third point.
func TestTwoPointsByHand(t *testing.T) {
	const l, s = 0.5, 2.0
	x := [][]float64{{0}, {0.5}}
	y := []float64{1, 3}
	noise := []float64{0.1, 0.4}
	m, err := New(x, y, noise, Hyper{LengthScales: []float64{l}, SignalSD: s})
	if err != nil {
		t.Fatal(err)
	}
	// Matérn 5/2 at r = 0.5/0.5 = 1: (1 + √5 + 5/3) e^-√5.
	k12 := s * s * (1 + math.Sqrt(5) + 5.0/3) * math.Exp(-math.Sqrt(5))
	k11, k22 := s*s*(1+jitter)+noise[0], s*s*(1+jitter)+noise[1]
	det := k11*k22 - k12*k12
	inv := [2][2]float64{{k22 / det, -k12 / det}, {-k12 / det, k11 / det}}
	// m = 1ᵀK⁻¹y / 1ᵀK⁻¹1.
	num := (inv[0][0]+inv[1][0])*y[0] + (inv[0][1]+inv[1][1])*y[1]
	den := inv[0][0] + inv[0][1] + inv[1][0] + inv[1][1]
	gls := num / den
	near(t, "GLS mean", m.Mean(), gls, 1e-12)
	// At x* = 0.25: r = 0.5 from both points.
	ks := s * s * (1 + math.Sqrt(5)*0.5 + 5*0.25/3) * math.Exp(-math.Sqrt(5)*0.5)
	a0 := inv[0][0]*(y[0]-gls) + inv[0][1]*(y[1]-gls)
	a1 := inv[1][0]*(y[0]-gls) + inv[1][1]*(y[1]-gls)
	wantMean := gls + ks*a0 + ks*a1
	quad := ks * ks * (inv[0][0] + inv[0][1] + inv[1][0] + inv[1][1])
	wantVar := s*s*(1+jitter) - quad
	mean, v := m.Predict([]float64{0.25})
	near(t, "posterior mean at 0.25", mean, wantMean, 1e-12)
	near(t, "posterior variance at 0.25", v, wantVar, 1e-12)
	// The log marginal likelihood by hand.
	r0, r1 := y[0]-gls, y[1]-gls
	fit := r0*(inv[0][0]*r0+inv[0][1]*r1) + r1*(inv[1][0]*r0+inv[1][1]*r1)
	near(t, "log likelihood", m.LogLikelihood(), -0.5*fit-0.5*math.Log(det)-math.Log(2*math.Pi), 1e-12)
	// The difference of two points: means subtracted, and by hand from the
	// 2x2 inverse, var a + var b - 2 cov(a, b).
	dm, dsd := m.Difference([]float64{0.25}, []float64{0})
	m0, v0 := m.Predict([]float64{0})
	k0 := [2]float64{s * s, k12} // the kernel from 0 to both points (the jitter is K's alone)
	quad0 := k0[0]*(inv[0][0]*k0[0]+inv[0][1]*k0[1]) + k0[1]*(inv[1][0]*k0[0]+inv[1][1]*k0[1])
	near(t, "variance at 0", v0, s*s*(1+jitter)-quad0, 1e-9)
	cross := ks*(inv[0][0]*k0[0]+inv[0][1]*k0[1]) + ks*(inv[1][0]*k0[0]+inv[1][1]*k0[1])
	cov := s*s*(1+math.Sqrt(5)*0.5+5*0.25/3)*math.Exp(-math.Sqrt(5)*0.5) - cross
	near(t, "difference's mean", dm, wantMean-m0, 1e-9)
	near(t, "difference's sd", dsd, math.Sqrt(wantVar+v0-2*cov), 1e-9)
	// Joint agrees with Predict on the variance of one point.
	jm, f, err := m.Joint([][]float64{{0.25}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "joint mean", jm[0], wantMean, 1e-12)
	near(t, "joint variance", f.At(0, 0)*f.At(0, 0), wantVar+s*s*(1e-6-jitter), 1e-9)
}

// TestGradient: the objective's gradient is the derivative of its value
// (central differences).
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x [][]float64
	var y, noise []float64
	for range 12 {
		p := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		x = append(x, p)
		y = append(y, 30*math.Sin(4*p[0])+10*p[1]+rng.NormFloat64()*5)
		noise = append(noise, 10+20*rng.Float64())
	}
	o := newObjective(x, y, noise)
	th := []float64{math.Log(0.4), math.Log(0.2), math.Log(1.3), math.Log(25)}
	g := make([]float64, len(th))
	o.value(th, g)
	for k := range th {
		up, down := append([]float64(nil), th...), append([]float64(nil), th...)
		up[k] += 1e-5
		down[k] -= 1e-5
		num := (o.value(up, nil) - o.value(down, nil)) / 2e-5
		near(t, "gradient", g[k], num, 1e-5*math.Max(1, math.Abs(num)))
	}
}

// TestFitRecoversLengthScales: 200 observations drawn from a process
// with length scales 0.15 and 2 (the second dimension barely matters)
// and a little noise: the fit finds the first within 30% and the second
// much longer, and its objective is at least as good as the truth's (the
// search found the optimum, not merely a point near the truth).
func TestFitRecoversLengthScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 7))
	const n = 200
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{rng.Float64(), rng.Float64()}
	}
	truth := Hyper{LengthScales: []float64{0.15, 2}, SignalSD: 50}
	noise := make([]float64, n)
	for i := range noise {
		noise[i] = 4 // sd 2, against a signal of 50
	}
	var chol mat.Cholesky
	if !chol.Factorize(covariance(x, noise, truth)) {
		t.Fatal("truth's covariance")
	}
	var l mat.TriDense
	chol.LTo(&l)
	y := Sample(make([]float64, n), &l, rng)
	m, err := Fit(x, y, noise, rand.New(rand.NewPCG(3, 3)), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := m.Hyper()
	t.Logf("fitted length scales %.3f, signal sd %.1f", h.LengthScales, h.SignalSD)
	if math.Abs(h.LengthScales[0]/0.15-1) > 0.3 {
		t.Errorf("length scale 0 is %.3f, want 0.15 within 30%%", h.LengthScales[0])
	}
	if h.LengthScales[1] < 4*h.LengthScales[0] {
		t.Errorf("length scale 1 is %.3f, want far longer than the first (%.3f)", h.LengthScales[1], h.LengthScales[0])
	}
	o := newObjective(x, y, noise)
	fitted := o.value([]float64{math.Log(h.LengthScales[0]), math.Log(h.LengthScales[1]), math.Log(h.SignalSD)}, nil)
	if atTruth := o.value([]float64{math.Log(0.15), math.Log(2), math.Log(50)}, nil); fitted > atTruth {
		t.Errorf("the fit's objective %.3f is worse than the truth's %.3f", fitted, atTruth)
	}
}

// TestBadObservations: what does not make a model is an error naming it.
func TestBadObservations(t *testing.T) {
	h := Hyper{LengthScales: []float64{1}, SignalSD: 1}
	for _, tc := range []struct {
		x     [][]float64
		y, nz []float64
		h     Hyper
	}{
		{nil, nil, nil, h},
		{[][]float64{{0}}, []float64{1, 2}, []float64{0}, h},
		{[][]float64{{0}, {0, 1}}, []float64{1, 2}, []float64{0, 0}, h},
		{[][]float64{{math.NaN()}}, []float64{1}, []float64{0}, h},
		{[][]float64{{0}}, []float64{math.Inf(1)}, []float64{0}, h},
		{[][]float64{{0}}, []float64{1}, []float64{-1}, h},
		{[][]float64{{0}}, []float64{1}, []float64{0}, Hyper{LengthScales: []float64{0}, SignalSD: 1}},
		{[][]float64{{0}}, []float64{1}, []float64{0}, Hyper{LengthScales: []float64{1, 1}, SignalSD: 1}},
		{[][]float64{{0}}, []float64{1}, []float64{0}, Hyper{LengthScales: []float64{1}}},
	} {
		if _, err := New(tc.x, tc.y, tc.nz, tc.h); !errors.Is(err, ErrData) {
			t.Errorf("New(%v, %v, %v, %+v): %v, want ErrData", tc.x, tc.y, tc.nz, tc.h, err)
		}
	}
	if _, err := Fit(nil, nil, nil, rand.New(rand.NewPCG(1, 1)), FitOptions{}); !errors.Is(err, ErrData) {
		t.Errorf("Fit of nothing: %v", err)
	}
}

// TestExpectedImprovement: known values of EI.
func TestExpectedImprovement(t *testing.T) {
	// At the incumbent, EI = sd φ(0) = sd / √(2π).
	near(t, "EI at the incumbent", ExpectedImprovement(5, 2, 5), 2/math.Sqrt(2*math.Pi), 1e-12)
	near(t, "EI without spread, above", ExpectedImprovement(7, 0, 5), 2, 0)
	near(t, "EI without spread, below", ExpectedImprovement(3, 0, 5), 0, 0)
	// One sd above: 1·Φ(1) + φ(1).
	near(t, "EI one sd above", ExpectedImprovement(6, 1, 5), 0.8413447460685429+0.24197072451914337, 1e-12)
}

// TestMaximize: the box's maximum of a smooth function, found from its
// random points and the refinement, at the edge as well as inside.
func TestMaximize(t *testing.T) {
	f := func(x []float64) float64 { return -(x[0]-0.3)*(x[0]-0.3) - 2*(x[1]-0.75)*(x[1]-0.75) }
	x, v := Maximize(f, 2, nil, rand.New(rand.NewPCG(1, 1)), MaximizeOptions{})
	near(t, "x", x[0], 0.3, 1e-3)
	near(t, "y", x[1], 0.75, 1e-3)
	near(t, "max", v, 0, 1e-6)
	edge := func(x []float64) float64 { return x[0] - x[1] }
	x, _ = Maximize(edge, 2, nil, rand.New(rand.NewPCG(1, 1)), MaximizeOptions{})
	if x[0] != 1 || x[1] != 0 {
		t.Errorf("edge maximum at %v, want [1 0]", x)
	}
}
