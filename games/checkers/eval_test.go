package checkers

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// The reference code's tables, which the evaluators no longer use.
var (
	// forward[side] are the directions a man of that side moves in.
	forward = [2][2]int{{downLeft, downRight}, {upLeft, upRight}}
	// firstRow[side] is the side's own back row.
	firstRow = [2]Bitboard{0x0000000f, 0xf0000000}
)

// referenceFullFeatures is the full evaluator's features computed piece by
// piece through the step table: the code the bitboard version replaced.
// Tuning games depend on every value, so the two must agree exactly.
func referenceFullFeatures(p *Position, f *[10]float64) {
	side := func(side games.Side, empty Bitboard, sign float64) {
		f[0] += sign * float64(popcount(p.men[side]))
		f[1] += sign * float64(popcount(p.kings[side]))
		f[2] += sign * float64(popcount(p.men[side]&firstRow[side]))
		f[3] += sign * float64(popcount(p.pieces(side)&centre))
		f[8] += sign * float64(popcount(p.kings[side]&centre))
		adv, mob, runaway := 0, 0, 0
		for b := p.men[side]; b != 0; b &= b - 1 {
			s := lowest(b)
			if side == games.First {
				adv += s / 4
			} else {
				adv += 7 - s/4
			}
			for _, d := range forward[side] {
				if t := step[d][s]; t >= 0 && empty&(1<<t) != 0 {
					mob++
					if lastRow[side]&(1<<t) != 0 {
						runaway++
					}
				}
			}
		}
		trapped := 0
		for b := p.kings[side]; b != 0; b &= b - 1 {
			s := lowest(b)
			n := 0
			for d := 0; d < 4; d++ {
				if t := step[d][s]; t >= 0 && empty&(1<<t) != 0 {
					n++
				}
			}
			mob += n
			if n == 0 {
				trapped++
			}
		}
		f[4] += sign * float64(adv)
		f[5] += sign * float64(mob)
		f[6] += sign * float64(runaway)
		f[7] += sign * float64(trapped)
	}
	empty := ^p.occupied()
	side(p.turn, empty, 1)
	side(p.turn.Other(), empty, -1)
	all := popcount(p.occupied())
	f[9] = float64(popcount(p.pieces(p.turn))-popcount(p.pieces(p.turn.Other()))) * float64(24-all) / 24
}

// referencePaperFeatures is the paper evaluator's four counts.
func referencePaperFeatures(p *Position) []float64 {
	me, them := p.turn, p.turn.Other()
	return []float64{
		float64(popcount(p.pieces(me))), float64(popcount(p.pieces(them))),
		float64(popcount(p.kings[me])), float64(popcount(p.kings[them])),
	}
}

// referenceFeatures returns the unscaled features of evaluator name.
func referenceFeatures(name string, p *Position) []float64 {
	if name == "paper" {
		return referencePaperFeatures(p)
	}
	var f [10]float64
	referenceFullFeatures(p, &f)
	return f[:]
}

// referenceEvaluate is the evaluators' weighted sum, term by term in the
// order of the features, as the replaced code summed them.
func referenceEvaluate(name string, p *Position, w []float64) int {
	f := referenceFeatures(name, p)
	if name == "paper" {
		return int(math.Round(100 * (w[0]*f[0] + w[1]*f[1] + w[2]*f[2] + w[3]*f[3])))
	}
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(100 * v))
}

// randomPositions plays random games from the start and returns every
// position reached before the end, kings and captures included.
func randomPositions(t *testing.T, rng *rand.Rand, want int) []*Position {
	t.Helper()
	var out []*Position
	for len(out) < want {
		p := Start()
		for {
			moves, o := p.Moves(nil)
			if o != games.Ongoing {
				// The final position too: quiescence may evaluate it.
				out = append(out, p.Clone().(*Position))
				break
			}
			out = append(out, p.Clone().(*Position))
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// TestEvaluatorsAgainstReference: on tens of thousands of random reachable
// positions, every evaluator returns exactly the reference value, with its
// default weights and with random weights within the features' ranges, and
// FeatureValues writes exactly the reference features (scaled by 100).
func TestEvaluatorsAgainstReference(t *testing.T) {
	n := 60000
	if testing.Short() {
		n = 10000
	}
	rng := rand.New(rand.NewPCG(18, 32))
	positions := randomPositions(t, rng, n)
	kings := 0
	for _, p := range positions {
		if p.kings[0]|p.kings[1] != 0 {
			kings++
		}
	}
	if kings < len(positions)/4 {
		t.Fatalf("only %d of %d positions have kings", kings, len(positions))
	}
	for _, ev := range Game().Evaluators() {
		if ev.Tables != nil {
			continue // its tables have a reference of their own (patterns_eval_test.go)
		}
		t.Run(ev.Name, func(t *testing.T) {
			weights := [][]float64{ev.Defaults()}
			for range 20 {
				w := make([]float64, len(ev.Features))
				for i, f := range ev.Features {
					w[i] = f.Min + rng.Float64()*(f.Max-f.Min)
				}
				weights = append(weights, w)
			}
			dst := make([]float64, len(ev.Features))
			for _, p := range positions {
				for _, w := range weights {
					if got, want := ev.Evaluate(p, w), referenceEvaluate(ev.Name, p, w); got != want {
						t.Fatalf("%s with weights %v: %d, reference %d", p, w, got, want)
					}
				}
				ev.FeatureValues(p, dst)
				for i, x := range referenceFeatures(ev.Name, p) {
					if dst[i] != 100*x || math.Signbit(dst[i]) != math.Signbit(100*x) {
						t.Fatalf("%s: feature %s = %v, reference %v", p, ev.Features[i].Name, dst[i], 100*x)
					}
				}
			}
		})
	}
}

// referenceOrderHint is the move-ordering hint through the step table: the
// code the row test replaced.
func referenceOrderHint(p *Position, m games.Move) int32 {
	h := int32(0)
	if n := moveJumps(m); n > 0 {
		h += 100 * int32(n)
	}
	from := moveFrom(m)
	if p.men[p.turn]&(1<<from) != 0 && moveJumps(m) == 0 {
		to := int(step[moveDir(m, 0)][from])
		if lastRow[p.turn]&(1<<to) != 0 {
			h += 50
		}
	}
	return h
}

// TestOrderHintAgainstReference: the hint of every legal move in random
// positions is the reference hint (the search's move order depends on it).
func TestOrderHintAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 33))
	crowning := 0
	for _, p := range randomPositions(t, rng, 20000) {
		moves, _ := p.Moves(nil)
		for _, m := range moves {
			got, want := p.OrderHint(m, 1), referenceOrderHint(p, m)
			if got != want {
				t.Fatalf("%s: hint for %s = %d, reference %d", p, p.FormatMove(m), got, want)
			}
			if want == 50 {
				crowning++
			}
		}
	}
	if crowning < 100 {
		t.Fatalf("only %d crowning moves", crowning)
	}
}
