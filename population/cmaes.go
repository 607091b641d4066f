package population

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/gametune/gametune/games"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// CMAES is covariance matrix adaptation (gonum's CmaEsChol).
const CMAES Algo = "cmaes"

// CMAESConfig is CMA-ES's section of a Config: gonum's CmaEsChol, in
// weights scaled by their ranges and centred on the start;
// CMAESGenerations generations of CMAESPopulation candidates (0: gonum's
// default, 4 + 3 ln n), each candidate's loss its score against the
// current mean over CMAESPairs colour-swapped pairs; CMAESSigma is the
// initial step, a fraction of each range.
type CMAESConfig struct {
	CMAESGenerations int     `yaml:"cmaes-generations"`
	CMAESPopulation  int     `yaml:"cmaes-population"`
	CMAESPairs       int     `yaml:"cmaes-pairs"`
	CMAESSigma       float64 `yaml:"cmaes-sigma"`
}

// validate checks the section for a run of budget games (0: no budget).
func (c CMAESConfig) validate(budget int) error {
	n := 2 * c.CMAESPairs * max(c.CMAESPopulation, 4) // games of one generation
	return firstError(
		check(c.CMAESGenerations >= 1 && c.CMAESGenerations <= MaxGenerations, "cmaes-generations %d: 1 to %d", c.CMAESGenerations, MaxGenerations),
		check(c.CMAESPopulation == 0 || c.CMAESPopulation >= 2 && c.CMAESPopulation <= MaxCandidates,
			"cmaes-population %d: 0 (gonum's default, 4 + 3 ln n) or 2 to %d", c.CMAESPopulation, MaxCandidates),
		check(c.CMAESPairs >= 1 && c.CMAESPairs <= MaxBestOf, "cmaes-pairs %d: 1 to %d pairs of each candidate against the mean", c.CMAESPairs, MaxBestOf),
		check(c.CMAESSigma > 0 && c.CMAESSigma <= 1, "cmaes-sigma %g: the initial step as a fraction of each range, in (0, 1]", c.CMAESSigma),
		check(budget <= 0 || budget >= n, "budget-games %d is too small for one CMA-ES generation (%d games or more)", budget, n),
	)
}

// cmaesTuner describes CMA-ES for the registry.
func cmaesTuner() *Descriptor {
	return &Descriptor{
		Algo:       CMAES,
		Generation: "generation", LengthKey: "cmaes-generations", Longest: MaxGenerations,
		Section:   CMAESConfig{CMAESGenerations: 30, CMAESPairs: 2, CMAESSigma: 0.1},
		Keys:      cmaesKeys,
		Validate:  func(c Config) error { return c.CMAESConfig.validate(c.BudgetGames) },
		Opponents: true,
		OpponentGames: func(c Config) error {
			if g := (2*c.CMAESPairs + c.opponentGames()) * max(c.CMAESPopulation, 4); c.BudgetGames > 0 && c.BudgetGames < g {
				return bad("budget-games %d is too small for one CMA-ES generation against the opponents (%d games or more)", c.BudgetGames, g)
			}
			return nil
		},
		GenerationGames: func(c Config, ev *games.Evaluator) int {
			return (2*c.CMAESPairs + c.opponentGames()) * c.CMAESCandidates(ev)
		},
		New: newCMAES,
		Plan: func(c Config) string {
			return fmt.Sprintf("each candidate plays %d pairs (%d games) against the mean", c.CMAESPairs, 2*c.CMAESPairs) + c.opponentsPlan(", and")
		},
		Report: ReportViews{Line: "cmaes", Figures: []string{"cmaes-sigma", "cmaes-mean"}, History: []string{"cmaes", "cmaes-mean"}},
	}
}

// cmaesKeys are CMA-ES's section's keys.
var cmaesKeys = []Key{
	{Name: "cmaes-generations", Help: "cmaes: generations"},
	{Name: "cmaes-population", Help: "cmaes: candidates per generation (0: gonum's default, 4 + 3 ln n)"},
	{Name: "cmaes-pairs", Help: "cmaes: colour-swapped pairs of each candidate against the mean"},
	{Name: "cmaes-sigma", Help: "cmaes: initial step as a fraction of each range"},
}

