package othello

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// The straightforward versions of the evaluation, square by square, as the
// evaluators were first written: the fast ones must agree with them on
// every position, so that tuning games do not change.

// anchoredReference walks each edge from each corner b holds, square by
// square.
func anchoredReference(b Bitboard) int {
	edgeRays := [4][2]struct{ start, step int }{
		{{0, 1}, {0, 8}}, {{7, -1}, {7, 8}}, {{56, 1}, {56, -8}}, {{63, -1}, {63, -8}},
	}
	n := 0
	for i := range edgeRays {
		for j, ray := range edgeRays[i] {
			s := ray.start
			if b&(1<<s) == 0 {
				break
			}
			if j == 0 {
				n++ // the corner itself, counted once
			}
			for k := 1; k < 8; k++ {
				s += ray.step
				if b&(1<<s) == 0 {
					break
				}
				n++
			}
		}
	}
	return n
}

// positionalReference sums the table over b's discs one by one.
func positionalReference(b Bitboard) int {
	v := 0
	for ; b != 0; b &= b - 1 {
		v += squareWeights[trailingZeros(b)]
	}
	return v
}

func reportFeaturesReference(p *Position, f *[4]float64) {
	me, them := p.mine(), p.theirs()
	f[0] = float64(popcount(me) - popcount(them))
	f[1] = float64(popcount(legalMoves(me, them)) - popcount(legalMoves(them, me)))
	f[2] = float64(positionalReference(me) - positionalReference(them))
	f[3] = float64(anchoredReference(me) - anchoredReference(them))
}

func evaluateReportReference(p *Position, w []float64) int {
	var f [4]float64
	reportFeaturesReference(p, &f)
	return int(math.Round(10 * (w[0]*f[0] + w[1]*f[1] + w[2]*f[2] + w[3]*f[3])))
}

func fullFeaturesReference(p *Position, f *[10]float64) {
	corners := [4]struct{ corner, x, c1, c2 int }{
		{0, 9, 1, 8}, {7, 14, 6, 15}, {56, 49, 57, 48}, {63, 54, 62, 55},
	}
	me, them := p.mine(), p.theirs()
	empty := ^(me | them)
	f[0] = float64(popcount(me&cornerMask) - popcount(them&cornerMask))
	x, c := 0, 0
	for _, k := range corners {
		if empty&(1<<k.corner) == 0 {
			continue
		}
		x += bit(me, k.x) - bit(them, k.x)
		c += bit(me, k.c1) + bit(me, k.c2) - bit(them, k.c1) - bit(them, k.c2)
	}
	f[1], f[2] = float64(x), float64(c)
	f[3] = float64(popcount(legalMoves(me, them)) - popcount(legalMoves(them, me)))
	frontierSquares := neighbours(empty)
	f[4] = float64(popcount(me&frontierSquares) - popcount(them&frontierSquares))
	f[5] = float64(popcount(me&edgeMask&^cornerMask) - popcount(them&edgeMask&^cornerMask))
	f[6] = float64(anchoredReference(me) - anchoredReference(them))
	empties := popcount(empty)
	if empties%2 == 1 {
		f[7] = 1
	} else {
		f[7] = -1
	}
	discs := float64(popcount(me) - popcount(them))
	f[8] = discs * float64(empties) / 60
	f[9] = discs * float64(60-empties) / 60
}

func evaluateFullReference(p *Position, w []float64) int {
	var f [10]float64
	fullFeaturesReference(p, &f)
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(10 * v))
}

func bit(b Bitboard, s int) int { return int(b >> s & 1) }

