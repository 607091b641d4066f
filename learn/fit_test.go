package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

func patternsEvaluator(t testing.TB) *games.Evaluator {
	t.Helper()
	for _, ev := range othello.Game().Evaluators() {
		if ev.Name == "patterns" {
			return ev
		}
	}
	t.Fatal("othello has no patterns evaluator")
	return nil
}

// zeroScalars is w with the scalars (mobility, parity) at 0: the tables
// alone evaluate.
func zeroScalars(ev *games.Evaluator) []float64 {
	w := ev.Defaults()
	for i := range w {
		if !ev.IsScale(i) {
			w[i] = 0
		}
	}
	return w
}

// planted is a hidden evaluator: the patterns tables drawn from a seeded
// normal law of deviation 30 (tenths of a disc).
func planted(t testing.TB, ev *games.Evaluator) (*games.Evaluator, []float32) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	data := make([]float32, ev.TablesSize())
	for i := range data {
		data[i] = float32(math.Round(30 * rng.NormFloat64()))
	}
	hidden, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	return hidden, data
}

// squareWeights is a hidden evaluation: a weight per square, the same on
// the squares the board's symmetries exchange, drawn from a seeded uniform
// law on [-40, 40] (tenths of a disc).
func squareWeights() [64]float64 {
	rng := rand.New(rand.NewPCG(7, 8))
	var class [8][8]float64
	for r := range 4 {
		for c := r; c < 4; c++ {
			class[r][c] = math.Round(80*rng.Float64() - 40)
			class[c][r] = class[r][c]
		}
	}
	var w [64]float64
	for s := range 64 {
		r, c := s/8, s%8
		w[s] = class[min(r, 7-r)][min(c, 7-c)]
	}
	return w
}

// hidden is p's square-weighted disc difference from the side to move.
func hidden(p games.Position, sq *[64]float64) float64 {
	s := p.String()
	me, them := byte('X'), byte('O')
	if p.Turn() == games.Second {
		me, them = them, me
	}
	v := 0.0
	for i := range 64 {
		switch s[i] {
		case me:
			v += sq[i]
		case them:
			v -= sq[i]
		}
	}
	return v
}

// plantedSet is n random legal Othello games of 3 to 10 plies whose result
// is drawn by the hidden evaluation of the position before the last move:
// the side to move there wins with probability sigmoid(hidden/10). The
// patterns tables can express the hidden evaluation (every square lies in
// some pattern), and in such short games their configurations recur.
func plantedSet(t testing.TB, n int, sq *[64]float64) *Set {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	set := &Set{Game: othello.Game()}
	var buf []games.Move
	for range n {
		p := set.Game.Start()
		plies := 3 + rng.IntN(8)
		var g Game
		var last games.Position
		for range plies {
			var out games.Outcome
			buf, out = p.Moves(buf[:0])
			if out != games.Ongoing {
				break
			}
			last = p.Clone()
			m := buf[rng.IntN(len(buf))]
			g.Moves = append(g.Moves, m)
			p.Play(m)
		}
		win := 0.0
		if rng.Float64() < sigmoid(hidden(last, sq)/10) {
			win = 1
		}
		g.Result = Label(win, last.Turn())
		set.Games = append(set.Games, g)
	}
	return set
}

// randomSet is n random legal Othello games played to their end, with
// their results.
func randomSet(n int, seed uint64) *Set {
	rng := rand.New(rand.NewPCG(seed, 1))
	set := &Set{Game: othello.Game()}
	var buf []games.Move
	for range n {
		p := set.Game.Start()
		var g Game
		for {
			var out games.Outcome
			buf, out = p.Moves(buf[:0])
			if out != games.Ongoing {
				g.Result = map[games.Outcome]float64{games.FirstWins: 1, games.SecondWins: 0, games.Draw: 0.5}[out]
				break
			}
			m := buf[rng.IntN(len(buf))]
			g.Moves = append(g.Moves, m)
			p.Play(m)
		}
		set.Games = append(set.Games, g)
	}
	return set
}

// lastPositions calls fn with the position before the last move of each
// held-out game of set, and its label.
func lastPositions(set *Set, seed uint64, share float64, fn func(p games.Position, label float64)) {
	for gi, g := range set.Games {
		if !isHeldOut(seed, share, gi) {
			continue
		}
		p := set.Game.Start()
		for _, m := range g.Moves[:len(g.Moves)-1] {
			p.Play(m)
		}
		fn(p, Label(g.Result, p.Turn()))
	}
}

func TestFitLearnsPlantedEvaluator(t *testing.T) {
	ev := patternsEvaluator(t)
	w := zeroScalars(ev)
	sq := squareWeights()
	n := 20000
	if testing.Short() {
		n = 6000
	}
	set := plantedSet(t, n, &sq)
	opts := FitOptions{Epochs: 10, BatchSize: 4096, Rate: 2, HeldOut: 0.2, Seed: 3}
	res, err := Fit(context.Background(), ev, w, set, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.K != DefaultK {
		t.Errorf("K = %g, want DefaultK (zero tables and scalars carry no signal)", res.K)
	}
	if math.Abs(res.StartHeldOut-0.25) > 1e-9 {
		t.Errorf("starting held-out loss %g, want 0.25 (every prediction 1/2)", res.StartHeldOut)
	}
	for _, e := range res.Epochs {
		t.Logf("epoch %d: train %.4f held-out %.4f (%d positions) %v", e.Epoch, e.TrainLoss, e.HeldOutLoss, e.Positions, e.Elapsed)
	}
	// Most positions come before the one that decides the result: the
	// whole held-out loss cannot fall far, the last positions' must.
	if res.HeldOutLoss > 0.93*res.StartHeldOut {
		t.Errorf("held-out loss %g, want below 0.93 times the start's %g", res.HeldOutLoss, res.StartHeldOut)
	}
	if err := ev.Check(res.Weights); err != nil {
		t.Fatal(err)
	}
	fitted, err := ev.WithData(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	agree, total, lastLoss := 0, 0, 0.0
	lastPositions(set, opts.Seed, opts.HeldOut, func(p games.Position, label float64) {
		h, g := hidden(p, &sq), fitted.Evaluate(p, res.Weights)
		d := sigmoid(res.K*float64(g)) - label
		lastLoss += d * d
		if h != 0 {
			total++
			if (h > 0) == (g > 0) {
				agree++
			}
		}
	})
	lastLoss /= float64(total)
	t.Logf("held-out loss %.4f -> %.4f (deciding positions: %.4f); signs agree on %d of %d held-out positions; %d positions, %.0f bytes each, memory %d",
		res.StartHeldOut, res.HeldOutLoss, lastLoss, agree, total, res.Positions, res.BytesPerPosition, res.Memory)
	if lastLoss > 0.75*res.StartHeldOut {
		t.Errorf("held-out loss of the deciding positions %g, want below 0.75 times the start's %g", lastLoss, res.StartHeldOut)
	}
	if total < n/10 || float64(agree) < 0.75*float64(total) {
		t.Errorf("fitted and planted evaluations agree in sign on %d of %d held-out positions, want at least 75%%", agree, total)
	}
}
