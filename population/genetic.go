package population

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gametune/gametune/tournament/stats"
)

// GeneticConfig is the genetic algorithm's section of a Config.
type GeneticConfig struct {
	Population     int     `yaml:"population"`
	Generations    int     `yaml:"generations"`
	Games          int     `yaml:"games"`     // opponents each genome meets (a colour-swapped pair each)
	Fitness        string  `yaml:"fitness"`   // score or exp
	Selection      string  `yaml:"selection"` // roulette, sus or tournament
	TournamentSize int     `yaml:"tournament-size"`
	Crossover      string  `yaml:"crossover"` // uniform, blend or none
	Redraw         float64 `yaml:"redraw"`    // probability that a child's weights are all re-drawn (the report's mutation)
	MutationRate   float64 `yaml:"mutation-rate"`
	Sigma          float64 `yaml:"sigma"` // Gaussian step, as a fraction of each range
	Elite          int     `yaml:"elite"`
	Converge       float64 `yaml:"converge"` // stop when diversity falls below this; 0 = never
}

func (c GeneticConfig) validate() error {
	if c.Population < 2 || c.Population > MaxPopulation {
		return bad("population %d: 2 to %d genomes", c.Population, MaxPopulation)
	}
	if c.Generations < 1 || c.Generations > MaxGenerations {
		return bad("generations %d: 1 to %d", c.Generations, MaxGenerations)
	}
	if c.Games < 1 || c.Games > c.Population-1 {
		return bad("games %d: each genome meets 1 to population-1 = %d opponents", c.Games, c.Population-1)
	}
	if c.Population*c.Games > MaxPopulationGames {
		return bad("population %d times games %d is %d meetings a generation, more than %d", c.Population, c.Games, c.Population*c.Games, MaxPopulationGames)
	}
	if c.Fitness != "score" && c.Fitness != "exp" {
		return bad("unknown fitness %q (score or exp)", c.Fitness)
	}
	switch c.Selection {
	case "roulette", "sus":
	case "tournament":
		if c.TournamentSize < 2 || c.TournamentSize > c.Population {
			return bad("tournament-size %d: 2 to population (%d)", c.TournamentSize, c.Population)
		}
	default:
		return bad("unknown selection %q (roulette, sus or tournament)", c.Selection)
	}
	switch c.Crossover {
	case "uniform", "blend", "none":
	default:
		return bad("unknown crossover %q (uniform, blend or none)", c.Crossover)
	}
	if err := probability("redraw", c.Redraw); err != nil {
		return err
	}
	if err := probability("mutation-rate", c.MutationRate); err != nil {
		return err
	}
	if math.IsNaN(c.Sigma) || c.Sigma < 0 || c.Sigma > 1 {
		return bad("sigma %g out of range [0, 1] (a fraction of each weight's range)", c.Sigma)
	}
	if c.Elite < 0 || c.Elite >= c.Population {
		return bad("elite %d: 0 to population-1 = %d", c.Elite, c.Population-1)
	}
	if math.IsNaN(c.Converge) || c.Converge < 0 {
		return bad("converge %g must be >= 0", c.Converge)
	}
	return nil
}

// genetic is the Othello report's genetic algorithm, generation after
// generation:
//
//  1. each genome meets Games opponents drawn at random among the others,
//     each meeting a colour-swapped pair of games from one opening, and
//     plays opponent-pairs pairs against each of the run's opponents, if
//     any (counted in its record and fitness like the others);
//  2. fitness is the genome's points per game ("score") or 2^wins/games
//     ("exp", the report's suggestion), kept strictly positive;
//  3. the Elite best genomes pass unchanged, each keeping its id; every
//     other child has two parents chosen by roulette wheel, stochastic
//     universal sampling or tournament selection, mixes their weights
//     (uniform or blend crossover), has all its weights re-drawn with
//     probability Redraw (the report's mutation) or else each weight moved
//     by a Gaussian step of Sigma times its range with probability
//     MutationRate, snapped to the feature's step.
//
// It stops after Generations generations, or when the population's
// diversity falls below Converge.
type genetic struct {
	t   *Tuner
	cfg GeneticConfig
	pop []Genome // the current generation
}

