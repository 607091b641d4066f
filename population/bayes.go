package population

import (
	"context"
	"math"
	"slices"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// BayesConfig is Bayesian optimisation's section of a Config, for tuning a
// few parameters where every game is expensive (as chess-tuning-tools
// tunes engines at real time controls): BayesRounds rounds, each playing
// one candidate BayesPairs colour-swapped pairs against the reference;
// the first BayesInitial rounds (0: the parameters plus 2) play a Latin
// hypercube of the box, the others the maximum of BayesAcquisition
// (AcquireEI or AcquireThompson) under a Gaussian process of Elo fitted
// to every round so far (bayes.go's bayes says how).
type BayesConfig struct {
	BayesRounds      int    `yaml:"bayes-rounds"`
	BayesPairs       int    `yaml:"bayes-pairs"`
	BayesInitial     int    `yaml:"bayes-initial"`
	BayesAcquisition string `yaml:"bayes-acquisition"`
}

// Bounds of Bayesian optimisation: a fit of the model's hyperparameters
// costs O(n³) per evaluation of the likelihood in its n observations
// (about a second at 300, on one core: see refits), and its model of Elo
// over the box needs a few observations per parameter and pair of
// parameters, so it is for a handful of parameters, about 20 at most.
const (
	MaxBayesRounds = 300
	MaxBayesParams = 20
)

// StageBayes names the games of Bayesian optimisation's candidates.
const StageBayes = "bayes"

// validate checks the section for a run of budget games (0: no budget)
// whose rounds play round games each.
func (c BayesConfig) validate(budget, round int) error {
	return firstError(
		check(c.BayesRounds >= 1 && c.BayesRounds <= MaxBayesRounds, "bayes-rounds %d: 1 to %d (a round's fit costs O(n³) in its n observations)", c.BayesRounds, MaxBayesRounds),
		check(c.BayesPairs >= 1 && c.BayesPairs <= MaxBestOf, "bayes-pairs %d: 1 to %d colour-swapped pairs of each round's candidate against the reference", c.BayesPairs, MaxBestOf),
		check(c.BayesInitial >= 0 && c.BayesInitial <= MaxBayesRounds, "bayes-initial %d: 0 (the parameters plus 2) to %d rounds of a space-filling design before the model chooses", c.BayesInitial, MaxBayesRounds),
		check(c.BayesAcquisition == AcquireEI || c.BayesAcquisition == AcquireThompson, "bayes-acquisition %q: %s (expected improvement) or %s (Thompson sampling)", c.BayesAcquisition, AcquireEI, AcquireThompson),
		check(budget <= 0 || budget >= round, "budget-games %d is too small for one Bayes round (%d games)", budget, round),
	)
}

// bayesRoundGames is the games of one Bayes round: bayes-pairs pairs
// against the reference, or opponent-pairs against each opponent.
func (c Config) bayesRoundGames() int {
	if len(c.Opponents) > 0 {
		return c.opponentGames()
	}
	return 2 * c.BayesPairs
}

// bayesParams returns the parameters a Bayes run of cfg tunes in ev (as
// SPSA's: spsa-params, the engine-params of --tune-engine, or every
// feature with a range; their c_end and r_end unused), at most
// MaxBayesParams of them.
func bayesParams(cfg Config, ev *games.Evaluator) ([]SPSAParam, error) {
	start, err := cfg.StartOrDefaults(ev)
	if err != nil {
		return nil, err
	}
	params, err := spsaParams(cfg, ev, start)
	if err != nil {
		return nil, err
	}
	if len(params) > MaxBayesParams {
		return nil, bad("algo bayes models at most %d parameters, and evaluator %s has %d with a range: choose up to %d with spsa-params (a file of parameter lines), or tune them all with spsa or cmaes",
			MaxBayesParams, ev.Name, len(params), MaxBayesParams)
	}
	return params, nil
}

// bayesInitial is the rounds of the space-filling design of a run of
// dim parameters: bayes-initial, or dim + 2.
func (c Config) bayesInitial(dim int) int {
	if c.BayesInitial > 0 {
		return c.BayesInitial
	}
	return dim + 2
}

// bayesBox maps weights to the unit box of the parameters and back.
type bayesBox struct {
	params []SPSAParam
	start  []float64 // the snapped start: the features not tuned keep it
	space  space
}

// unit is the point of the box of weights w: each parameter's weight as
// a fraction of its range.
func (b bayesBox) unit(w []float64) []float64 {
	x := make([]float64, len(b.params))
	for j, p := range b.params {
		x[j] = (w[p.Feature] - p.Min) / (p.Max - p.Min)
	}
	return x
}

// weights are the weights of point x of the box: the start's, each
// parameter's at its fraction of the range, clamped to it, snapped to
// the feature's step and, for an int parameter, rounded to a whole
// number.
func (b bayesBox) weights(x []float64) []float64 {
	w := append([]float64(nil), b.start...)
	for j, p := range b.params {
		v := b.space.snap(p.Feature, p.Min+min(max(x[j], 0), 1)*(p.Max-p.Min))
		if p.Int {
			v = math.Round(v)
		}
		w[p.Feature] = min(max(v, p.Min), p.Max)
	}
	return w
}

// bayesObservation is a round's observation from its pairs: the Elo of
// the candidate and its variance by the delta method
// (stats.Pentanomial.EloVariance), one pair of two losses and one of two
// wins added to the pairs played (as a champion's evidence adds a win and
// a loss), so that a round of draws alone, or of wins alone, has a finite
// Elo and a variance above 0. The standard deviation is what a round
// records; the variance is its square, as BayesModelOf reads it back.
func bayesObservation(p stats.Pentanomial) (elo, sd float64) {
	p[0]++
	p[4]++
	elo, v := p.EloVariance()
	return elo, math.Sqrt(v)
}

// bayes is Bayesian optimisation as chess-tuning-tools runs it: a
// Gaussian process of Elo over the box of the parameters (bayesParams,
// each scaled to [0, 1] by its range; population/gp: Matérn 5/2 with a
// length scale per parameter, the hyperparameters fitted by maximising
// the log marginal likelihood), fitted to every round so far. Round g
// plays one candidate (genome 2g+1): the design's point in the first
// rounds, then the acquisition's maximum over the box (bayesSearch),
// snapped to the steps. The candidate plays bayes-pairs colour-swapped
// pairs against the reference (the start, or the defaults when there is
// none or it is random; genome StartID or DefaultsID), or with opponents opponent-pairs against each
// (opponentPairs) instead, as SPSA does; its pairs make one observation,
// its Elo with its variance (bayesObservation), and without opponents the
// reference's own point is an observation too, of 0 exactly. The round's
// champion is the maximum of the posterior mean, snapped, when the model
// expects it to beat the last champion (champion): what the ladder rates
// and the verification verifies. A round records
// (BayesRoundOf reads it) the candidate and the champion, the Elo
// observed and the model's mean and sd at the champion; its Mean is the
// optimum, its Std each parameter's length scale in the feature's units.
type bayes struct {
	t      *Tuner
	cfg    BayesConfig
	box    bayesBox
	ref    Genome
	search *bayesSearch
	last   Genome // the last champion (the start's weights, as genome 2, before the first)
}

func newBayes(t *Tuner) (Method, error) {
	box, ref, err := bayesSetup(t.cfg, t.ev, t.start)
	if err != nil {
		return nil, err
	}
	var anchor []float64
	if len(t.opponents) == 0 {
		anchor = box.unit(ref.Weights)
	}
	s := newBayesSearch(t.cfg.Seed, len(box.params), t.cfg.bayesInitial(len(box.params)), t.cfg.BayesAcquisition, anchor)
	return &bayes{t: t, cfg: t.cfg.BayesConfig, box: box, ref: ref, search: s, last: Genome{ID: 2, Weights: box.start}}, nil
}

// bayesSetup is the box of a Bayes run of cfg tuning ev from start
// weights start (nil: none) and the reference its candidates play: the
// parameters (bayesParams) at their starts, the other features at the
// start's (or the defaults), snapped; the reference the start (StartID)
// when there is one that is the reference (not a random one) or when the
// parameters start away from the defaults, else the defaults
// (DefaultsID). The one rule of both, for the run and for BayesModelOf.
func bayesSetup(cfg Config, ev *games.Evaluator, start []float64) (bayesBox, Genome, error) {
	params, err := bayesParams(cfg, ev)
	if err != nil {
		return bayesBox{}, Genome{}, err
	}
	sp := space{ev.Features}
	w := ev.Defaults()
	if start != nil {
		w = append([]float64(nil), start...)
	}
	for _, p := range params {
		w[p.Feature] = p.Start
	}
	box := bayesBox{params: params, start: sp.snapAll(w), space: sp}
	defaults := sp.snapAll(ev.Defaults())
	ref := Genome{ID: DefaultsID, Weights: defaults}
	switch {
	case start != nil && !cfg.StartIsReference():
		// A random start is not the reference: the defaults are.
	case start != nil || !slices.Equal(box.start, defaults):
		ref = Genome{ID: StartID, Weights: box.start} // start weights, or parameter lines starting elsewhere
	}
	return box, ref, nil
}

func (m *bayes) Generation(ctx context.Context, g int) (Generation, Genome, error) {
	t := m.t
	cand := Genome{ID: 2*g + 1, Weights: m.box.weights(m.search.propose(g))}
	var batch []game
	if len(t.opponents) == 0 {
		for k := range m.cfg.BayesPairs {
			batch = appendPair(batch, GameKey{StageBayes, g, 2 * k}, cand, m.ref, t.opening(StageBayes, g, k))
		}
	} else {
		batch = t.opponentPairs(batch, g, 0, 0, cand)
	}
	recs, err := t.play(ctx, batch)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	var pairs stats.Pentanomial
	for j := 0; j+1 < len(recs); j += 2 {
		a, b := pairScore(recs[j], j), pairScore(recs[j+1], j+1)
		pairs.AddPair(a, b)
		cand.Add(a)
		cand.Add(b)
	}
	elo, sd := bayesObservation(pairs)
	cand.Fitness = elo
	if err := m.search.observe(g, m.box.unit(cand.Weights), elo, sd*sd); err != nil {
		return Generation{}, Genome{}, err
	}
	champ := m.champion(g)
	mean, v := m.search.model.Predict(m.box.unit(champ.Weights))
	champ.Fitness = mean
	s := Generation{Index: g, Genomes: []Genome{cand, champ}, Best: champ.ID, BestFitness: mean, Diversity: math.Sqrt(v),
		MeanFitness: elo, WorstFitness: sd, Mean: append([]float64(nil), m.box.start...), Std: make([]float64, len(m.box.start))}
	scales := m.search.model.Hyper().LengthScales
	for j, p := range m.box.params {
		s.Mean[p.Feature] = p.Min + m.search.optimum[j]*(p.Max-p.Min)
		s.Std[p.Feature] = scales[j] * (p.Max - p.Min)
	}
	s.Distance = t.space.distance(m.last.Weights, champ.Weights)
	m.last = champ
	return s, champ, nil
}

// champion is round g's champion: the optimum (the maximum of the
// posterior mean), snapped to the steps, as genome 2g+2, when the model
// expects it to beat the last champion (the start's weights before the
// first) by more than the sd of that difference (84% sure it is better);
// else the last champion again, its id kept. So a landscape the rounds
// have not told apart from flat keeps its champion, and the ladder rates
// the champions the model preferred, not every wobble of the optimum.
func (m *bayes) champion(g int) Genome {
	w := m.box.weights(m.search.optimum)
	if d, sd := m.search.model.Difference(m.box.unit(w), m.box.unit(m.last.Weights)); d > sd {
		return Genome{ID: 2*g + 2, Weights: w}
	}
	return Genome{ID: m.last.ID, Weights: m.last.Weights}
}