// StageCMAES names the games of CMA-ES candidates against the mean.
const StageCMAES = "cmaes"

// cmaes runs gonum's CmaEsChol, driven through its Method interface so
// that each generation's candidates are played in one batch on every
// worker and every game is recorded: the search space is the features
// with a range, each weight w = start + x * range (x = 0 is the start);
// each candidate plays CMAESPairs colour-swapped pairs against the current
// mean (each pair from an opening drawn from its place), and
// opponent-pairs against each of the run's opponents, and its loss is
// 1 - its score over all of them (ties broken by the candidate's index, so that the ranking
// is total). A generation's champion is the new mean, computed as CmaEsChol
// computes it (the weighted recombination of the best half), snapped to
// the steps; it is the opponent of the next generation. The samples come
// from a generator seeded from the run seed alone, so a resumed run draws
// them again identically. It stops after CMAESGenerations generations, or
// when CmaEsChol declares convergence.
type cmaes struct {
	t          *Tuner
	cfg        CMAESConfig
	start      []float64 // the snapped start weights
	idx        []int     // the features searched
	scale      []float64 // their ranges
	pop        int       // candidates per generation
	recomb     []float64 // CmaEsChol's recombination weights
	operations chan optimize.Task
	results    chan optimize.Task
	mean       []float64     // the current mean, in the search space
	meanID     int           // the champion that stands for it
	next       []float64     // the mean after the last generation
	after      optimize.Task // CmaEsChol's answer to the last generation
}

func newCMAES(t *Tuner) (Method, error) {
	m := &cmaes{t: t, cfg: t.cfg.CMAESConfig, start: t.space.snapAll(t.startOrDefaults())}
	for i, f := range t.ev.Features {
		if f.Max > f.Min {
			m.idx, m.scale = append(m.idx, i), append(m.scale, f.Max-f.Min)
		}
	}
	dim := len(m.idx)
	if dim == 0 {
		return nil, errNothingToTune(t.ev)
	}
	m.pop = m.cfg.CMAESPopulation
	if m.pop == 0 {
		m.pop = 4 + int(3*math.Log(float64(dim)))
	}
	method := &optimize.CmaEsChol{InitStepSize: m.cfg.CMAESSigma, InitCholesky: initialCovariance(dim, m.cfg.CMAESSigma),
		Population: m.pop, Src: rand.NewPCG(t.cfg.Seed, rngFor(t.cfg.Seed, StageCMAES, 0, 0).Uint64())}
	method.Init(dim, m.pop)
	m.operations = make(chan optimize.Task, m.pop+2)
	m.results = make(chan optimize.Task, m.pop+2)
	tasks := make([]optimize.Task, m.pop)
	for i := range tasks {
		tasks[i] = optimize.Task{ID: i, Location: &optimize.Location{X: make([]float64, dim)}}
	}
	go method.Run(m.operations, m.results, tasks)
	m.recomb = recombination(m.pop / 2)
	m.mean = make([]float64, dim)
	return m, nil
}

// initialCovariance is the covariance of the first samples, sigma^2 I:
// each weight drawn with a spread of sigma times its range. CmaEsChol
// samples from its covariance alone (InitStepSize scales its updates, not
// the samples), and its default, I, would spread the first samples over
// whole ranges, most of them clamped to a bound.
func initialCovariance(dim int, sigma float64) *mat.Cholesky {
	d := mat.NewDiagDense(dim, nil)
	for i := range dim {
		d.SetDiag(i, sigma*sigma)
	}
	var c mat.Cholesky
	if !c.Factorize(d) {
		panic("population: sigma^2 I is not positive definite") // sigma > 0 is checked by validate
	}
	return &c
}

// close ends CmaEsChol's goroutine.
func (m *cmaes) close() {
	m.results <- optimize.Task{Op: optimize.PostIteration}
	close(m.results)
	for range m.operations {
	}
}