func newGenetic(t *Tuner) (Method, error) { return &genetic{t: t, cfg: t.cfg.GeneticConfig}, nil }

func (m *genetic) Generation(ctx context.Context, gen int) (Generation, Genome, error) {
	var err error
	if gen == 0 {
		m.pop = m.initialPopulation()
	} else if m.pop, err = m.breed(ctx, gen-1, m.pop); err != nil {
		return Generation{}, Genome{}, err
	}
	if err := m.evaluate(ctx, gen, m.pop); err != nil {
		return Generation{}, Genome{}, err
	}
	s, err := summarise(ctx, m.t.space, gen, m.pop)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	s.Converged = m.cfg.Converge > 0 && s.Diversity < m.cfg.Converge
	return s, m.pop[bestIndex(m.pop)], nil
}

// initialPopulation draws generation 0: uniform in the ranges, or the start
// weights and Gaussian variations around them.
func (m *genetic) initialPopulation() []Genome {
	t := m.t
	pop := make([]Genome, m.cfg.Population)
	for i := range pop {
		rng := rngFor(t.cfg.Seed, "init", 0, i)
		var w []float64
		switch {
		case t.start == nil:
			w = t.space.random(rng)
		case i == 0:
			w = append([]float64(nil), t.start...)
		default:
			w = m.gaussian(rng, t.start, 1)
		}
		pop[i] = Genome{ID: i, Weights: w}
	}
	return pop
}

// gaussian moves each weight with probability rate by a normal step of
// Sigma (at least 0.05) times its range.
func (m *genetic) gaussian(rng *rand.Rand, w []float64, rate float64) []float64 {
	out := append([]float64(nil), w...)
	sigma := max(m.cfg.Sigma, 0.05)
	for i, f := range m.t.space.features {
		if rng.Float64() < rate {
			out[i] = m.t.space.snap(i, out[i]+rng.NormFloat64()*sigma*(f.Max-f.Min))
		}
	}
	return out
}

// ctxEvery is how many genomes or games a loop handles between two checks
// of its context, so that a big generation stops promptly.
const ctxEvery = 1024

// pairings returns the generation's games: each genome meets Games
// opponents drawn without repetition among the others, by a generator
// seeded from the run seed, the generation and the genome's index, each
// meeting a colour-swapped pair from one opening; then each genome's
// pairs against the run's opponents (opponentPairs), if any. It costs O(population *
// Games) time and O(population) scratch memory besides the games, and
// returns ctx's error as soon as it notices ctx is done.
func (m *genetic) pairings(ctx context.Context, gen int, pop []Genome) ([]game, error) {
	t, k := m.t, m.cfg.Games
	batch := make([]game, 0, (2*k+t.cfg.opponentGames())*len(pop))
	draw := newSampler(len(pop) - 1)
	others := make([]int, 0, k)
	for i := range pop {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		others = draw.sample(rngFor(t.cfg.Seed, "opponents", gen, i), k, others[:0])
		for j, o := range others {
			if o >= i {
				o++ // skip the genome itself
			}
			meeting := i*k + j
			batch = appendPair(batch, GameKey{StageGeneration, gen, 2 * meeting}, pop[i], pop[o], t.opening(StageGeneration, gen, meeting))
		}
	}
	for i := range pop {
		batch = t.opponentPairs(batch, gen, i, i, pop[i])
	}
	return batch, nil
}

// sampler draws distinct integers from [0, n) by a partial Fisher-Yates
// shuffle of an identity permutation it keeps, undone after each draw: a
// draw of k costs O(k), whatever n.
type sampler struct {
	perm  []int // the identity between draws
	swaps []int // positions swapped by the current draw
}

