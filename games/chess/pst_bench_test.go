package chess

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// benchPST returns the pst evaluator bound to seeded random tables of the
// magnitude of engines' piece-square tables (a deviation of 20
// centipawns), with its default weights.
func benchPST(tb testing.TB) (*games.Evaluator, []float64) {
	tb.Helper()
	ev, err := pstEvaluator.WithData(randomPSTData(rand.New(rand.NewPCG(28, 0)), 20))
	if err != nil {
		tb.Fatal(err)
	}
	return ev, ev.Defaults()
}

// BenchmarkEvaluatePST evaluates the position of BenchmarkEvaluateTextbook
// with random tables.
func BenchmarkEvaluatePST(b *testing.B) {
	ev, w := benchPST(b)
	p, _ := Parse(perftSuite[1].fen)
	for b.Loop() {
		ev.Evaluate(p, w)
	}
}

// deepPositions are the first four middlegames of testdata, the positions
// the deep searches start from.
func deepPositions(b *testing.B) []*Position {
	b.Helper()
	text, err := os.ReadFile("testdata/middlegames.txt")
	if err != nil {
		b.Fatal(err)
	}
	var out []*Position
	for _, l := range strings.Split(string(text), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") || len(out) == 4 {
			continue
		}
		p, err := Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// deepSearch searches each position to depth 6 with ev, the searcher's
// tables cleared first, and returns the nodes visited and the seconds the
// searches took (the clearing not included).
func deepSearch(b *testing.B, s *engine.Searcher, positions []*Position, ev *games.Evaluator, w []float64) (nodes int64, seconds float64) {
	b.Helper()
	for _, p := range positions {
		s.NewGame()
		start := time.Now()
		res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 6})
		if err != nil {
			b.Fatal(err)
		}
		nodes, seconds = nodes+res.Stats.Nodes, seconds+time.Since(start).Seconds()
	}
	return nodes, seconds
}

// BenchmarkDeepSearchRatio searches four middlegames to depth 6 with
// textbook and with pst (random tables, benchPST) in turn, and reports the
// nodes per second of pst over textbook's: issue 28 asks for at least
// 0.60, and the benchmark fails below. Each search visits the same nodes
// every time (its tables cleared first), so the rates are those of each
// search's fastest run: the machine's other work slows some runs, never
// speeds one up. Run it with -benchtime 3x or more.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pst, pw := benchPST(b)
	tw := textbookEvaluator.Defaults()
	positions := deepPositions(b)
	s, err := engine.New(engine.Options{TableMiB: 16})
	if err != nil {
		b.Fatal(err)
	}
	var textbookNodes, pstNodes int64
	textbookTime, pstTime := math.Inf(1), math.Inf(1)
	for b.Loop() {
		n, t := deepSearch(b, s, positions, textbookEvaluator, tw)
		textbookNodes, textbookTime = n, min(textbookTime, t)
		n, t = deepSearch(b, s, positions, pst, pw)
		pstNodes, pstTime = n, min(pstTime, t)
	}
	textbook, withTables := float64(textbookNodes)/textbookTime, float64(pstNodes)/pstTime
	ratio := withTables / textbook
	b.ReportMetric(textbook, "textbook-nodes/s")
	b.ReportMetric(withTables, "pst-nodes/s")
	b.ReportMetric(ratio, "ratio")
	if ratio < 0.60 {
		b.Fatalf("pst searches %.0f nodes/s, %.2f of textbook's %.0f: want at least 0.60", withTables, ratio, textbook)
	}
}
