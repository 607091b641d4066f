package web

import (
	"path/filepath"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// fixtureConfig is a tic-tac-toe genetic run's config (4 features).
func fixtureConfig(generations int) population.Config {
	cfg := population.Defaults()
	cfg.Game, cfg.Depth, cfg.Openings = "tictactoe", 2, ""
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs = 16, generations, 2, 2
	return cfg
}

// fixtureEvaluator is the evaluator fixtureConfig tunes.
func fixtureEvaluator(t testing.TB) *games.Evaluator {
	t.Helper()
	cfg := fixtureConfig(1)
	g, err := all.Find(cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// fixtureGeneration is a made-up closed generation i of pop genomes with
// n weights each, with a yardstick.
func fixtureGeneration(i, pop, n int) population.Generation {
	g := population.Generation{Index: i, Mean: make([]float64, n), Std: make([]float64, n), Best: i * pop,
		BestFitness: 0.7, MeanFitness: 0.5, WorstFitness: 0.2, Diversity: 0.5 / float64(i+1)}
	for k := range pop {
		w := make([]float64, n)
		for j := range w {
			w[j] = float64((i+k+j)%7)/2 - 1.5
			g.Mean[j] += w[j] / float64(pop)
		}
		g.Genomes = append(g.Genomes, population.Genome{ID: i*pop + k, Weights: w, Fitness: 0.2 + 0.5*float64(k)/float64(pop), WDL: stats.WDL{Wins: k, Draws: 1, Losses: pop - k}})
	}
	for j := range g.Std {
		g.Std[j] = 0.5
	}
	g.Yardstick = &population.Yardstick{Genome: i * pop, WDL: stats.WDL{Wins: 5 + i, Draws: 2, Losses: 5}, Score: 0.55, Elo: 10 * float64(i), EloLow: 10*float64(i) - 40, EloHigh: 10*float64(i) + 40}
	return g
}

// fixtureGame is a made-up finished game.
func fixtureGame(gen, idx int) population.GameResult {
	return population.GameResult{
		Key: population.GameKey{Stage: population.StageGeneration, Generation: gen, Index: idx}, First: idx, Second: idx + 1,
		Record: tournament.Record{Outcome: games.FirstWins, Reason: "rule", Opening: "---------", Moves: []string{"a1", "b1", "a2", "b2", "a3"}, Plies: 5},
	}
}

// makeRun creates the run root/name with gens closed generations of pop
// genomes, and games per generation; it returns the open run (status
// running) for the test to go on writing, closed at the end of the test.
func makeRun(t testing.TB, root, name string, planned, gens, pop, gamesPer int) *results.Run {
	t.Helper()
	cfg := fixtureConfig(planned)
	r, err := results.Create(filepath.Join(root, name), cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if err := r.SetStatus("running"); err != nil {
		t.Fatal(err)
	}
	for i := range gens {
		for k := range gamesPer {
			if err := r.RecordGame(fixtureGame(i, k)); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.RecordGeneration(fixtureGeneration(i, pop, 4)); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// fixtureLadder is a made-up ladder of the run made by makeRun with gens
// generations of pop genomes: the defaults and the champions of its first
// and last generations, the last one rated best by strong, clear of the
// defaults when strong is large.
func fixtureLadder(gens, pop int, strong float64) population.Ladder {
	last := fixtureGeneration(gens-1, pop, 4)
	first := fixtureGeneration(0, pop, 4)
	return population.Ladder{
		Pairs: 4, Reference: 0, Best: 2, BestLow: strong - 60, BestHigh: strong + 60,
		Entries: []population.LadderEntry{
			{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: []float64{1, 1, 1, 1}, WDL: stats.WDL{Wins: 3, Losses: 13}},
			{Label: population.ChampionLabel(0), Genome: first.Genomes[0].ID, Generation: 0, Spent: 2, Weights: first.Genomes[0].Weights, WDL: stats.WDL{Wins: 8, Losses: 8}, Elo: 40, Low: -40, High: 120},
			{Label: population.ChampionLabel(gens - 1), Genome: last.Genomes[0].ID, Generation: gens - 1, Spent: 2 * gens, Weights: last.Genomes[0].Weights,
				WDL: stats.WDL{Wins: 13, Losses: 3}, Elo: strong, Low: strong - 60, High: strong + 60},
		},
	}
}