func newSampler(n int) *sampler {
	s := &sampler{perm: make([]int, n)}
	for i := range s.perm {
		s.perm[i] = i
	}
	return s
}

// sample appends k distinct integers of [0, n) to out, in the order drawn,
// and returns it; k must be at most n. The draw depends on rng alone.
func (s *sampler) sample(rng *rand.Rand, k int, out []int) []int {
	n := len(s.perm)
	s.swaps = s.swaps[:0]
	for j := 0; j < k; j++ {
		r := j + rng.IntN(n-j)
		s.perm[j], s.perm[r] = s.perm[r], s.perm[j]
		s.swaps = append(s.swaps, r)
		out = append(out, s.perm[j])
	}
	for j := len(s.swaps) - 1; j >= 0; j-- {
		r := s.swaps[j]
		s.perm[j], s.perm[r] = s.perm[r], s.perm[j]
	}
	return out
}

// evaluate plays the generation's games and sets every genome's record and
// fitness.
func (m *genetic) evaluate(ctx context.Context, gen int, pop []Genome) error {
	batch, err := m.pairings(ctx, gen, pop)
	if err != nil {
		return err
	}
	recs, err := m.t.play(ctx, batch)
	if err != nil {
		return err
	}
	index := make(map[int]int, len(pop))
	for i, g := range pop {
		index[g.ID] = i
		pop[i].WDL = stats.WDL{}
	}
	for i, r := range recs {
		s := r.Score()
		if x, ok := index[batch[i].first]; ok {
			pop[x].Add(s)
		}
		if x, ok := index[batch[i].second]; ok {
			pop[x].Add(1 - s) // not an opponent's game (OpponentID)
		}
	}
	for i := range pop {
		pop[i].Fitness = m.fitness(pop[i])
	}
	return nil
}

// fitness is strictly positive so that the roulette wheel can spin.
// It counts every game the genome played, its prior included.
func (m *genetic) fitness(g Genome) float64 {
	r := g.Total()
	n := float64(max(r.Games(), 1))
	if m.cfg.Fitness == "exp" {
		return math.Exp2(float64(r.Wins)) / n
	}
	return r.Points()/n + ScoreFitnessFloor
}

// ScoreFitnessFloor is what the score fitness adds to a genome's points per
// game, so that a roulette wheel can spin when every genome scored 0.
const ScoreFitnessFloor = 0.01

// ShownFitness is a genetic run's fitness f as reports show it, in
// FitnessUnit: the points per game behind a score fitness (f without
// ScoreFitnessFloor), the exp fitness itself.
func (c Config) ShownFitness(f float64) float64 {
	if c.Fitness == "exp" {
		return f
	}
	return f - ScoreFitnessFloor
}

// FitnessUnit names what ShownFitness measures: "points a game" for the
// score fitness, "2^wins/games" for exp.
func (c Config) FitnessUnit() string {
	if c.Fitness == "exp" {
		return "2^wins/games"
	}
	return "points a game"
}

// bestIndex is the generation's champion: the genome with the most
// evidence (evidence), ties to the fitter, then the first.
func bestIndex(pop []Genome) int {
	best := 0
	for i := range pop {
		e, b := pop[i].evidence(), pop[best].evidence()
		if e > b || e == b && pop[i].Fitness > pop[best].Fitness {
			best = i
		}
	}
	return best
}

// summarise describes a generation of genomes in space sp; it returns ctx's error as soon
// as it notices ctx is done.
func summarise(ctx context.Context, sp space, gen int, pop []Genome) (Generation, error) {
	s := Generation{Index: gen, Genomes: append([]Genome(nil), pop...)}
	s.Mean, s.Std = meanStd(pop)
	var err error
	if s.Diversity, err = sp.diversity(ctx, pop); err != nil {
		return Generation{}, err
	}
	b := bestIndex(pop)
	s.Best, s.BestFitness, s.WorstFitness = pop[b].ID, pop[b].Fitness, pop[b].Fitness
	for _, g := range pop {
		s.MeanFitness += g.Fitness
		s.WorstFitness = min(s.WorstFitness, g.Fitness)
	}
	s.MeanFitness /= float64(len(pop))
	return s, nil
}

