package population

import (
	"fmt"
	"math"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population/gp"
)

// BayesRound is a round of Bayesian optimisation as it recorded itself
// (bayes says what it records where): the candidate it played, with its
// record against the reference (or the opponents), and the Elo observed
// from its pairs with its standard deviation; the optimum of the model
// fitted after the round (the maximum of its posterior mean: weights of
// every feature, unsnapped); the champion (the optimum snapped, or the
// last champion kept), with the model's posterior mean and sd there, in
// Elo against the reference (Expected, ExpectedSD: the optimum reported
// with its interval); and how far the champion moved from the round
// before's (the start's for the first), the normalised distance.
type BayesRound struct {
	Candidate, Champion  Genome
	Observed, ObservedSD float64
	Optimum              []float64
	Expected, ExpectedSD float64
	Moved                float64
}

// BayesRoundOf reads Bayes round g. A generation that does not hold the
// round's two genomes (one read as Champions reads it) has a zero
// Candidate. The champion is the round's optimum (genome 2g+2), or the
// champion of a round before kept (its id).
func BayesRoundOf(g Generation) BayesRound {
	r := BayesRound{Observed: g.MeanFitness, ObservedSD: g.WorstFitness, Optimum: g.Mean, Expected: g.BestFitness, ExpectedSD: g.Diversity, Moved: g.Distance}
	for _, x := range g.Genomes {
		switch x.ID {
		case 2*g.Index + 1:
			r.Candidate = x
		case g.Best:
			r.Champion = x
		}
	}
	return r
}

// BayesModel is the model of a Bayes run after one of its rounds, as the
// run fitted it: the report's and the dashboard's landscape.
type BayesModel struct {
	// Params are the parameters modelled, in the model's order.
	Params []SPSAParam
	// Round is the round (from 0) after which the model was fitted.
	Round int
	// Optimum is the champion's weights, every feature.
	Optimum []float64
	// Points are the observed weights (the reference's first, when the
	// run had no opponents) and Elo and SD their observations.
	Points  [][]float64
	Elo, SD []float64
	model   *gp.Model
	box     bayesBox
	seed    uint64
}

// BayesModelOf fits again the model of the last round of hist, a Bayes
// run of cfg tuning ev whose generations hold every genome (results'
// ReadView reads them so): the same observations (the candidates' weights
// and the Elo they recorded) and the same fit as the run's, so the same
// model. An error when hist is empty or lacks a round's candidate.
func BayesModelOf(cfg Config, ev *games.Evaluator, hist []Generation) (*BayesModel, error) {
	if len(hist) == 0 {
		return nil, fmt.Errorf("population: a bayes model needs a round")
	}
	start, err := startWeights(ev, cfg)
	if err != nil {
		return nil, err
	}
	box, ref, err := bayesSetup(cfg, ev, start)
	if err != nil {
		return nil, err
	}
	b := &BayesModel{Params: box.params, Round: hist[len(hist)-1].Index, box: box, seed: cfg.Seed}
	var x [][]float64
	var noise []float64
	anchors := 0
	if len(cfg.Opponents) == 0 {
		anchors = 1
		b.Points, b.Elo, b.SD = append(b.Points, ref.Weights), append(b.Elo, 0), append(b.SD, 0)
	}
	for _, g := range hist {
		r := BayesRoundOf(g)
		if r.Candidate.Weights == nil {
			return nil, fmt.Errorf("population: bayes round %d has no candidate in the history read", g.Index+1)
		}
		if len(r.Candidate.Weights) != len(ev.Features) {
			return nil, fmt.Errorf("population: bayes round %d's candidate has %d weights for %d features", g.Index+1, len(r.Candidate.Weights), len(ev.Features))
		}
		b.Points, b.Elo, b.SD = append(b.Points, r.Candidate.Weights), append(b.Elo, r.Observed), append(b.SD, r.ObservedSD)
		b.Optimum = r.Champion.Weights
	}
	for i, w := range b.Points {
		x = append(x, b.box.unit(w))
		noise = append(noise, b.SD[i]*b.SD[i])
	}
	if len(b.Points) != anchors+b.Round+1 {
		return nil, fmt.Errorf("population: bayes rounds 1 to %d hold %d candidates, not one each", b.Round+1, len(b.Points)-anchors)
	}
	if b.model, err = modelAt(cfg.Seed, b.Round, anchors, x, b.Elo, noise); err != nil {
		return nil, err
	}
	return b, nil
}

// Predict is the model's posterior mean and sd of the Elo of weights w.
func (b *BayesModel) Predict(w []float64) (elo, sd float64) {
	m, v := b.model.Predict(b.box.unit(w))
	return m, math.Sqrt(v)
}

// LengthScales are the fitted length scales, one per parameter, as
// fractions of its range: the shorter, the faster Elo changes with it.
func (b *BayesModel) LengthScales() []float64 { return b.model.Hyper().LengthScales }

// Dependence is a partial dependence curve of one parameter: at each of
// its Values, the posterior mean of Elo averaged over the other
// parameters (Mean) and the average of the posterior sd (SD: an upper
// bound on the sd of that average, which the points' correlation makes
// smaller).
type Dependence struct {
	Values, Mean, SD []float64
}

// dependencePoints are the points partial dependence averages over: a
// Latin hypercube of 24 points from the run seed, the same for every
// parameter and every reader.
func (b *BayesModel) dependencePoints() [][]float64 {
	return latinHypercube(rngFor(b.seed, StageBayes+"-dependence", 0, 0), 24, len(b.Params))
}

// PartialDependence is parameter j's partial dependence at n values
// evenly spaced over its range, ends included. It costs 24n predictions.
func (b *BayesModel) PartialDependence(j, n int) Dependence {
	pts := b.dependencePoints()
	d := Dependence{}
	for k := range n {
		u := float64(k) / float64(max(n-1, 1))
		mean, sd := 0.0, 0.0
		for _, p := range pts {
			x := append([]float64(nil), p...)
			x[j] = u
			m, v := b.model.Predict(x)
			mean += m
			sd += math.Sqrt(v)
		}
		p := b.Params[j]
		d.Values = append(d.Values, p.Min+u*(p.Max-p.Min))
		d.Mean = append(d.Mean, mean/float64(len(pts)))
		d.SD = append(d.SD, sd/float64(len(pts)))
	}
	return d
}

// PairDependence is the partial dependence of parameters i and j: the
// posterior mean of Elo averaged over the others, at n x n values (z[a][b]
// at i's a-th value and j's b-th, each evenly spaced over its range).
func (b *BayesModel) PairDependence(i, j, n int) [][]float64 {
	pts := b.dependencePoints()
	z := make([][]float64, n)
	for a := range n {
		z[a] = make([]float64, n)
		for c := range n {
			sum := 0.0
			for _, p := range pts {
				x := append([]float64(nil), p...)
				x[i], x[j] = float64(a)/float64(max(n-1, 1)), float64(c)/float64(max(n-1, 1))
				sum += b.model.PredictMean(x)
			}
			z[a][c] = sum / float64(len(pts))
		}
	}
	return z
}

// Importance is each parameter's importance: how much its partial
// dependence's mean varies over its range (the most less the least, in
// Elo, at 21 values).
func (b *BayesModel) Importance() []float64 {
	out := make([]float64, len(b.Params))
	for j := range b.Params {
		d := b.PartialDependence(j, 21)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, m := range d.Mean {
			lo, hi = math.Min(lo, m), math.Max(hi, m)
		}
		out[j] = hi - lo
	}
	return out
}
