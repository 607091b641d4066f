package population

import (
	"context"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// TestOthelloGeneticImproves: the genetic tuner on Othello's full
// evaluator, from a random population, for a budget of about a minute here;
// then an independent match (other openings) of the best genome against
// the random genomes it started from: the 95% interval of its Elo lies
// above 0.
func TestOthelloGeneticImproves(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes Othello for about a minute")
	}
	start := time.Now()
	cfg := Defaults()
	cfg.Game, cfg.Evaluator, cfg.Depth, cfg.Openings, cfg.Seed = "othello", "full", 2, "random:8", 11
	cfg.Population, cfg.Generations, cfg.Games, cfg.Elite, cfg.YardstickPairs = 16, 8, 4, 2, 0
	cfg.Selection, cfg.Crossover, cfg.MutationRate, cfg.Sigma = "tournament", "blend", 0.2, 0.1
	g, _ := all.Find("othello")
	openings, err := tournament.RandomOpenings(context.Background(), g, cfg.Openings, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := tournament.NewPool(0, 4)
	store := NewMemoryStore()
	tu, err := NewTuner(cfg, g, openings, nil, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tu.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tuning := time.Since(start)

	// The independent match: the best genome against each of the first
	// eight random genomes of generation 0, from openings of another seed.
	other, _ := tournament.RandomOpenings(context.Background(), g, "random:10", 999)
	ev := tu.Evaluator()
	best := tournament.Player{Name: "best", Evaluator: ev, Weights: res.Best.Weights, Limits: engine.Limits{Depth: 2}}
	var specs []tournament.GameSpec
	for _, rg := range store.Generations[0].Genomes[:8] {
		random := tournament.Player{Name: "random", Evaluator: ev, Weights: rg.Weights, Limits: engine.Limits{Depth: 2}}
		specs = append(specs, tournament.MatchSpecs(g, best, random, 10, other, 0, tournament.Adjudication{})...)
	}
	m, err := tournament.RunMatch(context.Background(), pool, specs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := m.Pentanomial.EloEstimate()
	t.Logf("tuned %d generations in %v; best genome %v", res.Generations, tuning.Round(time.Second), res.Best.Weights)
	t.Logf("best against the random start: %d-%d-%d, Elo %s (per pair), %s (per game)", m.WDL.Wins, m.WDL.Draws, m.WDL.Losses, e, m.WDL.EloEstimate())
	if e.Low <= 0 {
		t.Fatalf("the tuned genome is not significantly stronger than the random start: Elo %s", e)
	}
}
