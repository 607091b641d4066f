package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// TestTuneExternalEngine: a genetic run whose player is `tune engine
// chess`, a separate process whose feature weights are set through its UCI
// options (in protocol/uci's units), plays exactly the games and ends with
// exactly the best genome of the same run on the built-in player (same
// seed, fixed depth).
func TestTuneExternalEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tuning run twice, once through engine processes: skipped with -short")
	}
	bin := buildTune(t)
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator, cfg.Algo, cfg.Depth, cfg.Seed = "chess", "textbook", population.Genetic, 1, 5
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs, cfg.LadderPairs = 4, 2, 1, 0, -1
	cfg.Openings = ""
	cfg.MaxPlies = 60
	openings, err := tournament.RandomOpenings(context.Background(), g, "random:4", 3)
	if err != nil {
		t.Fatal(err)
	}
	run := func(tuner func(pool tournament.Runner, store population.Store) (*population.Tuner, error)) (*recordingRunner, population.Result) {
		pool, err := tournament.NewPool(1, 16)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		rec := &recordingRunner{Runner: pool}
		tu, err := tuner(rec, population.NewMemoryStore())
		if err != nil {
			t.Fatal(err)
		}
		res, err := tu.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rec, res
	}
	builtinStore, builtinRes := run(func(pool tournament.Runner, store population.Store) (*population.Tuner, error) {
		return population.NewTuner(cfg, g, openings, nil, pool, store)
	})

	// The engine's options in their UCI units: the genome is the option
	// values, one unit of each standing for uci.WeightUnit of the weight.
	var lines []string
	for _, f := range ev.Features {
		o := uci.WeightOption(f, f.Default)
		lines = append(lines, fmt.Sprintf("%s, int, %s, %d, %d, 1, 0.002", f.Name, o.Default, o.Min, o.Max))
	}
	pev, _, err := population.EngineEvaluator(lines)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := external.Parse("cmd=" + bin + ",arg=engine,arg=chess,arg=--evaluator,arg=textbook,arg=--search,arg=exact,proto=uci,name=tune-engine,option.Hash=16,depth=1")
	if err != nil {
		t.Fatal(err)
	}
	engineStore, engineRes := run(func(pool tournament.Runner, store population.Store) (*population.Tuner, error) {
		return population.NewEngineTuner(cfg, g, spec, pev, openings, nil, pool, store)
	})

	weights := func(w []float64) []float64 { // option values to weights
		out := make([]float64, len(w))
		for i, f := range ev.Features {
			x, err := uci.Weight(f, fmt.Sprint(int64(w[i])))
			if err != nil {
				t.Fatal(err)
			}
			out[i] = x
		}
		return out
	}
	if got, want := weights(engineRes.Best.Weights), builtinRes.Best.Weights; !reflect.DeepEqual(got, want) {
		t.Errorf("best genome through the engine %v, built-in %v", got, want)
	}
	bg, eg := builtinStore.records, engineStore.records
	if len(bg) != len(eg) || len(bg) == 0 {
		t.Fatalf("%d games through the engine, %d built-in", len(eg), len(bg))
	}
	// Each side of a built-in game searches with its own table, as each
	// engine process does: the games are the same, move for move.
	alike := 0
	for i := range bg {
		b, e := strings.Join(bg[i].Moves, " "), strings.Join(eg[i].Moves, " ")
		if bg[i].Outcome != eg[i].Outcome || b != e {
			t.Errorf("game %d: engine %s %s, built-in %s %s", i, e, eg[i].Outcome, b, bg[i].Outcome)
		} else {
			alike++
		}
	}
	t.Logf("%d of %d games move for move alike; best genome as setoption lines:\n%s", alike, len(bg), strings.Join(population.SetOptionLines(pev, engineRes.Best.Weights), "\n"))
}

// recordingRunner keeps every record its runner delivers, in order.
type recordingRunner struct {
	tournament.Runner
	records []tournament.Record
}

func (r *recordingRunner) Run(ctx context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	return r.Runner.Run(ctx, specs, func(i int, rec tournament.Record) error {
		r.records = append(r.records, rec)
		return done(i, rec)
	})
}

// TestRunTuneEngine: tune run --tune-engine tunes an external engine's own
// options (here 'tune engine chess' as a separate process, its material
// weights as UCI options): the run finishes, show names the options, export
// writes setoption lines, and an option the engine does not list is refused
// before anything is created. The run's first line gives the engine's own
// depth, not --depth.
func TestRunTuneEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a tuning run against engine processes")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	params := filepath.Join(dir, "params.txt")
	os.WriteFile(params, []byte("pawn, int, 100, 50, 200, 10, 0.002\nknight, int, 300, 150, 600, 20, 0.002\n"), 0o644)
	spec := "cmd=" + bin + ",proto=uci,arg=engine,arg=chess,depth=1"
	run := filepath.Join(dir, "run")
	code, out, errOut := tune(t, "", "run", "--game", "chess", "--tune-engine", spec, "--params", params,
		"--population", "4", "--generations", "2", "--games", "1", "--yardstick-pairs", "1", "--ladder-pairs", "-1",
		"--openings", "random:4", "--depth", "3", "--workers", "2", "--out", run)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	// The engine's own depth=1 applies, not --depth: the run's first line says so.
	if first, _, _ := strings.Cut(errOut+out, "\n"); !strings.Contains(first, ", depth 1,") {
		t.Errorf("the run's first line does not give the engine's depth 1: %q", first)
	}
	code, out, errOut = tune(t, "", "show", run, "--json")
	if code != 0 || !strings.Contains(out, `"pawn"`) || !strings.Contains(out, `"knight"`) {
		t.Fatalf("show: exit %d %s %s", code, out, errOut)
	}
	code, out, _ = tune(t, "", "export", run, "--format", "uci")
	if code != 0 || !strings.HasPrefix(out, "setoption name pawn value ") || !strings.Contains(out, "setoption name knight value ") {
		t.Fatalf("export uci: exit %d %q", code, out)
	}
	os.WriteFile(params, []byte("nosuch, int, 1, 0, 2, 1, 0.002\n"), 0o644)
	bad := filepath.Join(dir, "bad")
	code, _, errOut = tune(t, "", "run", "--game", "chess", "--tune-engine", spec, "--params", params, "--out", bad)
	if code != exitUsage || !strings.Contains(errOut, "nosuch") {
		t.Fatalf("an option the engine does not list: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Fatal("the refused run left its directory")
	}
}
