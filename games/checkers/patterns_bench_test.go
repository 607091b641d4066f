package checkers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// benchPatterns returns the patterns evaluator bound to seeded random
// tables of the magnitude fitted tables have (about 20 hundredths of a man
// an entry), with its Scratch weights, so that a search with it is not
// degenerate.
func benchPatterns(tb testing.TB) (*games.Evaluator, []float64) {
	tb.Helper()
	ev, err := patternsEvaluator.WithData(randomPatternData(rand.New(rand.NewPCG(28, 20)), 20))
	if err != nil {
		tb.Fatal(err)
	}
	return ev, ev.Scratch
}

// deepPositions are the deep searches' positions: the start and two
// midgames of testdata/midgame.txt.
var deepPositions = []string{
	StartNotation,
	"B:W18,20,21,24,25,26,27,29,32:B1,2,3,4,6,7,8,9,11,16,K31",
	"B:W12,16,21,22,25,26,27,29,30,31:B2,3,4,5,6,8,9,10,13",
}

// deepDepth is the deep searches' depth.
const deepDepth = 14

// deepSearch searches the deep positions to deepDepth with ev, s cleared
// before each, and returns the nodes visited and the seconds the searches
// took (the clearing not included).
func deepSearch(b *testing.B, s *engine.Searcher, ev *games.Evaluator, w []float64) (nodes int64, seconds float64) {
	b.Helper()
	for _, fen := range deepPositions {
		p, err := Parse(fen)
		if err != nil {
			b.Fatal(err)
		}
		s.NewGame()
		start := time.Now()
		res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: deepDepth})
		if err != nil {
			b.Fatal(err)
		}
		nodes, seconds = nodes+res.Stats.Nodes, seconds+time.Since(start).Seconds()
	}
	return nodes, seconds
}

// BenchmarkDeepSearchRatio searches the deep positions with full and with
// patterns (random tables) in turn and reports the nodes per second of
// patterns over those of full: issue 28 asks for at least 0.60, and the
// benchmark fails below. Each search visits the same nodes every time (its
// table cleared first), so the rates are those of each search's fastest
// run: the machine's other work slows some runs, never speeds one up. Run
// it with -benchtime 3x or more.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pat, pw := benchPatterns(b)
	fw := fullEvaluator.Defaults()
	s, err := engine.New(engine.Options{TableMiB: 64})
	if err != nil {
		b.Fatal(err)
	}
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
	b.ReportMetric(float64(patNodes), "patterns-nodes")
	b.ReportMetric(ratio, "ratio")
	if ratio < 0.60 {
		b.Fatalf("patterns searches %.0f nodes/s, %.2f of full's %.0f: want at least 0.60", patterns, ratio, full)
	}
}

// benchPositions are positions of seeded random games, kings included.
func benchPositions() []*Position {
	rng := rand.New(rand.NewPCG(28, 21))
	var out []*Position
	for len(out) < 1000 {
		p := Start()
		for ply := 0; ; ply++ {
			moves, o := p.Moves(nil)
			if o != games.Ongoing {
				break
			}
			if ply%7 == 0 {
				out = append(out, p.Clone().(*Position))
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// BenchmarkEvaluatePatterns evaluates positions of random games with random
// tables.
func BenchmarkEvaluatePatterns(b *testing.B) {
	ev, w := benchPatterns(b)
	positions := benchPositions()
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
	positions := benchPositions()
	i := 0
	for b.Loop() {
		fullEvaluator.Evaluate(positions[i%len(positions)], w)
		i++
	}
}
