package web

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// tunedConfig is a tiny tic-tac-toe run of algo (depth 1, two random
// plies open each game), with a yardstick and a ladder.
func tunedConfig(algo population.Algo) population.Config {
	c := population.Defaults()
	c.Game, c.Depth, c.Openings, c.Algo = "tictactoe", 1, "random:2", algo
	c.YardstickPairs, c.LadderPairs = 1, 1
	c.SPSAIterations, c.SPSABlock = 24, 4
	c.CMAESGenerations, c.CMAESPairs = 3, 1
	c.TexelRounds, c.TexelGames = 3, 30
	c.BayesRounds, c.BayesPairs = 3, 2
	return c
}

// tuneRun plays a real run of cfg into root/name (SQLite): to its end,
// recorded done; or, with stop > 0, until stop generations have closed,
// left running and open for writing till the end of the test, as a process
// still working on it holds it.
func tuneRun(t *testing.T, root, name string, cfg population.Config, stop int) {
	t.Helper()
	store, err := results.Create(filepath.Join(root, name), cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	g, _ := all.Find(cfg.Game)
	pool, _ := tournament.NewPool(1, 1)
	defer pool.Close()
	tu, err := population.NewTuner(cfg, g, nil, nil, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SetStatus(results.StatusRunning); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tu.OnGeneration = func(g population.Generation) {
		if g.Index+1 == stop {
			cancel()
		}
	}
	if _, err := tu.Run(ctx); stop == 0 && err != nil {
		t.Fatal(err)
	}
	if stop == 0 {
		if err := store.SetStatus(results.StatusDone); err != nil {
			t.Fatal(err)
		}
		store.Close()
	}
}

// TestProgressEveryTuner: the dashboard measures a run's progress in
// games, whatever its tuner: a finished SPSA, CMA-ES, Texel or Bayes run has
// played all it planned (its games of its games, its blocks or rounds of
// them), its page shows Elo against games spent first, then its tuner's
// own figures and history; a running run with a games budget is measured
// against the budget, with an ETA.
func TestProgressEveryTuner(t *testing.T) {
	root := t.TempDir()
	figures := map[population.Algo][]string{
		population.SPSA:  {"elo", "spsa-theta", "spsa", "spsa-c"},
		population.CMAES: {"elo", "cmaes-sigma", "cmaes-mean"},
		population.Texel: {"elo", "texel-loss"},
		population.Bayes: {"elo", "bayes-optimum", "bayes-path", "bayes-landscape", "bayes-pair"},
	}
	for algo := range figures {
		tuneRun(t, root, string(algo), tunedConfig(algo), 0)
	}
	budgeted := tunedConfig(population.SPSA)
	budgeted.SPSAIterations, budgeted.BudgetGames = population.MaxSPSAIterations, 400
	tuneRun(t, root, "running", budgeted, 2)
	_, ts := newServer(t, root, Options{})

	for algo, names := range figures {
		resp, body := get(t, ts.URL+"/api/runs/"+string(algo))
		var d Detail
		if err := json.Unmarshal([]byte(body), &d); resp.StatusCode != 200 || err != nil {
			t.Fatalf("%s: %d %v", algo, resp.StatusCode, err)
		}
		cfg := tunedConfig(algo)
		stage := cfg.GenerationName()
		if d.Status != "done" || d.Games == 0 || d.GamesPlanned != d.Games || d.Planned != d.Done || d.Done != cfg.PlannedGenerations() || d.Stage != stage {
			t.Errorf("%s: %s, %d of %d games, %d of %d %ss; want all games and %ss of a finished run", algo, d.Status, d.Games, d.GamesPlanned, d.Done, d.Planned, d.Stage, stage)
		}
		for i, name := range names {
			if i >= len(d.Plots) || d.Plots[i] != fmt.Sprintf("/runs/%s/plots/%s.svg", algo, name) {
				t.Errorf("%s: plots %v, want %v in this order", algo, d.Plots, names)
				break
			}
		}
		_, page := get(t, ts.URL+"/runs/"+string(algo))
		at := func(s string) int {
			i := strings.Index(page, s)
			if i < 0 {
				t.Errorf("%s: the run page lacks %q", algo, s)
			}
			return i
		}
		at(fmt.Sprintf(`<span id="live-games">%d</span> of <span id="live-games-planned">%d</span> games`, d.Games, d.Games))
		at(`<table id="history">`)
		if at(`id="plot-elo"`) > at(`id="plot-`+names[1]+`"`) {
			t.Errorf("%s: the page does not show Elo against games spent first", algo)
		}
		for _, banned := range []string{`id="plot-fitness"`, `id="plot-diversity"`, "mean ± 1 sd"} {
			if strings.Contains(page, banned) {
				t.Errorf("%s: the page shows the genetic tuner's %q", algo, banned)
			}
		}
	}
	_, list := get(t, ts.URL+"/")
	if !strings.Contains(list, `<progress max="100" value="100"></progress>`) {
		t.Error("the runs list shows no finished run at 100%")
	}

	resp, body := get(t, ts.URL+"/api/runs/running")
	var d Detail
	if err := json.Unmarshal([]byte(body), &d); resp.StatusCode != 200 || err != nil {
		t.Fatalf("running: %d %v", resp.StatusCode, err)
	}
	if d.Status != "running" || d.Games == 0 || d.GamesPlanned != budgeted.BudgetGames || d.Stage != "block" || d.ETA.IsZero() || !d.ETA.After(time.Now().Add(-time.Minute)) {
		t.Errorf("a running SPSA run of budget %d: %s, %d of %d games, stage %s, ETA %v", budgeted.BudgetGames, d.Status, d.Games, d.GamesPlanned, d.Stage, d.ETA)
	}
	if want := fmt.Sprintf("%d/%d games", d.Games, budgeted.BudgetGames); !strings.Contains(list, want) {
		t.Errorf("the runs list lacks %q", want)
	}
}
