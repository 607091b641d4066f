package population

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestSPSAStepsAt: the schedule read back from a config is fishtest's,
// computed here by hand (c_end = spsa-c-end times tic-tac-toe's ranges of
// 10, A = spsa-a-ratio * N), for every parameter, with the recorded start
// weights as their starts; k is clamped to the iterations.
func TestSPSAStepsAt(t *testing.T) {
	cfg := smallSPSA()
	cfg.StartWeights = map[string]float64{"open-mine": 1.5, "open-theirs": -1, "threats-mine": 2, "threats-theirs": -2}
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	n, big := float64(cfg.SPSAIterations), cfg.SPSAARatio*float64(cfg.SPSAIterations)
	cEnd := cfg.SPSACEnd * 10
	for _, k := range []int{1, 4, 10} {
		steps, err := SPSAStepsAt(cfg, tu.ev, k)
		if err != nil || len(steps) != 4 {
			t.Fatalf("k=%d: %d steps, %v", k, len(steps), err)
		}
		ck := cEnd * math.Pow(n/float64(k), cfg.SPSAGamma)
		ak := cfg.SPSAREnd * cEnd * cEnd * math.Pow((big+n)/(big+float64(k)), cfg.SPSAAlpha)
		for _, s := range steps {
			if math.Abs(s.C-ck) > 1e-12 || math.Abs(s.A-ak) > 1e-12 || math.Abs(s.Move()-ak/ck) > 1e-12 {
				t.Errorf("k=%d %s: c_k %g a_k %g move %g, want %g %g %g", k, s.Name, s.C, s.A, s.Move(), ck, ak, ak/ck)
			}
		}
		if steps[0].Name != "open-mine" || steps[0].Start != 1.5 {
			t.Errorf("the first parameter is %s from %g, want open-mine from the recorded 1.5", steps[0].Name, steps[0].Start)
		}
	}
	last, _ := SPSAStepsAt(cfg, tu.ev, 10)
	beyond, _ := SPSAStepsAt(cfg, tu.ev, 99)
	if last[0] != beyond[0] || math.Abs(last[0].C-cEnd) > 1e-12 {
		t.Errorf("c_N is %g, want c_end %g, and k beyond N clamped to N", last[0].C, cEnd)
	}
	if got := cfg.SPSAIterationsDone(2); got != 10 {
		t.Errorf("3 blocks of 4 of 10 iterations played %d, want 10", got)
	}
	cfg.SPSAParamList = []string{"no-such-feature, int, 1, 0, 2, 1, 0.002"}
	if _, err := SPSAStepsAt(cfg, tu.ev, 1); err == nil || !strings.Contains(err.Error(), "no-such-feature") {
		t.Errorf("a parameter the evaluator lacks: %v", err)
	}
}

// TestCMAESSigma: the sigma read back from a CMA-ES run's generations is
// the spread the candidates were drawn with: about cmaes-sigma in the
// first generation, for two values of it.
func TestCMAESSigma(t *testing.T) {
	for _, sigma := range []float64{0.05, 0.1} {
		cfg := smallTexel()
		cfg.Algo = CMAES
		cfg.CMAESGenerations, cfg.CMAESPopulation, cfg.CMAESPairs, cfg.CMAESSigma = 1, 40, 1, sigma
		store := NewMemoryStore()
		tu := newTestTuner(t, cfg, 2, store, nil, nil)
		if _, err := tu.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := CMAESSigma(tu.ev, store.Generations[0], cfg.CMAESCandidates(tu.ev))
		if math.Abs(got-sigma) > 0.15*sigma {
			t.Errorf("cmaes-sigma %g: the first generation's sigma reads %.4f", sigma, got)
		}
	}
	if got := (Config{}).CMAESCandidates(nil); got != 4 {
		t.Errorf("gonum's default population for no feature: %d, want 4", got)
	}
}

// TestExpectedGames: a run without budget is expected to play the games
// of its length, exactly those it plays (no yardstick, no ladder); a games
// budget is the games expected; a time budget scales the pace so far.
func TestExpectedGames(t *testing.T) {
	spsa := smallSPSA()
	cmaes := smallTexel()
	cmaes.Algo = CMAES
	for _, cfg := range []Config{spsa, cmaes, smallTexel()} {
		cfg.YardstickPairs, cfg.LadderPairs = 0, -1
		store := NewMemoryStore()
		tu := newTestTuner(t, cfg, 2, store, nil, nil)
		if _, err := tu.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := cfg.ExpectedGames(tu.ev, 0, 0); got != store.Played {
			t.Errorf("%s: %d games expected, %d played", cfg.Algo, got, store.Played)
		}
		if got := cfg.ExpectedGames(tu.ev, store.Played+5, 1); got != store.Played+5 {
			t.Errorf("%s: %d games expected after %d played", cfg.Algo, got, store.Played+5)
		}
	}
	cfg := smallSPSA()
	ev := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil).ev
	cfg.SPSAIterations, cfg.BudgetGames = MaxSPSAIterations, 500
	if got := cfg.ExpectedGames(ev, 120, 10); got != 500 {
		t.Errorf("a games budget of 500: %d expected", got)
	}
	cfg.BudgetGames, cfg.BudgetTime = 0, "1h"
	if got := cfg.ExpectedGames(ev, 100, 600); got != 600 {
		t.Errorf("100 games in 10 minutes of an hour's budget: %d expected, want 600", got)
	}
	if got := cfg.ExpectedGames(ev, 0, 0); got != 0 {
		t.Errorf("a time budget before the first game: %d expected, want 0 (unknown)", got)
	}
}
