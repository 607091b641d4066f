package population

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gametune/gametune/population/gp"
)

// The acquisition rules of Bayesian optimisation (bayes-acquisition).
const (
	// AcquireEI plays where the expected improvement over the best
	// posterior mean at an observed point is highest.
	AcquireEI = "ei"
	// AcquireThompson plays where one draw of the function from the
	// posterior is highest, among 512 points: 384 uniform in the box and
	// 128 around the current optimum.
	AcquireThompson = "thompson"
)

// bayesSearch is Bayesian optimisation over the unit box, apart from the
// games: it proposes the point of each round, takes its observation (an
// Elo with its variance), fits the model to every observation so far and
// finds the optimum. Every random choice comes from the run seed and the
// round (rngFor), so that replaying the rounds of a resumed run, or
// reading them back (BayesModelOf), gives the same points and models.
type bayesSearch struct {
	seed        uint64
	dim         int
	acquisition string
	design      [][]float64 // the points of the first rounds
	x           [][]float64 // the observed points (the anchor first, if any)
	y, noise    []float64
	anchors     int       // observations before the first round's: 1 with an anchor, else 0
	model       *gp.Model // fitted to every observation; nil before the first fit
	hyper       gp.Hyper  // the hyperparameters of the last round that fitted them
	optimum     []float64 // the argmax of the model's posterior mean
}

// newBayesSearch starts a search of dim dimensions whose first initial
// rounds play a Latin hypercube drawn from the seed (each coordinate's
// initial values in distinct strata of [0, 1]); anchor, when not nil, is
// a point whose value is known to be 0 exactly (the reference's own
// point: its Elo against itself).
func newBayesSearch(seed uint64, dim, initial int, acquisition string, anchor []float64) *bayesSearch {
	s := &bayesSearch{seed: seed, dim: dim, acquisition: acquisition, design: latinHypercube(rngFor(seed, StageBayes+"-design", 0, 0), initial, dim)}
	if anchor != nil {
		s.x, s.y, s.noise, s.anchors = [][]float64{anchor}, []float64{0}, []float64{0}, 1
	}
	return s
}

// latinHypercube draws n points of [0, 1]^dim, each coordinate's values
// one in each of the n strata, in an order permuted independently per
// coordinate.
func latinHypercube(rng *rand.Rand, n, dim int) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = make([]float64, dim)
	}
	for j := range dim {
		for i, p := range rng.Perm(n) {
			pts[i][j] = (float64(p) + rng.Float64()) / float64(n)
		}
	}
	return pts
}

// propose returns the point round g plays: the design's for the first
// rounds (and while there is no model), else the acquisition's maximum.
func (s *bayesSearch) propose(g int) []float64 {
	if g < len(s.design) || s.model == nil {
		if len(s.design) == 0 {
			return latinHypercube(rngFor(s.seed, StageBayes+"-design", g, 0), 1, s.dim)[0]
		}
		return s.design[g%len(s.design)]
	}
	rng := rngFor(s.seed, StageBayes+"-acquire", g, 0)
	if s.acquisition == AcquireThompson {
		if x, ok := s.thompson(rng); ok {
			return x
		}
	}
	return s.expectedImprovement(rng)
}

// expectedImprovement maximises EI over the box, the incumbent being the
// highest posterior mean at an observed point (the usual plug-in for
// noisy observations).
func (s *bayesSearch) expectedImprovement(rng *rand.Rand) []float64 {
	best := math.Inf(-1)
	for _, x := range s.x {
		best = math.Max(best, s.model.PredictMean(x))
	}

	ei := func(x []float64) float64 {
		mean, v := s.model.Predict(x)
		return gp.ExpectedImprovement(mean, math.Sqrt(v), best)
	}
	x, _ := gp.Maximize(ei, s.dim, append([][]float64{s.optimum}, s.x...), rng, gp.MaximizeOptions{})
	return x
}

// thompson draws the function from the posterior at 512 points (384
// uniform, 128 normal around the optimum with a spread of 0.05, clamped)
// and returns the highest; false when their joint covariance does not
// factorise.
func (s *bayesSearch) thompson(rng *rand.Rand) ([]float64, bool) {
	pts := make([][]float64, 0, 512)
	for range 384 {
		x := make([]float64, s.dim)
		for j := range x {
			x[j] = rng.Float64()
		}
		pts = append(pts, x)
	}
	for range 128 {
		x := make([]float64, s.dim)
		for j := range x {
			x[j] = min(max(s.optimum[j]+0.05*rng.NormFloat64(), 0), 1)
		}
		pts = append(pts, x)
	}
	mean, factor, err := s.model.Joint(pts)
	if err != nil {
		return nil, false
	}
	draw := gp.Sample(mean, factor, rng)
	best := 0
	for i, v := range draw {
		if v > draw[best] {
			best = i
		}
	}
	return pts[best], true
}

// observe adds round g's observation, y at x with its variance, makes
// the model of every observation (modelAt) and finds the optimum: the
// argmax of the posterior mean over the box, from the observed points and
// random ones.
func (s *bayesSearch) observe(g int, x []float64, y, variance float64) error {
	s.x, s.y, s.noise = append(s.x, x), append(s.y, y), append(s.noise, variance)
	var m *gp.Model
	var err error
	if refits(g) {
		m, err = fitBayes(s.seed, g, s.x, s.y, s.noise)
		if err == nil {
			s.hyper = m.Hyper()
		}
	} else {
		m, err = gp.New(s.x, s.y, s.noise, s.hyper)
	}
	if err != nil {
		return fmt.Errorf("population: bayes round %d: %w", g+1, err)
	}
	s.model = m
	s.optimum, _ = gp.Maximize(m.PredictMean, s.dim, s.x, rngFor(s.seed, StageBayes+"-optimum", g, 0), gp.MaximizeOptions{})
	return nil
}

// refits reports whether round g fits the model's hyperparameters: each
// of the first 50 rounds, then every fifth, since a fit costs O(n³) per
// evaluation of the likelihood and the hyperparameters settle as the
// observations grow; the rounds between keep the last fit's and condition
// the model on every observation.
func refits(g int) bool { return g < 50 || (g+1)%5 == 0 }

// lastRefit is the last round at or before g that fitted the
// hyperparameters.
func lastRefit(g int) int {
	for !refits(g) {
		g--
	}
	return g
}

// fitBayes fits the model of round g to the observations so far, from
// the round's own seed.
func fitBayes(seed uint64, g int, x [][]float64, y, noise []float64) (*gp.Model, error) {
	return gp.Fit(x, y, noise, rngFor(seed, StageBayes+"-fit", g, 0), gp.FitOptions{})
}

// modelAt is the model of round g as the run made it (observe), from the
// observations through round g, the first anchors of them before the
// first round's: the hyperparameters of the last round that fitted them
// (lastRefit), fitted to the observations then, and the posterior of
// every observation. The one rule of a round's model, whether the run
// makes it or a reader (BayesModelOf).
func modelAt(seed uint64, g, anchors int, x [][]float64, y, noise []float64) (*gp.Model, error) {
	r := lastRefit(g)
	k := anchors + r + 1
	m, err := fitBayes(seed, r, x[:k], y[:k], noise[:k])
	if err == nil && r != g {
		m, err = gp.New(x, y, noise, m.Hyper())
	}
	if err != nil {
		return nil, fmt.Errorf("population: bayes round %d: %w", g+1, err)
	}
	return m, nil
}
