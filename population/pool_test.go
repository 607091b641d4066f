package population

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// poolConfig is an SPSA run of Othello on random:8 openings, ten
// generations of 32 pairs at depth 1, with a yardstick every generation
// and a ladder.
func poolConfig() Config {
	c := Defaults()
	c.Game, c.Evaluator, c.Algo, c.Depth, c.Openings, c.Seed = "othello", "full", SPSA, 1, "random:8", 5
	c.TrainingPool = GrowingPool // as Resolve records it for a new run
	c.SPSAIterations, c.SPSABlock, c.YardstickPairs, c.YardstickEvery, c.LadderPairs = 320, 32, 2, 1, 1
	return c
}

// poolTuner makes poolConfig's tuner as Resolve does: its openings are
// RandomOpenings' draw from the run seed.
func poolTuner(t *testing.T, cfg Config, workers int, store Recorder) *Tuner {
	t.Helper()
	g, _ := all.Find(cfg.Game)
	openings, err := tournament.RandomOpenings(context.Background(), g, cfg.Openings, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return newTestTuner(t, cfg, workers, store, nil, openings)
}

// openingsByKey returns every recorded game's opening by its key.
func openingsByKey(s *MemoryStore) map[GameKey]string {
	out := map[GameKey]string{}
	for k, r := range s.games {
		out[k] = r.Record.Opening
	}
	return out
}

// TestTrainingPoolGrows (issue 26): a run on random:8 openings trains on a
// pool that grows with the run: ten SPSA generations of 32 pairs open
// from more than 64 distinct openings (counted from the recorded games),
// the first PoolDoubling generations from at most 64, and no training
// game opens as a yardstick or a ladder game, nor from any opening the
// yardstick or the ladder may draw. The openings of each game are the same
// with 1 and 2 workers, and when the run is interrupted after its pool
// grew and resumed.
func TestTrainingPoolGrows(t *testing.T) {
	cfg := poolConfig()
	want := NewMemoryStore()
	tu := poolTuner(t, cfg, 2, want)
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	training, early := map[string]bool{}, map[string]bool{}
	reserved := map[string]string{}
	for _, op := range tu.openings {
		reserved[op] = "a yardstick opening"
	}
	ladder, err := tu.ladderOpenings(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ladder {
		reserved[op] = "a ladder opening"
	}
	for k, op := range openingsByKey(want) {
		switch k.Stage {
		case StageYardstick:
			reserved[op] = "played by the yardstick"
		case StageLadder:
			reserved[op] = "played by the ladder"
		case StageVerify:
			reserved[op] = "played by the verification"
		case StageSPSA:
			training[op] = true
			if k.Generation < PoolDoubling {
				early[op] = true
			}
		default:
			t.Fatalf("game %s: unexpected stage", k)
		}
	}
	t.Logf("%d distinct training openings (%d in the first %d generations), %d yardstick and ladder openings",
		len(training), len(early), PoolDoubling, len(reserved))
	if len(training) <= tournament.RandomOpeningCount || len(early) > tournament.RandomOpeningCount {
		t.Errorf("%d distinct training openings (%d in the first %d generations), want more than %d (at most %d)",
			len(training), len(early), PoolDoubling, tournament.RandomOpeningCount, tournament.RandomOpeningCount)
	}
	for op := range training {
		if why, ok := reserved[op]; ok {
			t.Fatalf("training opening %q is %s", op, why)
		}
	}

	one := NewMemoryStore()
	if _, err := poolTuner(t, cfg, 1, one).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(openingsByKey(one), openingsByKey(want)) {
		t.Error("the games' openings differ between 1 and 2 workers")
	}

	stop := want.Generations[PoolDoubling].Spent + 20 // within generation 6 (5 from 0), on a pool of 128
	ctx, cancel := context.WithCancel(context.Background())
	store := &stopAfter{MemoryStore: NewMemoryStore(), n: stop, cancel: cancel}
	_, err = poolTuner(t, cfg, 2, store).Run(ctx)
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	store.n = -1
	if _, err := poolTuner(t, cfg, 1, store).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(openingsByKey(store.MemoryStore), openingsByKey(want)) || !reflect.DeepEqual(store.Generations, want.Generations) {
		t.Error("the resumed run's openings or generations differ from the uninterrupted run's")
	}
}

// TestPoolBatches: the training pool holds one batch of the stream for
// the first PoolDoubling generations, then doubles every PoolDoubling
// generations up to MaxTrainingOpenings/64 batches, for any generation.
func TestPoolBatches(t *testing.T) {
	for gen, want := range map[int]int{-1: 1, 0: 1, 3: 1, 4: 2, 7: 2, 8: 4, 12: 8, 20: 32, 24: 64, 25: 64, 200: 64, 1 << 40: 64} {
		if got := poolBatches(gen); got != want {
			t.Errorf("generation %d: %d batches, want %d", gen, got, want)
		}
	}
}

// TestSmallGamePool: tic-tac-toe has few positions a few plies deep.
// random:3 trains on the 48 openings the yardstick (64) and the ladder (36)
// leave, none of theirs; random:2's 36 balanced openings are all the
// yardstick's, so its training games open from those, as runs did before
// pools grew; random:0 trains from the start. A game needs no more
// batches than its generation's pool.
func TestSmallGamePool(t *testing.T) {
	ctx := context.Background()
	for spec, want := range map[string]int{"random:0": 1, "random:2": 36, "random:3": 48} {
		cfg := smallSPSA()
		cfg.Openings, cfg.TrainingPool = spec, GrowingPool
		tu := poolTuner(t, cfg, 1, NewMemoryStore())
		if err := tu.growPool(ctx, 2*PoolDoubling); err != nil {
			t.Fatal(err)
		}
		if len(tu.pool.sizes) != 5 {
			t.Errorf("%s: %d batches drawn for generation %d, want 4", spec, len(tu.pool.sizes)-1, 2*PoolDoubling)
		}
		if err := tu.growPool(ctx, 1000); err != nil {
			t.Fatal(err)
		}
		pool := tu.trainingOpenings(1000)
		if len(pool) != want {
			t.Errorf("%s: a pool of %d openings, want %d", spec, len(pool), want)
		}
		if spec != "random:3" {
			if !reflect.DeepEqual(pool, tu.openings) {
				t.Errorf("%s: the pool is not the run's openings", spec)
			}
			continue
		}
		for _, op := range pool {
			if tu.pool.reserved[op] {
				t.Errorf("%s: training opening %q is a yardstick or ladder opening", spec, op)
			}
		}
		if got := tu.opening(StageSPSA, 1000, 3); !slices.Contains(pool, got) {
			t.Errorf("%s: opening %q of a training pair is not in the pool", spec, got)
		}
		if got := tu.opening(StageYardstick, 1000, 3); !slices.Contains(tu.openings, got) {
			t.Errorf("%s: opening %q of a yardstick pair is not the run's", spec, got)
		}
	}
}

// TestTrainingPoolRecorded: a new run on random openings records that it
// trains on a growing pool; a config recorded before pools grew reads as
// a fixed one, so that such a run resumes on its own openings.
func TestTrainingPoolRecorded(t *testing.T) {
	cfg := Defaults()
	cfg.Game, cfg.Openings = "tictactoe", "random:2"
	plan, err := Resolve(context.Background(), cfg, testSources{})
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Config().TrainingPool; got != GrowingPool {
		t.Errorf("a new run's training pool %q, want %q", got, GrowingPool)
	}
	old, err := ParseConfig([]byte("game: tictactoe\nopenings: random:2\n"))
	if err != nil || old.TrainingPool != FixedPool {
		t.Errorf("a config recorded before pools grew: %q, %v", old.TrainingPool, err)
	}
	if tu := poolTuner(t, old, 1, NewMemoryStore()); tu.growing() {
		t.Error("a run recorded before pools grew trains on a growing pool")
	}
	recorded, err := ParseConfig([]byte("game: tictactoe\nopenings: random:2\ntraining-pool: growing\n"))
	if err != nil || recorded.TrainingPool != GrowingPool {
		t.Errorf("a recorded growing pool: %q, %v", recorded.TrainingPool, err)
	}
	// A recorded config copied as a user's keeps the key; only its two
	// values are valid.
	user := Defaults()
	user.Game = "tictactoe"
	if err := MergeConfig(&user, []byte("training-pool: fixed\n")); err != nil || user.TrainingPool != FixedPool || user.Validate() != nil {
		t.Errorf("training-pool in a user's config: %q, %v", user.TrainingPool, err)
	}
	user.TrainingPool = "shrinking"
	if err := user.Validate(); err == nil || !strings.Contains(err.Error(), "training-pool") {
		t.Errorf("training-pool shrinking: %v", err)
	}
}