// breed makes generation gen+1 from generation gen; it returns ctx's
// error as soon as it notices ctx is done.
func (m *genetic) breed(ctx context.Context, gen int, pop []Genome) ([]Genome, error) {
	t, cfg := m.t, m.cfg
	next := make([]Genome, 0, len(pop))
	nextID := (gen + 1) * cfg.Population
	order := make([]int, len(pop))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pop[order[a]].Fitness > pop[order[b]].Fitness })
	for e := 0; e < cfg.Elite; e++ {
		// An elite is the same genome carried on: its id, parents and
		// weights, with its games so far as its prior. The ids its place
		// would have had stay unused, so that a child's id still tells the
		// generation it was born in.
		g := pop[order[e]]
		next = append(next, Genome{ID: g.ID, Parents: slices.Clone(g.Parents), Weights: slices.Clone(g.Weights), Prior: g.Total()})
	}
	children := len(pop) - cfg.Elite
	parents, err := m.selectParents(ctx, rngFor(t.cfg.Seed, "select", gen, 0), pop, 2*children)
	if err != nil {
		return nil, err
	}
	for c := 0; c < children; c++ {
		if c%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rng := rngFor(t.cfg.Seed, "child", gen, c)
		a, b := pop[parents[2*c]], pop[parents[2*c+1]]
		w, ids := m.crossover(rng, a, b)
		switch {
		case rng.Float64() < cfg.Redraw:
			w = t.space.random(rng)
		case cfg.MutationRate > 0:
			w = m.gaussian(rng, w, cfg.MutationRate)
		}
		next = append(next, Genome{ID: nextID + len(next), Parents: ids, Weights: w})
	}
	return next, nil
}

func (m *genetic) crossover(rng *rand.Rand, a, b Genome) ([]float64, []int) {
	w := make([]float64, len(a.Weights))
	switch m.cfg.Crossover {
	case "none":
		copy(w, a.Weights)
		return w, []int{a.ID}
	case "blend":
		for i := range w {
			x := rng.Float64()
			w[i] = m.t.space.snap(i, x*a.Weights[i]+(1-x)*b.Weights[i])
		}
	default: // uniform
		for i := range w {
			if rng.IntN(2) == 0 {
				w[i] = a.Weights[i]
			} else {
				w[i] = b.Weights[i]
			}
		}
	}
	if a.ID == b.ID {
		return w, []int{a.ID}
	}
	return w, []int{a.ID, b.ID}
}

// selectParents draws n parent indices by the configured selection. The
// roulette wheel costs O(len(pop)) a draw; ctx is checked every ctxEvery
// draws.
func (m *genetic) selectParents(ctx context.Context, rng *rand.Rand, pop []Genome, n int) ([]int, error) {
	out := make([]int, n)
	total := 0.0
	for _, g := range pop {
		total += g.Fitness
	}
	spin := func(r float64) int {
		for i, g := range pop {
			r -= g.Fitness
			if r < 0 {
				return i
			}
		}
		return len(pop) - 1
	}
	switch m.cfg.Selection {
	case "sus":
		step := total / float64(n)
		start := rng.Float64() * step
		for i := range out {
			if i%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			out[i] = spin(start + float64(i)*step)
		}
		rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	case "tournament":
		for i := range out {
			best := rng.IntN(len(pop))
			for k := 1; k < m.cfg.TournamentSize; k++ {
				if c := rng.IntN(len(pop)); pop[c].Fitness > pop[best].Fitness {
					best = c
				}
			}
			out[i] = best
		}
	default: // roulette
		for i := range out {
			if i%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			out[i] = spin(rng.Float64() * total)
		}
	}
	return out, nil
}
