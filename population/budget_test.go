package population

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
)

// none reports no key given: every length is derived.
func none(string) bool { return false }

// TestSizeToBudget: without an explicit length, a budget sizes every
// tuner: SPSA's iterations and Texel's rounds to the fewest that reach the
// tuning's share of a games budget, the others to the most allowed; an
// explicit length, or no budget, leaves the config as it is.
func TestSizeToBudget(t *testing.T) {
	base := Defaults()
	base.Game, base.BudgetGames = "tictactoe", 20000
	if got := SizeToBudget(Defaults(), none); !reflect.DeepEqual(got, Defaults()) {
		t.Errorf("no budget: the config changed")
	}
	if got := SizeToBudget(base, func(k string) bool { return k == "generations" }); got.Generations != 10 {
		t.Errorf("explicit generations: %d, want 10", got.Generations)
	}
	if base.TuningBudget() != 18000 {
		t.Errorf("tuning budget %d, want 18000 (a tenth kept for the ladder)", base.TuningBudget())
	}
	for algo, want := range map[Algo]int{Genetic: MaxGenerations, Knockout: MaxRounds, CMAES: MaxGenerations} {
		c := base
		c.Algo = algo
		if got := SizeToBudget(c, none); *got.length() != want {
			t.Errorf("%s: %s %d, want %d", algo, c.LengthKey(), *got.length(), want)
		}
	}
	timed := base
	timed.BudgetGames, timed.BudgetTime, timed.Algo = 0, "8h", SPSA
	if got := SizeToBudget(timed, none); got.SPSAIterations != MaxSPSAIterations {
		t.Errorf("time budget: spsa-iterations %d, want %d", got.SPSAIterations, MaxSPSAIterations)
	}

	spsa := base
	spsa.Algo = SPSA
	s := SizeToBudget(spsa, none)
	cost := func(n int) int {
		return 2*n + 2*s.YardstickPairs*s.yardstickMeasures(nil, (n+s.SPSABlock-1)/s.SPSABlock)
	}
	if n := s.SPSAIterations; cost(n) < 18000 || cost(n-1) >= 18000 {
		t.Errorf("spsa-iterations %d: %d games, %d with one fewer; want the fewest reaching 18000", n, cost(n), cost(n-1))
	}
	if cmp := CompareConfig(spsa, SPSA); cmp.SPSAIterations < s.SPSAIterations {
		t.Errorf("compare: spsa-iterations %d, fewer than run's %d though it keeps nothing for a ladder", cmp.SPSAIterations, s.SPSAIterations)
	}

	texel := base
	texel.Algo = Texel
	x := SizeToBudget(texel, none)
	// A round is its self-play games and its gate: a twentieth of them in
	// pairs against the round's start, each pair two games.
	gate := 2 * ((x.TexelGames + 39) / 40)
	if games := x.TexelRounds*(x.TexelGames+gate) + x.yardstickGames(nil, x.TexelRounds); x.TexelRounds != TexelBudgetRounds || games < 18000 || games > 18000+3*x.TexelRounds {
		t.Errorf("texel: %d rounds of %d games and a gate of %d, %d in all; want %d rounds reaching 18000", x.TexelRounds, x.TexelGames, gate, games, TexelBudgetRounds)
	}
	x = SizeToBudget(texel, func(k string) bool { return k == "texel-games" })
	if round := 500 + 2*13; /* a gate of 13 pairs: 500/40 rounded up */ x.TexelGames != 500 || x.TexelRounds*round+x.yardstickGames(nil, x.TexelRounds) < 18000 || (x.TexelRounds-1)*round+x.yardstickGames(nil, x.TexelRounds-1) >= 18000 {
		t.Errorf("texel-games given: %d rounds of %d", x.TexelRounds, x.TexelGames)
	}
}

// TestBudgetNote: an explicit length that ends the run before its budget
// is noted; a derived one, one long enough, or no budget is not.
func TestBudgetNote(t *testing.T) {
	g, _ := all.Find("tictactoe")
	ev := g.Evaluators()[0]
	c := Defaults()
	c.Game, c.BudgetGames = "tictactoe", 20000
	// 10 generations of 128 games, and the yardstick measured every 7
	// (auto) and at the last: 20 games, then 40 with the previous champion.
	want := "generations 10 ends the run after about 1340 games, before its budget of 20000 games (leave generations out to spend the budget)"
	if got := BudgetNote(c, ev); got != want {
		t.Errorf("explicit generations:\n got %q\nwant %q", got, want)
	}
	for _, algo := range Algos {
		c.Algo = algo
		if got := BudgetNote(SizeToBudget(c, none), ev); got != "" {
			t.Errorf("%s, derived: %q", algo, got)
		}
	}
	c.Algo, c.Generations = Genetic, 1000
	if got := BudgetNote(c, ev); got != "" {
		t.Errorf("long enough: %q", got)
	}
	c.BudgetGames, c.BudgetTime = 0, "2h"
	if got := BudgetNote(c, ev); !strings.HasPrefix(got, "generations 1000 may end the run before its budget of 2h") {
		t.Errorf("time budget: %q", got)
	}
	c.BudgetTime = ""
	if got := BudgetNote(c, ev); got != "" {
		t.Errorf("no budget: %q", got)
	}
}

