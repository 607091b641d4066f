package chess

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine/enginetest"
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
func deepPositions(b *testing.B) []games.Position {
	b.Helper()
	text, err := os.ReadFile("testdata/middlegames.txt")
	if err != nil {
		b.Fatal(err)
	}
	var out []games.Position
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

// BenchmarkDeepSearchRatio searches four middlegames to depth 6 with
// textbook and with pst in turn, and reports the nodes per second of pst
// over textbook's: issue 28 asks for at least 0.60 with the new evaluator,
// pst with its shipped tables, and the benchmark fails below
// (enginetest.SearchRatio). It reports the ratio with random tables
// (benchPST) too: the same code on other trees (no floor). Run it with
// -benchtime 3x or more.
// Measurements: docs/experiments.md#speed-of-psts-search.
func BenchmarkDeepSearchRatio(b *testing.B) {
	pst, pw := benchPST(b)
	positions := deepPositions(b)
	for _, c := range []struct {
		enginetest.Searched
		floor float64
	}{{enginetest.Searched{Name: "pst", Ev: pst, W: pw}, 0}, {enginetest.Searched{Name: "pst-shipped", Ev: pstEvaluator, W: pstEvaluator.Defaults()}, 0.60}} {
		b.Run(c.Name, func(b *testing.B) {
			enginetest.SearchRatio(b, positions, 6, 16,
				enginetest.Searched{Name: "textbook", Ev: textbookEvaluator, W: textbookEvaluator.Defaults()}, c.Searched, c.floor)
		})
	}
}
