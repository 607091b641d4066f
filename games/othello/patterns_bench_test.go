package othello

import (
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/enginetest"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
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
	return gametest.RandomTables(rng, patternsEvaluator.TablesSize(), scale)
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
			s, err := engine.New(engine.Options{TableMiB: 64})
			if err != nil {
				b.Fatal(err)
			}
			start := []games.Position{Start()}
			var nodes int64
			var seconds float64
			for b.Loop() {
				n, t := enginetest.SearchAll(b, s, start, 12, enginetest.Searched{Name: c.name, Ev: c.ev, W: c.w})
				nodes, seconds = nodes+n, seconds+t
			}
			b.ReportMetric(float64(nodes)/seconds, "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkDeepSearchRatio runs both searches of BenchmarkDeepSearch in
// turn and reports the nodes per second of patterns over those of full:
// issue 27 asks for at least 0.60, and the benchmark fails below
// (enginetest.SearchRatio). Run it with -benchtime 5x or more.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pat, pw := benchPatterns(b)
	enginetest.SearchRatio(b, []games.Position{Start()}, 12, 64,
		enginetest.Searched{Name: "full", Ev: fullEvaluator, W: fullEvaluator.Defaults()},
		enginetest.Searched{Name: "patterns", Ev: pat, W: pw}, 0.60)
}

// BenchmarkDeepSearchRatio14 is BenchmarkDeepSearchRatio to depth 14:
// issue 56 asks the search with patterns for at least 0.90 of full's nodes
// per second, and the benchmark fails below. Run it with -benchtime 5x or
// more (the best time of each search counts), alone on the machine.
func BenchmarkDeepSearchRatio14(b *testing.B) {
	pat, pw := benchPatterns(b)
	enginetest.SearchRatio(b, []games.Position{Start()}, 14, 64,
		enginetest.Searched{Name: "full", Ev: fullEvaluator, W: fullEvaluator.Defaults()},
		enginetest.Searched{Name: "patterns", Ev: pat, W: pw}, 0.90)
}

// BenchmarkDeepSearchRatio14Shipped is BenchmarkDeepSearchRatio14 with
// the shipped tables and weights, the evaluator the engine plays with,
// whose tree evaluates more positions a node than random tables' (0.90 to
// 0.94 measured, against 0.95 to 0.97 with random tables); it fails below
// 0.85.
func BenchmarkDeepSearchRatio14Shipped(b *testing.B) {
	enginetest.SearchRatio(b, []games.Position{Start()}, 14, 64,
		enginetest.Searched{Name: "full", Ev: fullEvaluator, W: fullEvaluator.Defaults()},
		enginetest.Searched{Name: "patterns", Ev: patternsEvaluator, W: patternsEvaluator.Defaults()}, 0.85)
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

// BenchmarkEvaluateChained evaluates the positions of
// BenchmarkEvaluatePatterns with full and with patterns, each position
// chosen by the score of the one before, so that an evaluation cannot
// start before the last one ends: its latency, which a search waits for
// (the next move depends on the score), where BenchmarkEvaluatePatterns
// lets evaluations overlap.
func BenchmarkEvaluateChained(b *testing.B) {
	pat, pw := benchPatterns(b)
	positions := patternPositions(3, 10)
	for _, c := range []struct {
		name string
		ev   *games.Evaluator
		w    []float64
	}{{"full", fullEvaluator, fullEvaluator.Defaults()}, {"patterns", pat, pw}} {
		b.Run(c.name, func(b *testing.B) {
			c.ev.Evaluate(positions[0], c.w)
			i := 0
			for b.Loop() {
				v := c.ev.Evaluate(positions[i], c.w)
				if i += 1 + v&1; i >= len(positions) {
					i = 0
				}
			}
		})
	}
}
