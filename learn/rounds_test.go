package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/tournament/stats"
)

func patternsConfig(t *testing.T, workers int, store string) Config {
	t.Helper()
	g := findGame(t, "othello")
	p := builtin(t, g, "patterns", 1)
	return Config{Game: g, Evaluator: p.Evaluator, Weights: p.Weights, Limits: engine.Limits{Depth: 1},
		Runner: newPool(t, workers), Budget: 40, Rounds: 2, Seed: 5, Store: store}
}

// TestLearnRounds: the rounds share the budget as documented (10 self-play
// games, then 20 with the gate's unused games; 5 pairs a gate), the store
// holds the Set, and nothing depends on the number of workers. A second
// run on the same store learns from its games too, and plays new ones.
func TestLearnRounds(t *testing.T) {
	dir := t.TempDir()
	var logged []Round
	var progress []string
	cfg := patternsConfig(t, 1, filepath.Join(dir, "one"))
	cfg.Log = func(r Round) { logged = append(logged, r) }
	cfg.Progress = func(p Progress) {
		if p.Elapsed < 0 {
			t.Errorf("progress %+v: negative time", p)
		}
		p.Elapsed = 0
		progress = append(progress, p.LogLine())
	}
	one, err := Learn(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Learn(context.Background(), patternsConfig(t, 2, filepath.Join(dir, "two")))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Set.Games, two.Set.Games) || !reflect.DeepEqual(strip(one.Rounds), strip(two.Rounds)) {
		t.Fatal("the rounds differ between 1 and 2 workers")
	}
	if !reflect.DeepEqual(logged, one.Rounds) || len(one.Rounds) != 2 {
		t.Fatalf("logged %d rounds, returned %d", len(logged), len(one.Rounds))
	}
	r0, r1 := one.Rounds[0], one.Rounds[1]
	t.Logf("rounds: %+v", one.Rounds)
	// Gates of at most 40*0.25/(2*2) = 2 pairs; round 0: (40-8)*1/3 = 10
	// games; round 1: all that is left.
	if r0.SelfPlay != 10 || r0.Games != 10 || r0.GatePairs < 1 || r0.GatePairs > 2 {
		t.Errorf("round 0: %+v", r0)
	}
	if r1.SelfPlay != 40-10-2*r0.GatePairs-4 || r1.Played > 40 || r1.Played != 10+r1.SelfPlay+2*(r0.GatePairs+r1.GatePairs) {
		t.Errorf("round 1: %+v", r1)
	}
	if r1.Games != 10+r1.SelfPlay || r1.Positions != one.Set.Positions() || r1.Positions < 40*r1.Games {
		t.Errorf("round 1 counts %d games, %d positions; the set has %d, %d", r1.Games, r1.Positions, len(one.Set.Games), one.Set.Positions())
	}
	// Progress: round 0's ten games one by one, round 1's at each tenth
	// (of 22 to 24 games: 2, 4, 6, ...), each fit as it begins and after each
	// epoch, each gate as it begins.
	var want []string
	positions := 0
	for _, r := range one.Rounds {
		last := 0
		for k := 1; k <= r.SelfPlay; k++ {
			if k*10/r.SelfPlay != last || k == r.SelfPlay {
				last = k * 10 / r.SelfPlay
				want = append(want, fmt.Sprintf("learn: round %d: self-play %d/%d games (0s)", r.Round, k, r.SelfPlay))
			}
		}
		positions = r.Positions
		want = append(want, fmt.Sprintf("learn: round %d: fitting %d positions (0s)", r.Round, positions))
		for e := 1; e <= 10; e++ { // FitOptions.Epochs 0: 10 epochs
			want = append(want, fmt.Sprintf("learn: round %d: fit epoch %d/10 done (0s)", r.Round, e))
		}
		want = append(want, fmt.Sprintf("learn: round %d: gate of at most 4 games (0s)", r.Round))
	}
	if !reflect.DeepEqual(progress, want) {
		t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(progress, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range one.Rounds {
		// Two pairs cannot decide: the gate goes on to its last pair and
		// keeps a round only when the interval is above 0, never here.
		if r.Accepted || r.GatePairs > 2 || r.HeldOut <= 0 || r.K <= 0 {
			t.Errorf("round %d: a gate of %d pairs gives %v, accepted %v (K %g, held-out loss %g)", r.Round, r.GatePairs, r.GateElo, r.Accepted, r.K, r.HeldOut)
		}
	}
	stored, err := ReadStore(filepath.Join(dir, "one"), one.Set.Game)
	if err != nil || !reflect.DeepEqual(stored.Games, one.Set.Games) {
		t.Fatalf("the store holds %d games, the set %d (%v)", len(stored.Games), len(one.Set.Games), err)
	}
	again, err := Learn(context.Background(), patternsConfig(t, 2, filepath.Join(dir, "one")))
	if err != nil {
		t.Fatal(err)
	}
	n := len(one.Set.Games)
	if !reflect.DeepEqual(again.Set.Games[:n], one.Set.Games) || len(again.Set.Games) != 2*n {
		t.Fatalf("the second run's set: %d games, want the %d stored and as many new", len(again.Set.Games), n)
	}
	if reflect.DeepEqual(again.Set.Games[n], one.Set.Games[0]) {
		t.Error("the second run played the first run's first game again")
	}
	if again.Rounds[0].Games != n+10 {
		t.Errorf("the second run's round 0 counts %d games, want %d", again.Rounds[0].Games, n+10)
	}
}

func strip(rs []Round) []Round {
	out := append([]Round(nil), rs...)
	for i := range out {
		out[i].Elapsed = 0
	}
	return out
}

// TestGate: Othello's full evaluator at depth 2 beats the patterns one
// with empty tables and no weights (it scores every position 0) and is
// accepted; the other way round it is rejected.
func TestGate(t *testing.T) {
	g := findGame(t, "othello")
	strong := builtin(t, g, "full", 2)
	weak := builtin(t, g, "patterns", 2)
	weak.Weights = make([]float64, len(weak.Weights))
	run := newPool(t, 2)
	m, err := PlayGate(context.Background(), run, g, strong, weak, Gate{}, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("full against nothing: %v, %d pairs, %s", m.Pentanomial.EloEstimate(), m.Pentanomial.Pairs(), m.Status)
	if !Accepted(m, 30) || m.Pentanomial.EloEstimate().Low <= 0 {
		t.Errorf("full against nothing: %v over %d pairs (%s), not accepted", m.Pentanomial.EloEstimate(), m.Pentanomial.Pairs(), m.Status)
	}
	m, err = PlayGate(context.Background(), run, g, weak, strong, Gate{}, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	if Accepted(m, 30) || m.Status == stats.AcceptH1 {
		t.Errorf("nothing against full: %v over %d pairs (%s), accepted", m.Pentanomial.EloEstimate(), m.Pentanomial.Pairs(), m.Status)
	}
}

func TestLearnRefusesBadConfigs(t *testing.T) {
	good := patternsConfig(t, 1, "")
	for name, tc := range map[string]struct {
		change func(*Config)
		want   string
	}{
		"small budget": {func(c *Config) { c.Budget = 6 }, "too small for 2 rounds"},
		"no tables": {func(c *Config) {
			c.Evaluator = builtin(t, c.Game, "full", 1).Evaluator
			c.Weights = c.Evaluator.Defaults()
		}, "no tables"},
		"weights":    {func(c *Config) { c.Weights = c.Weights[:3] }, "3 weights"},
		"gate share": {func(c *Config) { c.Gate.Share = 1 }, "share in [0, 1)"},
		"fit rate":   {func(c *Config) { c.Fit.Rate = math.NaN() }, "Rate is NaN"},
		"fit l2":     {func(c *Config) { c.Fit.L2 = math.Inf(1) }, "L2 is +Inf"},
		"fit tables": {func(c *Config) { c.Fit.Tables = []string{"row2", "row9"} }, `no table "row9" to fit`},
	} {
		cfg := good
		tc.change(&cfg)
		if _, err := Learn(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrConfig) {
			t.Errorf("%s: error %v, want one saying %q", name, err, tc.want)
		}
	}
}