// TestBudgetRunSpendsAndResumes: a run sized by its games budget plays
// the budget, its ladder's games included, within 5%; interrupted and
// resumed, it ends with the generations and the ladder of the
// uninterrupted run. Knockout's budget is 2,000 games: its winners settle
// after about 250, and it plays on.
func TestBudgetRunSpendsAndResumes(t *testing.T) {
	for algo, budget := range map[Algo]int{SPSA: 400, Genetic: 400, Knockout: 2000, Bayes: 400} {
		cfg := smallTexel()
		cfg.Algo, cfg.Start, cfg.BudgetGames, cfg.LadderPairs = algo, StartRandom, budget, 0
		cfg = SizeToBudget(cfg, none)
		g, _ := all.Find(cfg.Game)
		if err := fillStart(&cfg, g); err != nil {
			t.Fatal(err)
		}
		ev, _ := cfg.TunedEvaluator(g)
		start, _ := startWeights(ev, cfg)
		want := NewMemoryStore()
		res, err := newTestTuner(t, cfg, 2, want, start, nil).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		total := want.Games()
		t.Logf("%s: %d games (%d in the ladder), stop %s", algo, total, total-want.Generations[len(want.Generations)-1].Spent, res.Stop)
		if total < budget*95/100 || total > budget*105/100 || want.Ladder == nil {
			t.Fatalf("%s: %d games for a budget of %d (ladder %v)", algo, total, budget, want.Ladder != nil)
		}
		for _, stop := range []int{total / 3, total - 5} {
			store, _ := interruptAndResume(t, cfg, start, stop)
			if store.Games() != total || !reflect.DeepEqual(store.Generations, want.Generations) || !reflect.DeepEqual(store.Ladder, want.Ladder) {
				t.Fatalf("%s stop %d: the resumed run differs from the uninterrupted one (%d games, want %d)", algo, stop, store.Games(), total)
			}
		}
	}
}

// TestKnockoutBudgetOutlastsSettling: with a games budget, a knockout run
// whose winners settle plays on to its budget: up to the settling it is
// the run without a budget (which stops there, converged), then its
// matches grow longer; without a budget, the same config stops converged.
// Interrupted after the settling, or near its end, and resumed, it ends
// with the rounds of the uninterrupted run.
func TestKnockoutBudgetOutlastsSettling(t *testing.T) {
	cfg := smallTexel()
	cfg.Algo, cfg.Rounds, cfg.Candidates, cfg.BestOf, cfg.Window, cfg.LadderPairs = Knockout, 200, 2, 5, 2, -1
	free := NewMemoryStore()
	res, err := newTestTuner(t, cfg, 2, free, nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	settled := res.Generations
	if res.Stop != StopConverged {
		t.Fatalf("without a budget: stop %q after %d rounds, want %q", res.Stop, settled, StopConverged)
	}
	cfg.BudgetGames = 400
	budgeted := NewMemoryStore()
	res, err = newTestTuner(t, SizeToBudget(cfg, none), 2, budgeted, nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopBudgetGames || res.Generations <= settled || res.Spent < cfg.TuningBudget() {
		t.Fatalf("with a budget: stop %q after %d rounds and %d games, want %q after more than %d rounds",
			res.Stop, res.Generations, res.Spent, StopBudgetGames, settled)
	}
	for i, g := range free.Generations[:settled-1] {
		if !reflect.DeepEqual(g.Matches, budgeted.Generations[i].Matches) || g.Best != budgeted.Generations[i].Best {
			t.Fatalf("round %d differs from the run without a budget before the winners settled", i)
		}
	}
	longest := 0
	for _, g := range budgeted.Generations {
		longest = max(longest, g.Matches[0].Games)
	}
	t.Logf("settled after %d rounds; with a budget %d rounds, %d games, the longest match %d games", settled, res.Generations, res.Spent, longest)
	if longest < 3*cfg.BestOf {
		t.Errorf("the longest match has %d games, want at least %d after the winners settled", longest, 3*cfg.BestOf)
	}
	for _, stop := range []int{budgeted.Generations[settled].Spent + 3, res.Spent - 5} {
		store, _ := interruptAndResume(t, SizeToBudget(cfg, none), nil, stop)
		if store.Games() != res.Spent || !reflect.DeepEqual(store.Generations, budgeted.Generations) {
			t.Fatalf("stop %d: the resumed run differs from the uninterrupted one (%d games, want %d)", stop, store.Games(), res.Spent)
		}
	}
}
