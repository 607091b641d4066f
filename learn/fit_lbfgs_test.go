package learn

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/tictactoe"
)

// tictactoeLabelled is every ongoing tic-tac-toe position, each a game of
// its own (Game.From), labelled by the hidden weights: the side to move's
// expected score is sigmoid(k * hidden . values).
func tictactoeLabelled(t *testing.T, ev *games.Evaluator, hidden []float64, k float64) *Set {
	t.Helper()
	g := tictactoe.Game()
	set := &Set{Game: g}
	seen := map[string]bool{}
	x := make([]float64, len(hidden))
	var walk func(p games.Position)
	walk = func(p games.Position) {
		moves, out := p.Moves(nil)
		if out != games.Ongoing || seen[p.String()] {
			return
		}
		seen[p.String()] = true
		ev.FeatureValues(p, x)
		q := 0.0
		for j := range x {
			q += hidden[j] * x[j]
		}
		set.Games = append(set.Games, Game{From: p.Clone(), Result: Label(sigmoid(k*q), p.Turn())})
		for _, m := range moves {
			p.Play(m)
			walk(p)
			p.Undo()
		}
	}
	walk(g.Start())
	if len(set.Games) != 4520 {
		t.Fatalf("%d ongoing tic-tac-toe positions, want 4520", len(set.Games))
	}
	return set
}

// TestFitScalarsByLBFGS: an evaluator without tables is fitted by L-BFGS.
// On tic-tac-toe positions labelled by hidden weights through the
// logistic of the same K, the fit from other weights finds the hidden
// ones (to 1e-3), its training and held-out losses fall to about 0 with
// the held-out fall's standard error reported, Snap gives the weights on
// their steps (Raw the optimum), and 1 and 3 workers give the same bits.
func TestFitScalarsByLBFGS(t *testing.T) {
	ev, err := games.FindEvaluator(tictactoe.Game(), "")
	if err != nil {
		t.Fatal(err)
	}
	hidden := []float64{0.8, -1.3, 2.4, -2.1}
	const k = 0.2
	set := tictactoeLabelled(t, ev, hidden, k)
	snap := func(w []float64) []float64 {
		out := make([]float64, len(w))
		for i, v := range w {
			out[i] = math.Round(v*10) / 10
		}
		return out
	}
	var first FitResult
	for _, workers := range []int{1, 3} {
		res, err := Fit(context.Background(), ev, ev.Defaults(), set, FitOptions{K: k, Seed: 3, Workers: workers, Snap: snap})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d workers: %d iterations, loss %.6f -> %.6f, held-out %.6f -> %.6f ± %.6f, raw %v, weights %v",
			workers, res.Iterations, res.StartLoss, res.Loss, res.StartHeldOut, res.HeldOutLoss, res.HeldOutError, res.Raw, res.Weights)
		for j, h := range hidden {
			if math.Abs(res.Raw[j]-h) > 1e-3 {
				t.Errorf("weight %d: fitted %v, hidden %v", j, res.Raw[j], h)
			}
		}
		if !slices.Equal(res.Weights, snap(res.Raw)) {
			t.Errorf("weights %v are not the raw optimum %v snapped", res.Weights, res.Raw)
		}
		if !(res.StartLoss > 0.01 && res.Loss < 1e-4 && res.HeldOutLoss < 1e-4 && res.StartHeldOut > 0.01 && res.HeldOutError > 0) {
			t.Errorf("losses %v -> %v, held-out %v -> %v ± %v: want both to fall to about 0, with an error", res.StartLoss, res.Loss, res.StartHeldOut, res.HeldOutLoss, res.HeldOutError)
		}
		if held := res.HeldOutPositions; held < 350 || held > 550 || held+res.Positions != len(set.Games) {
			t.Errorf("%d positions held out and %d fitted of %d: want about a tenth held out", held, res.Positions, len(set.Games))
		}
		if workers == 1 {
			first = res
			continue
		}
		if !slices.Equal(res.Raw, first.Raw) || res.Loss != first.Loss || res.HeldOutError != first.HeldOutError {
			t.Errorf("3 workers: %v (loss %v), 1 worker: %v (loss %v)", res.Raw, res.Loss, first.Raw, first.Loss)
		}
	}
}

// TestFitScalarsStayInRange: labels of hidden weights beyond a feature's
// range (threats-mine 9, the range [-5, 5]) are fitted with every weight
// in its range, the loss lowered; and K is fitted (not given) too.
func TestFitScalarsStayInRange(t *testing.T) {
	ev, err := games.FindEvaluator(tictactoe.Game(), "")
	if err != nil {
		t.Fatal(err)
	}
	set := tictactoeLabelled(t, ev, []float64{0.5, -0.5, 9, -2}, 0.2)
	for _, k := range []float64{0.2, 0} {
		res, err := Fit(context.Background(), ev, []float64{0.5, -0.5, 4, -2}, set, FitOptions{K: k, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("K %v: weights %v (raw %v), loss %v -> %v", res.K, res.Weights, res.Raw, res.StartLoss, res.Loss)
		if err := ev.Check(res.Weights); err != nil || !(res.K > 0) || !(res.Loss < res.StartLoss) {
			t.Errorf("K %v: weights %v (%v), loss %v -> %v", res.K, res.Weights, err, res.StartLoss, res.Loss)
		}
	}
}
