package chess

import (
	"math/rand/v2"
	"testing"

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

func BenchmarkEvaluatePST(b *testing.B) {
	ev, w := benchPST(b)
	p, _ := Parse(perftSuite[1].fen)
	for b.Loop() {
		ev.Evaluate(p, w)
	}
}
