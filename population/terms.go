package population

import (
	"math"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// Each tuner's own terms, read back from what a run recorded (its config
// and its Generations), for the terminal, tune show, the report and the
// dashboard: SPSA's iterations and step sizes, CMA-ES's spread, Texel's
// losses. Nothing here needs a column of its own in a run store: old runs
// read the same.

// SPSAStep is SPSA's schedule for one parameter at one iteration k:
// c_k, the perturbation (the plus side plays theta + c_k*delta), a_k and
// R_k = a_k / c_k^2, so that a result r of the iteration moves theta by
// R_k * c_k * r (Move: R_k * c_k, the move per unit of result).
type SPSAStep struct {
	Name    string
	Feature int     // index in the evaluator's features
	Start   float64 // theta before the first iteration
	C, A, R float64
}

// Move is the move of theta per unit of an iteration's result (the plus
// side's wins minus losses): R_k * c_k = a_k / c_k.
func (s SPSAStep) Move() float64 { return s.R * s.C }

// SPSAStepsAt returns SPSA's schedule at iteration k (from 1; clamped to
// 1 to spsa-iterations) for each parameter a run of cfg tunes in ev, in
// the order of its parameters (spsa-params, or every feature with a
// range): c_k = c_end * (N/k)^gamma and a_k = r_end * c_end^2 *
// ((A+N)/(A+k))^alpha, as the run played it. The parameters' starts are
// the recorded start weights (the defaults when none) or the spsa-params
// lines'. It costs O(len(ev.Features)).
func SPSAStepsAt(cfg Config, ev *games.Evaluator, k int) ([]SPSAStep, error) {
	start, err := cfg.StartOrDefaults(ev)
	if err != nil {
		return nil, err
	}
	params, err := spsaParams(cfg, ev, start)
	if err != nil {
		return nil, err
	}
	sched := spsaSchedule{Iterations: cfg.SPSAIterations, A: cfg.SPSAARatio * float64(cfg.SPSAIterations), Alpha: cfg.SPSAAlpha, Gamma: cfg.SPSAGamma}
	k = min(max(k, 1), max(cfg.SPSAIterations, 1))
	steps := make([]SPSAStep, len(params))
	for i, p := range params {
		c, r := sched.at(p, k)
		steps[i] = SPSAStep{Name: p.Name, Feature: p.Feature, Start: p.Start, C: c, A: r * c * c, R: r}
	}
	return steps, nil
}

// StartOrDefaults is the start weights a run of c tuning ev recorded
// (start-weights), or ev's defaults when it recorded none: where SPSA,
// CMA-ES and Texel begin. An error when the recorded weights lack a
// feature of ev.
func (c Config) StartOrDefaults(ev *games.Evaluator) ([]float64, error) {
	w, err := startWeights(ev, c)
	if w == nil && err == nil {
		w = ev.Defaults()
	}
	return w, err
}

// SPSAIterationsDone is the iterations an SPSA run of c has played at the
// end of its block (generation) g, counted from 0: spsa-block per block,
// the last block's iterations the ones left.
func (c Config) SPSAIterationsDone(g int) int {
	return min((g+1)*max(c.SPSABlock, 1), c.SPSAIterations)
}

// CMAESCandidates is the candidates of each generation of a CMA-ES run of
// c tuning ev: cmaes-population, or gonum's default, 4 + 3 ln n over the
// n features with a range (nil counts none).
func (c Config) CMAESCandidates(ev *games.Evaluator) int {
	if c.CMAESConfig.CMAESPopulation > 0 {
		return c.CMAESConfig.CMAESPopulation
	}
	dim := 0
	if ev != nil {
		for _, f := range ev.Features {
			if f.Max > f.Min {
				dim++
			}
		}
	}
	return 4 + int(3*math.Log(float64(max(dim, 1))))
}

// CMAESSigma is the step of CMA-ES generation g of a run whose generations
// draw pop candidates, as a fraction of each range: the root mean square,
// over the features of ev with a range, of the candidates' standard
// deviation (g.Std, over the pop candidates, corrected by pop/(pop-1))
// divided by the feature's range. It is the sigma of the distribution the
// candidates were drawn from, measured on the candidates played (snapped to
// the steps and clamped to the ranges): about cmaes-sigma in the first
// generation, shrinking as the search settles. 0 when nothing is recorded.
func CMAESSigma(ev *games.Evaluator, g Generation, pop int) float64 {
	sum, n := 0.0, 0
	for i, f := range ev.Features {
		if r := f.Max - f.Min; r > 0 && i < len(g.Std) {
			d := g.Std[i] / r
			sum += d * d
			n++
		}
	}
	if n == 0 || pop < 2 {
		return 0
	}
	return math.Sqrt(sum / float64(n) * float64(pop) / float64(pop-1))
}

// TexelLosses are the losses of a Texel round (its Generation, as texel
// records it), mean squared errors with the round's K: Train is the fit's
// on the training positions, Held the fit's on the held-out positions and
// HeldStart that of the weights the round began from; Accepted says
// whether the fit became the champion (else the round kept Champion, the
// genome it began from).
type TexelLosses struct {
	Train, Held, HeldStart float64
	Accepted               bool
	Champion               int
	// Gate is the fit's record in the round's gate against the weights
	// the round began from (texel_gate.go); empty for a round without one.
	Gate stats.WDL
}

// TexelLossesOf reads the losses of Texel round g. A refused fit's
// held-out loss is its genome's (the second); a round with no positions to
// judge has no fit, and its fit's held-out loss is its start's.
func TexelLossesOf(g Generation) TexelLosses {
	l := TexelLosses{Train: -g.MeanFitness, HeldStart: -g.WorstFitness, Champion: g.Best, Accepted: g.Best == g.Index+1}
	for _, x := range g.Genomes {
		if x.ID == g.Index+1 {
			l.Gate = x.WDL
		}
	}
	switch {
	case l.Accepted:
		l.Held = -g.BestFitness
	case len(g.Genomes) > 1 && g.Genomes[1].ID == g.Index+1:
		l.Held = -g.Genomes[1].Fitness
	default:
		l.Held = l.HeldStart
	}
	return l
}

// ExpectedGames is how many games a run of c tuning ev is expected to play
// in all, its yardstick's and its ladder's included, having played played
// games in seconds of running time: with budget-games, the budget (the
// games of the tuner's length when that ends the run first: BudgetNote);
// with budget-time alone, the games the pace so far plays in the budget,
// at most those of the tuner's length (0, unknown, before the first game);
// else the games of the tuner's length. Never fewer than played. It is an
// estimate: knockout's tie-breaks, an early convergence and the ladder's
// players (the champions with weights of their own) are not known in
// advance. A finished run's games are its games.
func (c Config) ExpectedGames(ev *games.Evaluator, played int, seconds float64) int {
	length := c.plannedGames(ev)
	length += c.ladderGames(length)
	expected := length
	switch budget, _ := c.TimeBudget(); {
	case c.BudgetGames > 0 && BudgetNote(c, ev) == "":
		expected = c.BudgetGames
	case c.BudgetGames > 0:
		expected = min(length, c.BudgetGames)
	case budget > 0 && (played == 0 || seconds <= 0):
		return played
	case budget > 0:
		expected = min(length, int(math.Ceil(float64(played)*budget.Seconds()/seconds)))
	}
	return max(expected, played)
}

// ladderGames is an estimate of the games of the ladder at the end of a
// run of c whose tuning played tuning games: every planned generation's
// champion (MaxLadderChampions at most) and the defaults, each pairing
// ladder-pairs pairs (0: AutoLadderPairs).
func (c Config) ladderGames(tuning int) int {
	gens := c.PlannedGenerations()
	if c.LadderPairs < 0 || gens < 2 {
		return 0
	}
	return c.LadderGames(gens, tuning)
}

// LadderGames are the games of a ladder of a run of c whose tuning spent
// tuning games and named champions distinct champions (MaxLadderChampions
// of them at most play): a round robin of them and the defaults, of
// ladder-pairs pairs (0: AutoLadderPairs) a pairing.
func (c Config) LadderGames(champions, tuning int) int {
	if c.LadderPairs < 0 || champions < 1 {
		return 0
	}
	players := min(champions, MaxLadderChampions) + 1
	pairs := c.LadderPairs
	if pairs == 0 {
		pairs = AutoLadderPairs(players, tuning)
	}
	return pairs * players * (players - 1)
}

// AfterTuning counts the games a run of c plays once its tuning (spent
// games, the yardstick's included) ends: its ladder's, and at most its
// verification's (its cap: the SPRT may stop it sooner), 0 with verify off.
// Verification games search deeper (VerifyLimits), except in a run that
// tunes an external engine's options.
func (c Config) AfterTuning(spent int) (ladder, verify int) {
	ladder = c.ladderGames(spent)
	if c.Verify == VerifyOff {
		return ladder, 0
	}
	pairs := c.VerifyPairs
	if pairs == 0 {
		pairs = AutoVerifyPairs(spent + ladder)
	}
	return ladder, 2 * pairs
}

// VerifyLimits are the verification's search of a run of c: depth + 2 and
// 4x the nodes, each limit the run set.
func (c Config) VerifyLimits() engine.Limits { return c.deeper() }

// PlannedTuningGames are the games c's tuner plays over its planned length,
// the yardstick's included (not the ladder's or the verification's).
func (c Config) PlannedTuningGames(ev *games.Evaluator) int { return c.plannedGames(ev) }