// recombination is CmaEsChol's recombination weights: log(mu+1/2) -
// log(i+1) over the best mu, normalised.
func recombination(mu int) []float64 {
	w := make([]float64, mu)
	sum := 0.0
	for i := range w {
		w[i] = math.Log(float64(mu)+0.5) - math.Log(float64(i)+1)
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

// toWeights maps a point of the search space to snapped weights.
func (m *cmaes) toWeights(x []float64) []float64 {
	w := append([]float64(nil), m.start...)
	for j, i := range m.idx {
		w[i] = m.start[i] + x[j]*m.scale[j]
	}
	return m.t.space.snapAll(w)
}

func (m *cmaes) Generation(ctx context.Context, gen int) (Generation, Genome, error) {
	if gen > 0 {
		m.results <- m.after // acknowledge the major iteration: CmaEsChol samples the next generation
		m.mean, m.meanID = m.next, gen*(m.pop+1)
	}
	cands := make([]optimize.Task, m.pop)
	for n := 0; n < m.pop; n++ {
		task := <-m.operations
		cands[task.ID] = task
	}
	meanW := m.toWeights(m.mean)
	genomes, loss, err := m.play(ctx, gen, cands, meanW)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	m.next = m.newMean(cands, loss)
	for c := range cands {
		cands[c].F = loss[c]
		m.results <- cands[c]
	}
	m.after = <-m.operations // MajorIteration, or MethodDone when CmaEsChol has converged
	champ := Genome{ID: (gen + 1) * (m.pop + 1), Parents: []int{m.meanID}, Weights: m.toWeights(m.next)}
	s, err := summarise(ctx, m.t.space, gen, genomes)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	s.Genomes = append(s.Genomes, champ)
	s.Best = champ.ID
	s.Distance = m.t.space.distance(meanW, champ.Weights)
	s.Converged = m.after.Op == optimize.MethodDone
	return s, champ, nil
}

// play plays each candidate's pairs against the mean, and against the
// run's opponents (opponentPairs) if any, and returns the candidates as
// genomes, with their records and fitness (their score over every game),
// and their losses.
func (m *cmaes) play(ctx context.Context, gen int, cands []optimize.Task, meanW []float64) ([]Genome, []float64, error) {
	pairs := m.cfg.CMAESPairs
	genomes := make([]Genome, len(cands))
	batch := make([]game, 0, len(cands)*(2*pairs+m.t.cfg.opponentGames()))
	mean := Genome{ID: m.meanID, Weights: meanW}
	for c := range cands {
		genomes[c] = Genome{ID: gen*(m.pop+1) + 1 + c, Parents: []int{m.meanID}, Weights: m.toWeights(cands[c].X)}
		for p := 0; p < pairs; p++ {
			k := c*pairs + p
			batch = appendPair(batch, GameKey{StageCMAES, gen, 2 * k}, genomes[c], mean, m.t.opening(StageCMAES, gen, k))
		}
	}
	own, per := len(batch), m.t.cfg.opponentGames()
	for c := range cands {
		batch = m.t.opponentPairs(batch, gen, c, c, genomes[c])
	}
	recs, err := m.t.play(ctx, batch)
	if err != nil {
		return nil, nil, err
	}
	loss := make([]float64, len(cands))
	for c := range cands {
		for j, r := range recs[2*c*pairs : 2*(c+1)*pairs] {
			genomes[c].Add(pairScore(r, j))
		}
		for j, r := range recs[own+c*per : own+(c+1)*per] {
			genomes[c].Add(pairScore(r, j))
		}
		genomes[c].Fitness = genomes[c].Points() / float64(max(genomes[c].Games(), 1))
		loss[c] = 1 - genomes[c].Fitness + 1e-9*float64(c)
	}
	return genomes, loss, nil
}

// newMean is the mean after a generation, as CmaEsChol's update computes it.
func (m *cmaes) newMean(cands []optimize.Task, loss []float64) []float64 {
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return loss[order[a]] < loss[order[b]] })
	next := make([]float64, len(m.idx))
	for i, w := range m.recomb {
		for j, x := range cands[order[i]].X {
			next[j] += w * x
		}
	}
	return next
}
