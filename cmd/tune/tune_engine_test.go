package main

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/tournament"
)

// TestTuneExternalEngine: a genetic run whose player is `tune engine
// chess`, a separate process whose feature weights are set through its UCI
// options (in protocol/uci's units), plays exactly the games and ends with
// exactly the best genome of the same run on the built-in player (same
// seed, fixed depth); see below for the games.
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
	spec, err := tournament.ParseEngineSpec("cmd=" + bin + ",arg=engine,arg=chess,arg=--evaluator,arg=textbook,proto=uci,name=tune-engine,option.Hash=16,depth=1")
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
	// The built-in pool shares one searcher (one table) between both sides
	// of a game; two engine processes have one each. Their moves part only
	// where the table meets a repetition (graph-history interaction), so
	// outcomes are compared, and identical move lists counted.
	alike := 0
	for i := range bg {
		b, e := strings.Join(bg[i].Moves, " "), strings.Join(eg[i].Moves, " ")
		if bg[i].Outcome != eg[i].Outcome {
			t.Errorf("game %d: engine %s %s, built-in %s %s", i, e, eg[i].Outcome, b, bg[i].Outcome)
		}
		if b == e {
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
