package population

import (
	"fmt"
	"math"

	"github.com/gametune/gametune/games"
)

// lengthKeys are the keys that say how long each tuner runs.
var lengthKeys = map[Algo]string{Genetic: "generations", Knockout: "rounds", SPSA: "spsa-iterations",
	CMAES: "cmaes-generations", Texel: "texel-rounds", Bayes: "bayes-rounds"}

// longest is the most of each tuner's length Validate allows: what a budget
// the games of which cannot be counted in advance (a time budget, or a
// tuner whose steps do not depend on its length) gives it.
var longest = map[Algo]int{Genetic: MaxGenerations, Knockout: MaxRounds, SPSA: MaxSPSAIterations,
	CMAES: MaxGenerations, Texel: MaxTexelRounds, Bayes: MaxBayesRounds}

// TexelBudgetRounds is the number of rounds a games budget is split into
// when neither texel-rounds nor texel-games is given: each round's fit is
// over every game so far, so a few large rounds fit less often than many
// small ones.
const TexelBudgetRounds = 4

// LengthKey is the key of the length of c's tuner: generations (genetic),
// rounds (knockout), spsa-iterations, cmaes-generations, texel-rounds or
// bayes-rounds;
// "" for an unknown algo.
func (c Config) LengthKey() string { return lengthKeys[c.Algo] }

// length is the value of c's LengthKey.
func (c *Config) length() *int {
	p, _ := c.Field(c.LengthKey()).(*int)
	return p
}

// SizeToBudget returns c with its tuner's length derived from its budgets,
// unless explicit reports its LengthKey given (in a config file or by a
// flag; a preset's length is not); without a budget, c as it is. It is the
// one rule of tune run and tune compare (CompareConfig), applied once, when
// a run is created: the run records the length it derived, so a resumed
// run needs no rule of its own.
//
// With budget-games, SPSA's iterations are the fewest whose games, with
// the least the yardstick plays (against the defaults and the opponents), reach
// TuningBudget, so that the budget ends the run near the end of its
// schedule (spsa-block at most the iterations); Texel plays
// TexelBudgetRounds rounds (more when a round would exceed MaxTexelGames)
// of the fewest texel-games that reach it, or, with texel-games given, the
// fewest rounds. The genetic, knockout and CMA-ES tuners, whose steps do
// not depend on their length, get the most generations or rounds Validate
// allows, and the budget ends them (knockout's settled winners do not: see
// knockout); so does Bayes, whose rounds grow (bayes-pairs, unless given)
// when MaxBayesRounds rounds of bayes-pairs would not reach the budget.
// With budget-time alone, every tuner gets the most Validate allows.
func SizeToBudget(c Config, explicit func(key string) bool) Config {
	n := c.length()
	if n == nil || c.BudgetGames <= 0 && c.BudgetTime == "" || explicit(c.LengthKey()) {
		return c
	}
	*n = longest[c.Algo]
	if c.BudgetGames <= 0 {
		return c
	}
	target := c.TuningBudget()
	switch c.Algo {
	case SPSA:
		block := max(c.SPSABlock, 1)
		c.SPSAIterations = fewest(MaxSPSAIterations, target, func(n int) int {
			return c.spsaIterationGames()*n + 2*c.YardstickPairs*(1+len(c.Opponents))*c.yardstickMeasures(nil, (n+block-1)/block)
		})
		c.SPSABlock = min(c.SPSABlock, c.SPSAIterations)
	case Bayes:
		// The rounds are bounded (a round's fit costs O(n³)): a budget
		// they cannot spend gets larger rounds, unless bayes-pairs is given.
		if len(c.Opponents) == 0 && !explicit("bayes-pairs") && c.plannedGames(nil) < target {
			c.BayesPairs = fewest(MaxBestOf, target, func(p int) int {
				x := c
				x.BayesPairs = p // the yardstick's auto spacing depends on it
				return x.plannedGames(nil)
			})
		}
	case Texel:
		if explicit("texel-games") {
			c.TexelRounds = fewest(MaxTexelRounds, target, func(r int) int { return r*c.generationGames(nil) + c.yardstickGames(nil, r) })
			break
		}
		c.TexelRounds = min(max(TexelBudgetRounds, (target+MaxTexelGames-1)/MaxTexelGames), MaxTexelRounds)
		c.TexelGames = fewest(MaxTexelGames, target, func(g int) int {
			x := c
			x.TexelGames = g // the yardstick's auto spacing depends on it
			return x.TexelRounds*x.generationGames(nil) + x.yardstickGames(nil, x.TexelRounds)
		})
	}
	return c
}

