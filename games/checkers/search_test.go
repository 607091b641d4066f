package checkers_test

import (
	"bufio"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/enginetest"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/checkers"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/tournamenttest"
)

var update = flag.Bool("update", false, "rewrite testdata/midgame.txt")

const midgameFile = "testdata/midgame.txt"

// midgames returns the midgame positions of testdata: random games from a
// fixed seed stopped after 14 to 23 plies (-update writes them again).
func midgames(t testing.TB) []*checkers.Position {
	t.Helper()
	if *update {
		f, err := os.Create(midgameFile)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(14, 23))
		for count := 0; count < 12; {
			p := checkers.Start()
			ok := true
			for ply := 14 + count%10; ply > 0 && ok; ply-- {
				moves, o := p.Moves(nil)
				if o != 0 {
					ok = false
					break
				}
				p.Play(moves[rng.IntN(len(moves))])
			}
			if _, o := p.Moves(nil); ok && o == 0 {
				f.WriteString(p.String() + "\n")
				count++
			}
		}
		f.Close()
	}
	f, err := os.Open(midgameFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*checkers.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, err := checkers.Parse(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestAlphaBetaVersusMinimax: at depth 6 over the midgame positions,
// alpha-beta finds minimax's values with far fewer nodes, most beta
// cutoffs coming from the first move.
func TestAlphaBetaVersusMinimax(t *testing.T) {
	long(t, "minimax to depth 6 on 12 positions")
	var positions []games.Position
	for _, p := range midgames(t) {
		positions = append(positions, p)
	}
	ratio, share := enginetest.AlphaBetaVersusMinimax(t, engine.Options{TableMiB: 16}, positions, evaluator("full"), evaluator("full").Defaults(), 6)
	if ratio < 20 || share < 0.85 {
		t.Errorf("ratio %.1f (want >= 20), first-move share %.3f (want >= 0.85)", ratio, share)
	}
}

// BenchmarkSearch searches midgame positions to depth 10.
func BenchmarkSearch(b *testing.B) {
	s, _ := engine.New(engine.Options{TableMiB: 16})
	ev := evaluator("full")
	w := ev.Defaults()
	positions := midgames(b)[:3]
	var nodes int64
	for b.Loop() {
		for _, p := range positions {
			s.NewGame()
			res, _ := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 10})
			nodes += res.Stats.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkGameDepth6 plays one whole engine-against-engine game from the
// start at depth 6 with each evaluator, both sides using its default
// weights.
func BenchmarkGameDepth6(b *testing.B) {
	for _, name := range []string{"paper", "full"} {
		b.Run(name, func(b *testing.B) {
			tournamenttest.BenchmarkGame(b, checkers.Game(), evaluator(name), 6, 16)
		})
	}
}

// TestFullBeatsPaper: with default weights at equal depth the full
// evaluator outscores the paper's over colour-swapped pairs from random
// openings.
func TestFullBeatsPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 80 games")
	}
	pool, _ := tournament.NewPool(0, 4)
	full := tournament.Player{Name: "full", Evaluator: evaluator("full"), Weights: evaluator("full").Defaults(), Limits: engine.Limits{Depth: 5}}
	paper := tournament.Player{Name: "paper", Evaluator: evaluator("paper"), Weights: evaluator("paper").Defaults(), Limits: engine.Limits{Depth: 5}}
	openings, err := tournament.RandomOpenings(context.Background(), checkers.Game(), "random:4", 5)
	if err != nil {
		t.Fatal(err)
	}
	specs := tournament.MatchSpecs(checkers.Game(), full, paper, 40, openings, 200, tournament.Adjudication{})
	res, err := tournament.RunMatch(context.Background(), pool, specs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("full against paper at depth 5: %d-%d-%d, Elo %s", res.WDL.Wins, res.WDL.Draws, res.WDL.Losses, res.WDL.EloEstimate())
	if res.WDL.Score() <= 0.55 {
		t.Fatalf("full scored %.3f against paper, want more than 0.55", res.WDL.Score())
	}
}

// evaluator returns the checkers evaluator of that name, a copy of its own.
func evaluator(name string) *games.Evaluator {
	ev, err := games.FindEvaluator(checkers.Game(), name)
	if err != nil {
		panic(err)
	}
	return ev
}
