package population

import (
	"context"
	"slices"
	"testing"

	"github.com/gametune/gametune/tournament"
)

// gamesByStage counts the games a store holds, by stage.
func gamesByStage(store *MemoryStore) map[string]int {
	store.mu.Lock()
	defer store.mu.Unlock()
	n := map[string]int{}
	for k := range store.games {
		n[k.Stage]++
	}
	return n
}

// runResolved runs cfg as tune run does (Resolve, New, Run) on one
// worker, and returns its store.
func runResolved(t *testing.T, cfg Config) *MemoryStore {
	t.Helper()
	plan, err := Resolve(context.Background(), cfg, testSources{})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tournament.NewPool(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	store := NewMemoryStore()
	tuner, err := New(plan, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tuner.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store
}

// TestYardstickShare: a default SPSA run given only a budget of 2,000
// games (tic-tac-toe at depth 2 from a random start) spends at most a
// tenth of its games on the yardstick, and its budget within 5%.
func TestYardstickShare(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Depth, cfg.Start, cfg.Algo, cfg.BudgetGames = "tictactoe", 2, StartRandom, SPSA, 2000
	store := runResolved(t, SizeToBudget(cfg, none)) // no length given
	n := gamesByStage(store)
	all := 0
	for _, k := range n {
		all += k
	}
	t.Logf("%d games: %v", all, n)
	if share := float64(n[StageYardstick]) / float64(all); share > 0.1 {
		t.Errorf("the yardstick played %d of %d games (%.1f%%), more than a tenth", n[StageYardstick], all, 100*share)
	}
	if all < 1900 || all > 2100 {
		t.Errorf("%d games, not within 5%% of the budget of 2000", all)
	}
	last := store.Generations[len(store.Generations)-1]
	if last.Yardstick == nil {
		t.Errorf("the last generation (%d) has no yardstick", last.Index)
	}
}

// TestYardstickSchedule: an explicit yardstick-every measures every that
// many generations and the last, whatever the champion; the auto schedule
// spaces its measures by yardstickEvery, skips a champion whose weights
// were measured last, and measures the last generation.
func TestYardstickSchedule(t *testing.T) {
	measured := func(cfg Config) []int {
		store := NewMemoryStore()
		if _, err := newTestTuner(t, cfg, 1, store, nil, nil).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var gens []int
		for _, g := range store.Generations {
			if g.Yardstick != nil {
				gens = append(gens, g.Index)
			}
		}
		return gens
	}
	cfg := smallGenetic()
	cfg.Seed, cfg.Generations, cfg.YardstickEvery = 42, 7, 3
	if got := measured(cfg); !slices.Equal(got, []int{2, 5, 6}) {
		t.Errorf("yardstick-every 3 of 7 generations: measured at %v, want [2 5 6]", got)
	}
	cfg.YardstickEvery = 0
	if every := cfg.yardstickEvery(nil); every != 4 { // 8 games a measure, 48 a generation
		t.Fatalf("auto: every %d generations, want 4", every)
	}
	if got := measured(cfg); !slices.Equal(got, []int{3, 6}) {
		t.Errorf("auto, 7 generations: measured at %v, want [3 6]", got)
	}

	// A champion measured already is not measured again but at the last.
	tu := newTestTuner(t, cfg, 1, NewMemoryStore(), nil, nil)
	champ := Genome{ID: 5, Weights: []float64{1, 2, 3, 4}}
	if _, err := tu.yardstick(context.Background(), 3, champ); err != nil {
		t.Fatal(err)
	}
	same := Genome{ID: 9, Weights: champ.Weights}
	if tu.yardstickDue(&Generation{Index: 7}, same) {
		t.Error("auto: a champion with the weights measured last is measured again")
	}
	if !tu.yardstickDue(&Generation{Index: 7, Stop: StopGenerations}, same) {
		t.Error("auto: the last generation is not measured")
	}
	if !tu.yardstickDue(&Generation{Index: 7}, Genome{ID: 9, Weights: []float64{1, 2, 3, 5}}) {
		t.Error("auto: a new champion is not measured when due")
	}
	tu.cfg.YardstickEvery = 4
	if !tu.yardstickDue(&Generation{Index: 7}, same) {
		t.Error("yardstick-every 4: a champion measured already is not measured again when due")
	}
}
