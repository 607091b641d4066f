package population

import (
	"context"
	"reflect"
	"testing"

	"github.com/gametune/gametune/tournament/stats"
)

// TestTexelGate: each round's fit plays its gate against the weights the
// round started from; the round takes the fit only when it scored more
// than half, and the fit's record is the gate's games as the store holds
// them. Checkers at depth 2 from weights that count little material, where
// some fits win their gate and some lose it (60 games a round: with 40,
// whose tenth held out is 4 games, no fit of this seed passed the held-out
// rule to be kept). A run interrupted and resumed ends the same.
func TestTexelGate(t *testing.T) {
	cfg := smallTexel()
	cfg.Game, cfg.Depth, cfg.MaxPlies, cfg.LadderPairs, cfg.YardstickPairs = "checkers", 2, 160, -1, 0
	cfg.TexelRounds, cfg.TexelGames, cfg.TexelOpeningPlies, cfg.TexelGatePairs = 5, 60, 6, 6
	g := mustFind(t, "checkers")
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		t.Fatal(err)
	}
	// Men worth nothing and kings little: fits from there win their
	// gates, until they near what the games can tell.
	start := ev.Defaults()
	start[0], start[1] = 0.05, 0.1
	start = space{ev.Features}.snapAll(start)
	store := NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 2, store, start, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	took, refused := 0, 0
	for _, gen := range store.Generations {
		var fit *Genome
		for i := range gen.Genomes {
			if gen.Genomes[i].ID == gen.Index+1 {
				fit = &gen.Genomes[i]
			}
		}
		if fit == nil {
			t.Fatalf("round %d records no fit", gen.Index)
		}
		var want stats.WDL
		for i := range 2 * cfg.TexelGatePairs {
			r, ok, err := store.Game(GameKey{StageTexelGate, gen.Index, i})
			if err != nil || !ok {
				t.Fatalf("round %d: gate game %d not in the store (%v)", gen.Index, i, err)
			}
			want.Add(pairScore(r.Record, i))
		}
		if fit.WDL != want {
			t.Errorf("round %d: the fit's record %+v, its gate games %+v", gen.Index, fit.WDL, want)
		}
		if l := TexelLossesOf(gen); l.Gate != want {
			t.Errorf("round %d: TexelLossesOf's gate %+v, want %+v", gen.Index, l.Gate, want)
		}
		switch {
		case gen.Best == fit.ID:
			took++
			if want.Score() <= 0.5 {
				t.Errorf("round %d took a fit that scored %.3f in its gate", gen.Index, want.Score())
			}
		case want.Score() <= 0.5:
			refused++
		}
	}
	if took == 0 || refused == 0 {
		t.Errorf("%d rounds took their fit, %d refused one on its gate: want some of each, so that both ways are checked", took, refused)
	}
	resumed, _ := interruptAndResume(t, cfg, start, store.Games()/2)
	if !reflect.DeepEqual(resumed.Generations, store.Generations) {
		t.Errorf("the run interrupted and resumed differs from the uninterrupted one")
	}
}

// TestTexelGateRecorded: a recorded Texel config without
// texel-gate-pairs (a run made before gates) resumes without them; a new
// config has the automatic gate, a twentieth of the round's games.
func TestTexelGateRecorded(t *testing.T) {
	c, err := ParseConfig([]byte("game: tictactoe\nalgo: texel\ntexel-games: 500\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.TexelGatePairs != 0 || c.generationGames(nil) != 500 {
		t.Errorf("old run: texel-gate-pairs %d, %d games a round; want 0 and 500", c.TexelGatePairs, c.generationGames(nil))
	}
	d := Defaults()
	d.Algo, d.TexelGames = Texel, 500
	if d.texelGatePairs() != 13 || d.generationGames(nil) != 526 {
		t.Errorf("default: %d gate pairs, %d games a round; want 13 and 526", d.texelGatePairs(), d.generationGames(nil))
	}
	d.TexelGatePairs = -2
	if err := d.TexelConfig.validate(0); err == nil {
		t.Errorf("texel-gate-pairs -2 accepted")
	}
}

// TestTexelSpendsTheLaddersShare: a budgeted Texel run whose fits are all
// refused (tic-tac-toe from its defaults, where every game is drawn) has no
// ladder to play; its last round plays the ladder's share of the budget
// instead, so that the run spends its budget (it spent 1,780 of 2,000).
func TestTexelSpendsTheLaddersShare(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Algo, cfg.Depth, cfg.BudgetGames = "tictactoe", Texel, 2, 2000
	cfg = SizeToBudget(cfg, func(string) bool { return false })
	g := mustFind(t, "tictactoe")
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		t.Fatal(err)
	}
	store := NewMemoryStore()
	res, err := newTestTuner(t, cfg, 2, store, ev.Defaults(), nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Ladder != nil || res.Best.ID != 0 {
		t.Fatalf("a fit was taken (best %d) or a ladder played: the test needs a run without", res.Best.ID)
	}
	if games := store.Games(); games < 1900 || games > 2100 {
		t.Errorf("%d games for a budget of 2000", games)
	}
}