// fewest is the least n in [1, most] with cost(n) >= target, cost growing
// with n; most when there is none.
func fewest(most, target int, cost func(n int) int) int {
	lo, hi := 1, most
	for lo < hi {
		mid := lo + (hi-lo)/2
		if cost(mid) >= target {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// TuningBudget is the games of budget-games the tuning's generations and
// their yardstick may spend: the budget less what it keeps for the ladder
// at the end (LadderShare of it when ladder-pairs is 0; with ladder-pairs
// given, that ladder's games when it rates MaxLadderChampions champions,
// the start and the defaults; nothing with ladder-pairs -1). 0 without a
// games budget. A run's last generation is the first to reach it.
func (c Config) TuningBudget() int {
	if c.BudgetGames <= 0 {
		return 0
	}
	reserve := 0
	switch players := MaxLadderChampions + 2; {
	case c.LadderPairs == 0:
		reserve = int(math.Round(LadderShare * float64(c.BudgetGames)))
	case c.LadderPairs > 0:
		reserve = c.LadderPairs * players * (players - 1)
	}
	return max(c.BudgetGames-reserve, 1)
}

// YardstickPerMille is the share of the tuning's games, in thousandths,
// that the yardstick's auto schedule (yardstick-every 0) spends: 50, a
// twentieth. With the measure the last generation always adds, a run of
// a few spacings or more spends under a tenth of its games on the
// yardstick.
const YardstickPerMille = 50

// yardstickEvery is the generations between two measures of the
// yardstick: yardstick-every when given; with 0 (auto), the fewest
// generations whose games (generationGames) are at least 1000 /
// YardstickPerMille times those of a full measure, 4 * yardstick-pairs
// games (against the defaults and against the champion measured before),
// and 2 * yardstick-pairs more against each opponent.
// ev is the evaluator tuned; nil will do but for CMA-ES, whose default
// population depends on it.
func (c Config) yardstickEvery(ev *games.Evaluator) int {
	if c.YardstickEvery > 0 {
		return c.YardstickEvery
	}
	per := c.generationGames(ev)
	if per <= 0 {
		return 1
	}
	measure := 1000 * 2 * c.YardstickPairs * (2 + len(c.Opponents))
	return max((measure+YardstickPerMille*per-1)/(YardstickPerMille*per), 1)
}

// yardstickGames is the games the yardstick plays over a run's first gens
// generations, when the run ends there: yardstick-pairs pairs against the
// defaults at each measure (every yardstickEvery generations, and the
// last), and as many against the champion measured before from the second
// on (an estimate: none when the champion kept its weights, and with the
// auto schedule no measure either but at the last), and as many against
// each opponent at each measure. ev is as for
// yardstickEvery.
func (c Config) yardstickGames(ev *games.Evaluator, gens int) int {
	measures := c.yardstickMeasures(ev, gens)
	if c.YardstickPairs <= 0 || measures == 0 {
		return 0
	}
	return 2*c.YardstickPairs + 4*c.YardstickPairs*(measures-1) + 2*c.YardstickPairs*len(c.Opponents)*measures
}

// yardstickMeasures is how often the yardstick is measured over a run's
// first gens generations, when the run ends there (at most: the auto
// schedule skips a champion measured already). ev is as for
// yardstickEvery.
func (c Config) yardstickMeasures(ev *games.Evaluator, gens int) int {
	every := c.yardstickEvery(ev)
	return (gens + every - 1) / every
}

// generationGames is an estimate of the games one generation (round,
// block of iterations) of c's tuner plays, its yardstick's aside (ties of
// knockout matches aside too); ev is the evaluator tuned (CMA-ES's
// default population depends on it; nil counts no tuned feature).
func (c Config) generationGames(ev *games.Evaluator) int {
	switch c.Algo {
	case Genetic:
		return c.Population * (2*c.Games + c.opponentGames())
	case Knockout:
		return (c.Candidates - 1) * c.BestOf
	case CMAES:
		return (2*c.CMAESPairs + c.opponentGames()) * c.CMAESCandidates(ev)
	case Texel:
		return c.TexelGames + 2*c.texelGatePairs()
	case SPSA:
		return c.spsaIterationGames() * max(c.SPSABlock, 1)
	case Bayes:
		return c.bayesRoundGames()
	}
	return 0
}

// plannedGames is an estimate of the games c's tuner plays over its whole
// length, its yardstick's included (ties of knockout matches aside); ev
// is the evaluator tuned (CMA-ES's default population depends on it).
func (c Config) plannedGames(ev *games.Evaluator) int {
	if c.Algo == SPSA {
		return c.spsaIterationGames()*c.SPSAIterations + c.yardstickGames(ev, c.PlannedGenerations())
	}
	n := *c.length()
	return n*c.generationGames(ev) + c.yardstickGames(ev, n)
}

// BudgetNote says so when the length of c's tuner (LengthKey), given
// explicitly, ends the run before its budget: with budget-games, when the
// games of its length (an estimate, the yardstick's included) fall short
// of TuningBudget; with budget-time alone, when the length is not the most
// Validate allows (how long its games take is not known in advance). ev is
// the evaluator tuned. "" when the budget ends the run, or there is none.
func BudgetNote(c Config, ev *games.Evaluator) string {
	n := c.length()
	if n == nil {
		return ""
	}
	key := c.LengthKey()
	if c.BudgetGames > 0 {
		if planned := c.plannedGames(ev); planned < c.TuningBudget() {
			return fmt.Sprintf("%s %d ends the run after about %d games, before its budget of %d games (leave %s out to spend the budget)",
				key, *n, planned, c.BudgetGames, key)
		}
		return ""
	}
	if c.BudgetTime != "" && *n < longest[c.Algo] {
		return fmt.Sprintf("%s %d may end the run before its budget of %s (leave %s out to run until the budget)", key, *n, c.BudgetTime, key)
	}
	return ""
}

// ladderPairs is the pairs per pairing of the ladder of a run that ended
// now, for the reason stop, among players players: ladder-pairs when
// given; with budget-games, once the tuning has spent its share
// (TuningBudget), or ended by a length sized to reach it (no BudgetNote)
// whose games came out fewer, as many as what remains of the budget pays
// for (at least 1), so that the run spends its budget; else 0, about
// LadderShare of the games spent (AutoLadderPairs).
func (t *Tuner) ladderPairs(players int, stop string) int {
	c := t.cfg
	if c.LadderPairs != 0 || c.BudgetGames <= 0 {
		return c.LadderPairs
	}
	if t.spent < c.TuningBudget() && (stop != StopGenerations || BudgetNote(c, t.ev) != "") {
		return 0
	}
	pairGames := players * (players - 1) // two games per pairing
	return min(max(int(math.Round(float64(c.BudgetGames-t.spent)/float64(pairGames))), 1), MaxLadderPairs)
}
