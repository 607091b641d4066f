package chess_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
)

func lines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestMates: well-known mates in 1, 2 and 3 moves are found with the score
// of a win in that many plies and the right first move.
func TestMates(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 16})
	for _, l := range lines(t, "testdata/mates.txt") {
		parts := strings.Split(l, ";")
		fen, move := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[2])
		plies, _ := strconv.Atoi(strings.TrimSpace(parts[1]))
		p, err := chess.Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		s.NewGame()
		res, err := s.Search(context.Background(), p, evaluator("textbook"), evaluator("textbook").Defaults(), engine.Limits{Depth: plies + 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != engine.Mate-plies || p.FormatMove(res.Move) != move {
			t.Errorf("%s: %s with score %d, want %s mating in %d plies (%d)", fen, p.FormatMove(res.Move), res.Score, move, plies, engine.Mate-plies)
		}
	}
}

// BenchmarkSearch searches the middlegame positions of testdata to depth 6
// with the textbook evaluation.
func BenchmarkSearch(b *testing.B) {
	s, _ := engine.New(engine.Options{TableMiB: 16})
	var positions []*chess.Position
	for _, l := range lines(b, "testdata/middlegames.txt")[:4] {
		p, err := chess.Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		positions = append(positions, p)
	}
	var nodes int64
	w := evaluator("textbook").Defaults()
	for b.Loop() {
		for _, p := range positions {
			s.NewGame()
			res, _ := s.Search(context.Background(), p, evaluator("textbook"), w, engine.Limits{Depth: 6})
			nodes += res.Stats.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func TestMiddlegamesParse(t *testing.T) {
	for _, l := range lines(t, "testdata/middlegames.txt") {
		if _, err := chess.Parse(l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
}

// TestCheckExtensionPays measures the check extension: at a fixed depth it
// costs about 15% more nodes on the middlegame positions, and it finds the
// mates of testdata one or two plies sooner (the mate in 3 at depth 3
// instead of 5, where each ply costs several times the nodes).
func TestCheckExtensionPays(t *testing.T) {
	depthToMate := func(off bool) (needed []int, nodes int64) {
		s, _ := engine.New(engine.Options{TableMiB: 16, NoCheckExtension: off})
		w := evaluator("textbook").Defaults()
		for _, l := range lines(t, "testdata/middlegames.txt")[:6] {
			p, _ := chess.Parse(l)
			s.NewGame()
			res, _ := s.Search(context.Background(), p, evaluator("textbook"), w, engine.Limits{Depth: 4})
			nodes += res.Stats.Nodes
		}
		for _, l := range lines(t, "testdata/mates.txt") {
			parts := strings.Split(l, ";")
			plies, _ := strconv.Atoi(strings.TrimSpace(parts[1]))
			p, _ := chess.Parse(strings.TrimSpace(parts[0]))
			d := 1
			for ; d < 8; d++ {
				s.NewGame()
				if res, _ := s.Search(context.Background(), p, evaluator("textbook"), w, engine.Limits{Depth: d}); res.Score == engine.Mate-plies {
					break
				}
			}
			needed = append(needed, d)
		}
		return needed, nodes
	}
	with, nodesWith := depthToMate(false)
	without, nodesWithout := depthToMate(true)
	t.Logf("depth to find each mate: %v with the extension, %v without; nodes at depth 4: %d with, %d without", with, without, nodesWith, nodesWithout)
	sumWith, sumWithout := 0, 0
	for i := range with {
		sumWith += with[i]
		sumWithout += without[i]
		if with[i] > without[i] {
			t.Errorf("mate %d needs depth %d with the extension, %d without", i, with[i], without[i])
		}
	}
	if sumWith >= sumWithout {
		t.Errorf("the extension found no mate sooner: %v vs %v", with, without)
	}
	if float64(nodesWith) > 1.5*float64(nodesWithout) {
		t.Errorf("the extension costs %d nodes against %d", nodesWith, nodesWithout)
	}
}

// BenchmarkSearchDepth8 searches two middlegame positions to depth 8 (about
// three seconds each here).
func BenchmarkSearchDepth8(b *testing.B) {
	s, _ := engine.New(engine.Options{TableMiB: 64})
	w := evaluator("textbook").Defaults()
	var positions []*chess.Position
	for _, l := range lines(b, "testdata/middlegames.txt")[2:4] {
		p, _ := chess.Parse(l)
		positions = append(positions, p)
	}
	var nodes int64
	for b.Loop() {
		for _, p := range positions {
			s.NewGame()
			res, _ := s.Search(context.Background(), p, evaluator("textbook"), w, engine.Limits{Depth: 8})
			nodes += res.Stats.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// evaluator returns the chess evaluator of that name, a copy of its own.
func evaluator(name string) *games.Evaluator {
	ev, err := games.FindEvaluator(chess.Game(), name)
	if err != nil {
		panic(err)
	}
	return ev
}

// TestMoveExtensions: after an even exchange or a pawn's move to its
// seventh rank the searcher goes a ply deeper (games.Extender), as Minimax
// does (TestAlphaBetaMatchesMinimax in engine holds the values to it): on
// the middlegames of testdata at depth 4 the extensions act (more nodes),
// at a bounded cost, and engine.Options.NoMoveExtensions turns them off.
// All twelve middlegames: on the first six one position's tree (4.8 times
// with the shipped tables, 2.7 with the ones before) outweighed the rest.
func TestMoveExtensions(t *testing.T) {
	ev := evaluator("pst")
	w := ev.Defaults()
	nodes := func(off bool) (total int64) {
		s, _ := engine.New(engine.Options{TableMiB: 16, NoMoveExtensions: off})
		for _, l := range lines(t, "testdata/middlegames.txt") {
			p, err := chess.Parse(l)
			if err != nil {
				t.Fatal(err)
			}
			s.NewGame()
			res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 4})
			if err != nil {
				t.Fatal(err)
			}
			total += res.Stats.Nodes
		}
		return total
	}
	with, without := nodes(false), nodes(true)
	t.Logf("nodes at depth 4: %d with the extensions, %d without", with, without)
	if with <= without || float64(with) > 2*float64(without) {
		t.Errorf("nodes at depth 4: %d with the extensions, %d without: want more, at most twice as many", with, without)
	}
}

// TestEvalCacheHits: iterative deepening asks again for evaluations an
// earlier iteration made, and the engine's evaluation cache answers a share
// of them: on four middlegames at depth 6, pst computes at most 90% of the
// evaluations the iterations ask for (measured 78%; 100% with no cache).
func TestEvalCacheHits(t *testing.T) {
	long(t, "four searches to depth 6 (7 s)")
	ev0 := evaluator("pst")
	ev := *ev0
	computed := int64(0)
	ev.Evaluate = func(p games.Position, w []float64) int { computed++; return ev0.Evaluate(p, w) }
	s, _ := engine.New(engine.Options{TableMiB: 16})
	asked := int64(0)
	for _, l := range lines(t, "testdata/middlegames.txt")[:4] {
		p, err := chess.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		s.NewGame()
		if _, err := s.SearchEach(context.Background(), p, &ev, ev.Defaults(), engine.Limits{Depth: 6}, func(r engine.Result) {
			asked += r.Stats.Evals
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d evaluations asked for, %d computed (%.2f)", asked, computed, float64(computed)/float64(asked))
	if computed > asked*9/10 {
		t.Errorf("%d evaluations asked for, %d computed: want at most 90%%", asked, computed)
	}
}

// TestPerpetualCheck: a rook and two pawns down, White draws by checking
// from h6 and g6 for ever (Stockfish 15.1 at depth 22: 0.00, Qg6+ Kh8 Qh6+
// Kg8). At depth 1 the searcher scores the root's return four plies on as
// a draw (games.Repeater); with engine.Options.NoRepetitions it needs the
// third occurrence, eight plies on, and scores White lost by the material.
func TestPerpetualCheck(t *testing.T) {
	ev := evaluator("pst")
	for _, off := range []bool{false, true} {
		s, _ := engine.New(engine.Options{TableMiB: 16, NoRepetitions: off})
		p, err := chess.Parse("q4rk1/pp6/7Q/8/8/8/8/4K3 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if move := p.UCI(res.Move); (!off && (res.Score != 0 || move != "h6g6")) || (off && res.Score > -300) {
			t.Errorf("no repetitions %v: %s %d, want the perpetual h6g6 scored 0 (with repetitions), under -300 (without)", off, move, res.Score)
		}
	}
}

// TestRepetitionsWin: two positions of a game pst drew against Stockfish
// 2100 (seed 2903), Black to move a rook up, where Stockfish 15.1 at depth
// 22 finds one winning move (b4c4 +6.36, then e1e2 +5.60 once the checks
// have gone round) and scores the others 0: the checks pst played, Re1+
// and then Rxb1, let White's rooks check for ever. Counting a repetition
// in the tree as a draw, pst finds Stockfish's move at depth 5; without,
// it played the draws (e2e1 615, e1b1 612).
func TestRepetitionsWin(t *testing.T) {
	ev := evaluator("pst")
	for _, c := range []struct {
		fen   string
		moves []string
		want  string
	}{
		{"5k2/2R3R1/p7/5pp1/1r1p3p/8/1p2r3/1B4K1 b - - 7 59", nil, "b4c4"},
		{"5k2/2R3R1/p7/4rpp1/1r1p3p/8/1p6/1B4K1 b - - 3 57", []string{"Re1+", "Kh2", "Re2+", "Kg1", "Re1+", "Kh2"}, "e1e2"},
	} {
		p, err := chess.Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.moves {
			mv, err := p.ParseMove(m)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(mv)
		}
		s, _ := engine.New(engine.Options{TableMiB: 16})
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 5})
		if err != nil {
			t.Fatal(err)
		}
		if move := p.UCI(res.Move); move != c.want {
			t.Errorf("%s after %v: %s %d at depth 5, want %s", c.fen, c.moves, move, res.Score, c.want)
		}
	}
}
