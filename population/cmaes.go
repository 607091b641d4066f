package population

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/optimize"
)

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
	if c.CMAESGenerations < 1 || c.CMAESGenerations > MaxGenerations {
		return bad("cmaes-generations %d: 1 to %d", c.CMAESGenerations, MaxGenerations)
	}
	if c.CMAESPopulation != 0 && (c.CMAESPopulation < 2 || c.CMAESPopulation > MaxCandidates) {
		return bad("cmaes-population %d: 0 (gonum's default, 4 + 3 ln n) or 2 to %d", c.CMAESPopulation, MaxCandidates)
	}
	if c.CMAESPairs < 1 || c.CMAESPairs > MaxBestOf {
		return bad("cmaes-pairs %d: 1 to %d pairs of each candidate against the mean", c.CMAESPairs, MaxBestOf)
	}
	if !(c.CMAESSigma > 0 && c.CMAESSigma <= 1) {
		return bad("cmaes-sigma %g: the initial step as a fraction of each range, in (0, 1]", c.CMAESSigma)
	}
	if n := 2 * c.CMAESPairs * max(c.CMAESPopulation, 4); budget > 0 && budget < n {
		return bad("budget-games %d is too small for one CMA-ES generation (%d games or more)", budget, n)
	}
	return nil
}

// StageCMAES names the games of CMA-ES candidates against the mean.
const StageCMAES = "cmaes"

// runCMAES runs gonum's CmaEsChol, driven through its Method interface so
// that each generation's candidates are played in one batch on every
// worker and every game is recorded: the search space is the features
// with a range, each weight w = start + x * range (x = 0 is the start);
// each candidate plays CMAESPairs colour-swapped pairs against the current
// mean (each pair from an opening drawn from its place), and its loss is
// 1 - its score (ties broken by the candidate's index, so that the ranking
// is total). A generation's champion is the new mean, computed as CmaEsChol
// computes it (the weighted recombination of the best half), snapped to
// the steps; it is the opponent of the next generation. The samples come
// from a generator seeded from the run seed alone, so a resumed run draws
// them again identically. It stops after CMAESGenerations generations, or
// when CmaEsChol declares convergence.
func (t *Tuner) runCMAES(ctx context.Context) (Result, error) {
	cfg := t.cfg
	start := t.space.snapAll(t.startOrDefaults())
	var idx []int
	var scale []float64
	for i, f := range t.ev.Features {
		if f.Max > f.Min {
			idx, scale = append(idx, i), append(scale, f.Max-f.Min)
		}
	}
	dim := len(idx)
	if dim == 0 {
		return Result{}, errNothingToTune(t)
	}
	pop := cfg.CMAESPopulation
	if pop == 0 {
		pop = 4 + int(3*math.Log(float64(dim)))
	}
	toWeights := func(x []float64) []float64 {
		w := append([]float64(nil), start...)
		for j, i := range idx {
			w[i] = start[i] + x[j]*scale[j]
		}
		return t.space.snapAll(w)
	}
	method := &optimize.CmaEsChol{InitStepSize: cfg.CMAESSigma, Population: pop,
		Src: rand.NewPCG(cfg.Seed, rngFor(cfg.Seed, StageCMAES, 0, 0).Uint64())}
	method.Init(dim, pop)
	operations := make(chan optimize.Task, pop+2)
	results := make(chan optimize.Task, pop+2)
	tasks := make([]optimize.Task, pop)
	for i := range tasks {
		tasks[i] = optimize.Task{ID: i, Location: &optimize.Location{X: make([]float64, dim)}}
	}
	go method.Run(operations, results, tasks)
	defer func() {
		results <- optimize.Task{Op: optimize.PostIteration}
		close(results)
		for range operations {
		}
	}()
	// The recombination weights of CmaEsChol: log(mu+1/2) - log(i+1) over
	// the best mu = pop/2, normalised.
	mu := pop / 2
	recomb := make([]float64, mu)
	sum := 0.0
	for i := range recomb {
		recomb[i] = math.Log(float64(mu)+0.5) - math.Log(float64(i)+1)
		sum += recomb[i]
	}
	for i := range recomb {
		recomb[i] /= sum
	}
	mean := make([]float64, dim)
	meanID := 0
	var res Result
	for gen := 0; gen < cfg.CMAESGenerations; gen++ {
		cands := make([]optimize.Task, pop)
		for n := 0; n < pop; n++ {
			task := <-operations
			cands[task.ID] = task
		}
		meanW := toWeights(mean)
		genomes := make([]Genome, pop)
		batch := make([]game, 0, 2*pop*cfg.CMAESPairs)
		for c := range cands {
			genomes[c] = Genome{ID: gen*(pop+1) + 1 + c, Parents: []int{meanID}, Weights: toWeights(cands[c].X)}
			for p := 0; p < cfg.CMAESPairs; p++ {
				k := c*cfg.CMAESPairs + p
				op := t.opening(StageCMAES, gen, k)
				g := genomes[c]
				batch = append(batch,
					game{key: GameKey{StageCMAES, gen, 2 * k}, first: g.ID, second: meanID, wFirst: g.Weights, wSecond: meanW, opening: op},
					game{key: GameKey{StageCMAES, gen, 2*k + 1}, first: meanID, second: g.ID, wFirst: meanW, wSecond: g.Weights, opening: op})
			}
		}
		recs, err := t.play(ctx, batch)
		if err != nil {
			return res, err
		}
		loss := make([]float64, pop)
		for c := range cands {
			for j, r := range recs[2*c*cfg.CMAESPairs : 2*(c+1)*cfg.CMAESPairs] {
				s := r.Score()
				if j%2 == 1 {
					s = 1 - s
				}
				genomes[c].Add(s)
			}
			genomes[c].Fitness = genomes[c].Points() / float64(max(genomes[c].Games(), 1))
			loss[c] = 1 - genomes[c].Fitness + 1e-9*float64(c)
		}
		// The new mean, as CmaEsChol's update computes it.
		order := make([]int, pop)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return loss[order[a]] < loss[order[b]] })
		next := make([]float64, dim)
		for i, w := range recomb {
			for j, x := range cands[order[i]].X {
				next[j] += w * x
			}
		}
		for c := range cands {
			cands[c].F = loss[c]
			results <- cands[c]
		}
		after := <-operations // MajorIteration, or MethodDone when CmaEsChol has converged
		champ := Genome{ID: (gen + 1) * (pop + 1), Parents: []int{meanID}, Weights: toWeights(next)}
		summary, err := t.summarise(ctx, gen, genomes)
		if err != nil {
			return res, err
		}
		summary.Genomes = append(summary.Genomes, champ)
		summary.Best = champ.ID
		summary.Distance = t.space.distance(meanW, champ.Weights)
		summary.Converged = after.Op == optimize.MethodDone
		stop, err := t.closeGeneration(ctx, &summary, champ, cfg.CMAESGenerations-1)
		if err != nil {
			return res, err
		}
		res.Best, res.Generations, res.Converged, res.Stop = champ, gen+1, summary.Converged, summary.Stop
		if summary.Yardstick != nil {
			res.Yardstick = summary.Yardstick
		}
		if stop {
			break
		}
		results <- after // acknowledge the major iteration: CmaEsChol samples the next generation
		mean, meanID = next, champ.ID
	}
	return res, nil
}
