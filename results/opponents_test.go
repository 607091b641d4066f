package results

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
)

// opponentRun records a small genetic tuning of tic-tac-toe against two
// built-in opponents in a new run directory, and returns it open with
// the same run in memory.
func opponentRun(t *testing.T) (*Run, *population.MemoryStore, population.Config) {
	t.Helper()
	cfg := population.Defaults()
	cfg.Game, cfg.Depth, cfg.Openings = "tictactoe", 2, ""
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs, cfg.YardstickEvery = 4, 2, 1, 2, 1
	cfg.Opponents = population.Specs{"default,depth=1", "default:lines,depth=3"}
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find(cfg.Game)
	mem := population.NewMemoryStore()
	for _, store := range []population.Recorder{r, mem} {
		pool, _ := tournament.NewPool(2, 1)
		tu, err := population.NewTuner(cfg, g, nil, nil, pool, store)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tu.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		pool.Close()
	}
	return r, mem, cfg
}

// TestOpponentsStored: the yardstick's games against each opponent are
// stored and read back as recorded, and named in the run's JSON; a
// database of schema 2 (before opponents) reads without them and is
// migrated when opened for writing.
func TestOpponentsStored(t *testing.T) {
	r, mem, _ := opponentRun(t)
	defer r.Close()
	got, err := r.Generations()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, mem.Generations) {
		t.Fatalf("generations read back differ:\n%+v\nwant\n%+v", got, mem.Generations)
	}
	y := got[len(got)-1].Yardstick
	if y == nil || len(y.VsOpponents) != 2 || y.VsOpponents[0].Games() != 4 || y.VsOpponents[1].Games() != 4 {
		t.Fatalf("last yardstick %+v, want 2 pairs against each of 2 opponents", y)
	}
	v, err := ReadView(r)
	if err != nil {
		t.Fatal(err)
	}
	j := v.JSON()
	if len(j.Opponents) != 2 || j.Opponents[1] != (OpponentSpecJSON{"o2 default:lines,depth=3", "default:lines,depth=3"}) {
		t.Fatalf("opponents %+v", j.Opponents)
	}
	last := j.Yardstick[len(j.Yardstick)-1].Opponents
	if len(last) != 2 || last[0].Name != "o1 default,depth=1" || last[0].WDL != y.VsOpponents[0] || last[0].Score != y.VsOpponents[0].Score() {
		t.Fatalf("the yardstick's JSON against the opponents: %+v, want %+v", last, y.VsOpponents)
	}

	// Back to schema 2, as a run recorded before opponents.
	for _, stmt := range []string{"DROP TABLE yardstick_opponents", "DROP TABLE verification", "PRAGMA user_version = 2"} {
		if _, err := r.db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	r.Close()
	old, err := OpenReadOnly(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	hist, err := old.Generations()
	old.Close()
	if err != nil || len(hist) != 2 || hist[1].Yardstick == nil || hist[1].Yardstick.VsOpponents != nil {
		t.Fatalf("schema 2 read: %v, %+v", err, hist)
	}
	w, err := Open(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.version != SchemaVersion || SchemaVersion != 3 {
		t.Fatalf("opened for writing at schema %d, want %d", w.version, SchemaVersion)
	}
	if err := w.RecordGeneration(mem.Generations[1]); err != nil {
		t.Fatalf("recording after the migration: %v", err)
	}
}
