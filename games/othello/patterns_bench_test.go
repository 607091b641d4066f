package othello

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// benchPatterns returns the patterns evaluator bound to seeded random data
// of the magnitude fitted tables have (about 20 tenths of a disc an entry),
// with its default weights, so that a search with it is not degenerate.
func benchPatterns(tb testing.TB) (*games.Evaluator, []float64) {
	tb.Helper()
	ev, err := patternsEvaluator.WithData(randomPatternData(rand.New(rand.NewPCG(27, 1)), 20))
	if err != nil {
		tb.Fatal(err)
	}
	return ev, ev.Defaults()
}

// randomPatternData draws every table entry from a normal distribution of
// deviation scale.
func randomPatternData(rng *rand.Rand, scale float64) []float32 {
	data := make([]float32, patternsEvaluator.TablesSize())
	for i := range data {
		data[i] = float32(rng.NormFloat64() * scale)
	}
	return data
}

// newDeepSearcher returns the searcher of the deep searches: a 64 MiB
// table.
func newDeepSearcher(b *testing.B) *engine.Searcher {
	b.Helper()
	s, err := engine.New(engine.Options{TableMiB: 64})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// deepSearch searches the start position to depth 12 with ev after
// clearing s, and returns the nodes visited and the seconds the search
// took (the clearing not included).
func deepSearch(b *testing.B, s *engine.Searcher, ev *games.Evaluator, w []float64) (nodes int64, seconds float64) {
	b.Helper()
	s.NewGame()
	start := time.Now()
	res, err := s.Search(context.Background(), Start(), ev, w, engine.Limits{Depth: 12})
	if err != nil {
		b.Fatal(err)
	}
	return res.Stats.Nodes, time.Since(start).Seconds()
}

// BenchmarkDeepSearch searches the start position to depth 12 with full,
// with patterns (random tables) and with the shipped patterns, and reports
// the nodes per second.
func BenchmarkDeepSearch(b *testing.B) {
	pat, pw := benchPatterns(b)
	for _, c := range []struct {
		name string
		ev   *games.Evaluator
		w    []float64
	}{
		{"full", fullEvaluator, fullEvaluator.Defaults()},
		{"patterns", pat, pw},
		{"patterns-shipped", patternsEvaluator, patternsEvaluator.Defaults()},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := newDeepSearcher(b)
			var nodes int64
			var seconds float64
			for b.Loop() {
				n, t := deepSearch(b, s, c.ev, c.w)
				nodes, seconds = nodes+n, seconds+t
			}
			b.ReportMetric(float64(nodes)/seconds, "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkDeepSearchRatio runs both searches of BenchmarkDeepSearch in
// turn and reports the nodes per second of patterns over those of full:
// issue 27 asks for at least 0.60, and the benchmark fails below. Each
// search visits the same nodes every time (its table cleared first), so
// the rates are those of each search's fastest run: the machine's other
// work slows some runs, never speeds one up. Run it with -benchtime 5x or
// more.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pat, pw := benchPatterns(b)
	fw := fullEvaluator.Defaults()
	s := newDeepSearcher(b)
	var fullNodes, patNodes int64
	fullTime, patTime := math.Inf(1), math.Inf(1)
	for b.Loop() {
		n, t := deepSearch(b, s, fullEvaluator, fw)
		fullNodes, fullTime = n, min(fullTime, t)
		n, t = deepSearch(b, s, pat, pw)
		patNodes, patTime = n, min(patTime, t)
	}
	full, patterns := float64(fullNodes)/fullTime, float64(patNodes)/patTime
	ratio := patterns / full
	b.ReportMetric(full, "full-nodes/s")
	b.ReportMetric(patterns, "patterns-nodes/s")
	b.ReportMetric(ratio, "ratio")
	if ratio < 0.60 {
		b.Fatalf("patterns searches %.0f nodes/s, %.2f of full's %.0f: want at least 0.60", patterns, ratio, full)
	}
}

// BenchmarkEvaluatePatterns evaluates positions of random games with random
// tables.
func BenchmarkEvaluatePatterns(b *testing.B) {
	ev, w := benchPatterns(b)
	positions := patternPositions(3, 10)
	ev.Evaluate(positions[0], w)
	i := 0
	for b.Loop() {
		ev.Evaluate(positions[i%len(positions)], w)
		i++
	}
}

// BenchmarkEvaluateFullRandom evaluates the positions of
// BenchmarkEvaluatePatterns with full, for comparison.
func BenchmarkEvaluateFullRandom(b *testing.B) {
	w := fullEvaluator.Defaults()
	positions := patternPositions(3, 10)
	i := 0
	for b.Loop() {
		fullEvaluator.Evaluate(positions[i%len(positions)], w)
		i++
	}
}
