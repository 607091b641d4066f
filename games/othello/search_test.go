package othello_test

import (
	"bufio"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/enginetest"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/tournamenttest"
)

var update = flag.Bool("update", false, "rewrite testdata/midgame.txt")

const midgameFile = "testdata/midgame.txt"

// midgames returns the 20 midgame positions of testdata (random games from
// a fixed seed stopped after 20 to 29 plies; -update writes them again).
func midgames(t testing.TB) []*othello.Position {
	t.Helper()
	if *update {
		f, err := os.Create(midgameFile)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(20, 26))
		for i := 0; i < 20; i++ {
			p := othello.Start()
			for ply := 20 + i%10; ply > 0; ply-- {
				moves, _ := p.Moves(nil)
				p.Play(moves[rng.IntN(len(moves))])
			}
			f.WriteString(p.String() + "\n")
		}
		f.Close()
	}
	f, err := os.Open(midgameFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*othello.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, err := othello.Parse(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	if len(out) != 20 {
		t.Fatalf("%d midgame positions, want 20", len(out))
	}
	return out
}

// TestAlphaBetaVersusMinimax: at depth 6 over the 20 midgame positions,
// alpha-beta visits at least 100 times fewer nodes than minimax and at
// least 90% of its beta cutoffs come from the first move searched.
func TestAlphaBetaVersusMinimax(t *testing.T) {
	long(t, "minimax to depth 6 on 20 positions takes about 20 s")
	var positions []games.Position
	for _, p := range midgames(t) {
		positions = append(positions, p)
	}
	ratio, share := enginetest.AlphaBetaVersusMinimax(t, engine.Options{TableMiB: 16, NoExact: true}, positions, evaluator("report"), evaluator("report").Defaults(), 6)
	if ratio < 100 {
		t.Errorf("alpha-beta visits only %.1fx fewer nodes than minimax, want >= 100x", ratio)
	}
	if share < 0.9 {
		t.Errorf("first-move cutoff share %.3f, want >= 0.9", share)
	}
}

// TestFrontierSearch: the engine searching the last ply through Othello's
// Frontier and the last empty squares through its Ender finds the same
// scores as searching them move by move, at every depth from 1 to 7 over
// the midgame positions with both evaluators, and in exact endgames from
// 12 empties; and a node limit still stops the search at or below the
// limit.
func TestFrontierSearch(t *testing.T) {
	maxDepth := 7
	if testing.Short() {
		maxDepth = 4
	}
	fast, _ := engine.New(engine.Options{TableMiB: 1})
	slow, _ := engine.New(engine.Options{TableMiB: 1, NoFrontier: true, NoEnder: true})
	var fastNodes, slowNodes int64
	for i, p := range midgames(t) {
		ev := evaluator([]string{"report", "full"}[i%2])
		for depth := 1; depth <= maxDepth; depth++ {
			fast.NewGame()
			slow.NewGame()
			a, err := fast.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			b, err := slow.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if a.Score != b.Score {
				t.Fatalf("%s depth %d (%s): %d with the frontier, %d without", p, depth, ev.Name, a.Score, b.Score)
			}
			fastNodes += a.Stats.Nodes
			slowNodes += b.Stats.Nodes
		}
	}
	t.Logf("midgames to depth %d: %d nodes with the frontier, %d without", maxDepth, fastNodes, slowNodes)

	// Endgames: random games stopped at 12 empties (ExactEmpties), searched to the end.
	rng := rand.New(rand.NewPCG(12, 1))
	ev := evaluator("report")
	var ends []*othello.Position
	for i := 0; i < 6; i++ {
		p := othello.Start()
		for p.Empties() > othello.ExactEmpties {
			moves, o := p.Moves(nil)
			if o != games.Ongoing {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		if _, o := p.Moves(nil); o != games.Ongoing {
			continue
		}
		fast.NewGame()
		slow.NewGame()
		a, err := fast.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 4})
		if err != nil {
			t.Fatal(err)
		}
		b, err := slow.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 4})
		if err != nil {
			t.Fatal(err)
		}
		if a.Score != b.Score || a.Stats.Evals != 0 {
			t.Fatalf("%s to the end: %d with the frontier (%d evaluations in the last iteration), %d without", p, a.Score, a.Stats.Evals, b.Score)
		}
		ends = append(ends, p)
	}

	for _, p := range []*othello.Position{midgames(t)[0], ends[0], ends[1]} {
		for _, limit := range []int64{2, 50, 64, 65, 100, 1000, 5000, 20000} {
			fast.NewGame()
			res, err := fast.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Nodes: limit})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Nodes > limit || res.Move == games.NoMove {
				t.Fatalf("%s, node limit %d: %d nodes, move %v", p, limit, res.Stats.Nodes, res.Move)
			}
		}
	}
}

// BenchmarkSearch searches the midgame positions to depth 8.
func BenchmarkSearch(b *testing.B) {
	s, _ := engine.New(engine.Options{TableMiB: 16, NoExact: true})
	ev := evaluator("full")
	w := ev.Defaults()
	positions := midgames(b)[:4]
	var nodes int64
	for b.Loop() {
		for _, p := range positions {
			s.NewGame()
			res, _ := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 8})
			nodes += res.Stats.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkGameDepth6 plays one whole engine-against-engine game with the
// report evaluator at depth 6 (exact endgame from 12 empties): the game that
// took the report 97 s.
func BenchmarkGameDepth6(b *testing.B) {
	tournamenttest.BenchmarkGame(b, othello.Game(), evaluator("report"), 6, 16)
}

// TestFullBeatsReport: with default weights at equal depth, the full
// evaluator outscores the report's over colour-swapped pairs from random
// openings.
func TestFullBeatsReport(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 40 games")
	}
	pool, _ := tournament.NewPool(0, 4)
	full := tournament.Player{Name: "full", Evaluator: evaluator("full"), Weights: evaluator("full").Defaults(), Limits: engine.Limits{Depth: 4}}
	report := tournament.Player{Name: "report", Evaluator: evaluator("report"), Weights: evaluator("report").Defaults(), Limits: engine.Limits{Depth: 4}}
	rng := rand.New(rand.NewPCG(5, 6))
	var specs []tournament.GameSpec
	for i := 0; i < 20; i++ {
		p := othello.Start()
		for ply := 0; ply < 4+i%3; ply++ {
			moves, _ := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		specs = append(specs,
			tournament.GameSpec{Game: othello.Game(), Opening: p.String(), First: full, Second: report},
			tournament.GameSpec{Game: othello.Game(), Opening: p.String(), First: report, Second: full})
	}
	points := 0.0
	start := time.Now()
	err := pool.Run(context.Background(), specs, func(i int, r tournament.Record) error {
		s := r.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		points += s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("full scored %.1f/%d against report at depth 4 (%.1f s)", points, len(specs), time.Since(start).Seconds())
	if points <= float64(len(specs))*0.6 {
		t.Fatalf("full scored %.1f of %d against report, want more than 60%%", points, len(specs))
	}
}

// evaluator returns the othello evaluator of that name, a copy of its own.
func evaluator(name string) *games.Evaluator {
	ev, err := games.FindEvaluator(othello.Game(), name)
	if err != nil {
		panic(err)
	}
	return ev
}
