package checkers

import (
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/engine/enginetest"
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

// BenchmarkDeepSearchRatio searches the deep positions with full and with
// patterns (random tables, then the shipped ones) in turn and reports the nodes per second of
// patterns over those of full: issue 28 asks for at least 0.60, and the
// benchmark fails below (enginetest.SearchRatio). Run it with -benchtime 3x
// or more.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pat, pw := benchPatterns(b)
	var positions []games.Position
	for _, s := range deepPositions {
		p, err := Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		positions = append(positions, p)
	}
	for _, c := range []enginetest.Searched{{Name: "patterns", Ev: pat, W: pw}, {Name: "patterns-shipped", Ev: patternsEvaluator, W: patternsEvaluator.Defaults()}} {
		b.Run(c.Name, func(b *testing.B) {
			enginetest.SearchRatio(b, positions, deepDepth, 64,
				enginetest.Searched{Name: "full", Ev: fullEvaluator, W: fullEvaluator.Defaults()}, c, 0.60)
		})
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
