package engine_test

import (
	"bufio"
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// selectiveCase is a game's positions and evaluator for measuring the
// selective search against the exact one: its middlegames of testdata,
// searched to depth.
type selectiveCase struct {
	game, evaluator, file string
	depth                 int
}

// selectiveCases are the games the selective search is measured on, each
// with its strongest shipped evaluator and a depth at which the exact
// search of all its positions takes some seconds on one core.
var selectiveCases = []selectiveCase{
	{"chess", "pst", "../games/chess/testdata/middlegames.txt", 6},
	{"othello", "patterns", "../games/othello/testdata/midgame.txt", 11},
	{"checkers", "patterns", "../games/checkers/testdata/midgame.txt", 14},
}

// load reads the case's positions and evaluator.
func (c selectiveCase) load(tb testing.TB) ([]games.Position, *games.Evaluator) {
	tb.Helper()
	g, err := all.Find(c.game)
	if err != nil {
		tb.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, c.evaluator)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := os.Open(c.file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var ps []games.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p, err := g.ParsePosition(l)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps, ev
}

// searchCase searches every position of the case to depth with a new
// searcher of opts and returns the nodes over all and the effective
// branching factor of their sum (the depth-th root of the mean nodes).
func searchCase(tb testing.TB, s *engine.Searcher, ps []games.Position, ev *games.Evaluator, w []float64, depth int) (nodes int64, ebf float64) {
	tb.Helper()
	for _, p := range ps {
		s.NewGame()
		res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: depth})
		if err != nil {
			tb.Fatal(err)
		}
		nodes += res.Stats.Nodes
	}
	return nodes, math.Pow(float64(nodes)/float64(len(ps)), 1/float64(depth))
}

// BenchmarkSelective searches each game's middlegames (testdata) to the
// case's depth, exact and selective, and reports the nodes a position and
// the effective branching factor: how much of the tree the selective
// search prunes. 0 allocs/op once the buffers have grown.
func BenchmarkSelective(b *testing.B) {
	for _, c := range selectiveCases {
		ps, ev := c.load(b)
		w := ev.Defaults()
		for _, mode := range []struct {
			name string
			opts engine.Options
		}{
			{"exact", engine.Options{TableMiB: 16}},
			{"selective", engine.Options{TableMiB: 16, Selective: true}},
		} {
			b.Run(c.game+"/"+mode.name, func(b *testing.B) {
				s, err := engine.New(mode.opts)
				if err != nil {
					b.Fatal(err)
				}
				searchCase(b, s, ps, ev, w, c.depth-2) // grows the buffers
				var nodes int64
				var ebf float64
				for b.Loop() {
					nodes, ebf = searchCase(b, s, ps, ev, w, c.depth)
				}
				b.ReportMetric(float64(nodes)/float64(len(ps)), "nodes/position")
				b.ReportMetric(ebf, "ebf")
			})
		}
	}
}

// TestSelectiveTreeSizes prints, with GAMETUNE_EXPERIMENTS=1, the nodes and
// time of the exact and the selective searches of each case at each depth,
// with each technique of the selective search turned off in turn.
func TestSelectiveTreeSizes(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a measurement of a few minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	only := os.Getenv("GAMETUNE_GAME")
	for _, c := range selectiveCases {
		if only != "" && only != c.game {
			continue
		}
		ps, ev := c.load(t)
		w := ev.Defaults()
		for _, mode := range []struct {
			name string
			opts engine.Options
		}{
			{"exact", engine.Options{}},
			{"selective", engine.Options{Selective: true}},
			{"-null", engine.Options{Selective: true, NoNullMove: true}},
			{"-lmr", engine.Options{Selective: true, NoLateReductions: true}},
			{"-lmp", engine.Options{Selective: true, NoLatePruning: true}},
			{"-futility", engine.Options{Selective: true, NoFutility: true}},
			{"-rfp", engine.Options{Selective: true, NoReverseFutility: true}},
			{"-razor", engine.Options{Selective: true, NoRazoring: true}},
			{"-see", engine.Options{Selective: true, NoExchangePruning: true}},
			{"-probcut", engine.Options{Selective: true, NoProbCut: true}},
			{"exact-tt", engine.Options{Selective: true, ExactTableCuts: true}},
		} {
			s, err := engine.New(mode.opts)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			nodes, ebf := searchCase(t, s, ps, ev, w, c.depth)
			t.Logf("%-8s %-10s depth %2d: %10d nodes/position, EBF %.2f, %6.0f ms/position",
				c.game, mode.name, c.depth, nodes/int64(len(ps)), ebf, float64(time.Since(start).Milliseconds())/float64(len(ps)))
		}
	}
}

// TestSelectivePrunes: on each game's middlegames at a shallow depth the
// selective search visits fewer than half the nodes of the exact one.
func TestSelectivePrunes(t *testing.T) {
	for _, c := range selectiveCases {
		ps, ev := c.load(t)
		ps = ps[:4]
		w := ev.Defaults()
		depth := c.depth - 2
		var nodes [2]int64
		for i, opts := range []engine.Options{{TableMiB: 4}, {TableMiB: 4, Selective: true}} {
			s, err := engine.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			nodes[i], _ = searchCase(t, s, ps, ev, w, depth)
		}
		if 2*nodes[1] >= nodes[0] {
			t.Errorf("%s at depth %d: selective %d nodes, exact %d: want fewer than half", c.game, depth, nodes[1], nodes[0])
		}
	}
}