// randomPositions plays n random games from the start with rng and calls
// visit at every position on the way, the finished ones included.
func randomPositions(rng *rand.Rand, n int, visit func(*Position)) {
	buf := make([]games.Move, 0, 64)
	for range n {
		p := Start()
		for {
			visit(p)
			moves, outcome := p.Moves(buf)
			if outcome != games.Ongoing {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// randomWeights draws a weight vector within the features' ranges, on
// their steps, as the tuners do, or off the steps when fine is set.
func randomWeights(rng *rand.Rand, ev *games.Evaluator, fine bool) []float64 {
	w := make([]float64, len(ev.Features))
	for i, f := range ev.Features {
		if fine {
			w[i] = f.Min + rng.Float64()*(f.Max-f.Min)
			continue
		}
		steps := int(math.Round((f.Max - f.Min) / f.Step))
		w[i] = f.Min + float64(rng.IntN(steps+1))*f.Step
	}
	return w
}

// TestEvaluatorsMatchReference: on every position of thousands of random
// games, each evaluator returns what the reference returns, for the
// default weights and for random ones, and FeatureValues writes the
// reference's features times ten.
func TestEvaluatorsMatchReference(t *testing.T) {
	gamesPlayed := 3000
	if testing.Short() {
		gamesPlayed = 300
	}
	rng := rand.New(rand.NewPCG(18, 64))
	report, full := reportEvaluator.Defaults(), fullEvaluator.Defaults()
	var features [10]float64
	dst := make([]float64, 10)
	positions := 0
	randomPositions(rng, gamesPlayed, func(p *Position) {
		positions++
		me, them := p.mine(), p.theirs()
		for _, b := range [2]Bitboard{me, them} {
			if got, want := anchored(b), anchoredReference(b); got != want {
				t.Fatalf("%v: anchored(%#x) = %d, want %d", p, b, got, want)
			}
			if got, want := positional(b), positionalReference(b); got != want {
				t.Fatalf("%v: positional(%#x) = %d, want %d", p, b, got, want)
			}
		}
		for _, w := range [][]float64{report, randomWeights(rng, reportEvaluator, false), randomWeights(rng, reportEvaluator, true)} {
			if got, want := reportEvaluator.Evaluate(p, w), evaluateReportReference(p, w); got != want {
				t.Fatalf("%v: report evaluation %d with weights %v, want %d", p, got, w, want)
			}
		}
		for _, w := range [][]float64{full, randomWeights(rng, fullEvaluator, false), randomWeights(rng, fullEvaluator, true)} {
			if got, want := fullEvaluator.Evaluate(p, w), evaluateFullReference(p, w); got != want {
				t.Fatalf("%v: full evaluation %d with weights %v, want %d", p, got, w, want)
			}
		}
		reportFeaturesReference(p, (*[4]float64)(features[:4]))
		reportEvaluator.FeatureValues(p, dst[:4])
		for i := range 4 {
			if dst[i] != 10*features[i] {
				t.Fatalf("%v: report feature %s = %v, want %v", p, reportEvaluator.Features[i].Name, dst[i], 10*features[i])
			}
		}
		fullFeaturesReference(p, &features)
		fullEvaluator.FeatureValues(p, dst)
		for i := range 10 {
			if dst[i] != 10*features[i] {
				t.Fatalf("%v: full feature %s = %v, want %v", p, fullEvaluator.Features[i].Name, dst[i], 10*features[i])
			}
		}
	})
	t.Logf("%d positions from %d random games", positions, gamesPlayed)
}

// TestEdgeFeaturesMatchReference: anchored and positional agree with the
// reference on random bitboards too, dense and sparse, beyond what games
// reach.
func TestEdgeFeaturesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 8))
	for i := range 200000 {
		b := rng.Uint64()
		switch i % 4 {
		case 1:
			b |= rng.Uint64()
		case 2:
			b &= rng.Uint64()
		case 3:
			b |= rng.Uint64() | rng.Uint64()
		}
		if got, want := anchored(b), anchoredReference(b); got != want {
			t.Fatalf("anchored(%#x) = %d, want %d", b, got, want)
		}
		if got, want := positional(b), positionalReference(b); got != want {
			t.Fatalf("positional(%#x) = %d, want %d", b, got, want)
		}
	}
	for _, b := range []Bitboard{0, ^Bitboard(0), edgeMask, cornerMask, edgeMask &^ cornerMask} {
		if got, want := anchored(b), anchoredReference(b); got != want {
			t.Fatalf("anchored(%#x) = %d, want %d", b, got, want)
		}
	}
}
