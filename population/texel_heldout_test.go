package population

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/learn"
)

// tictactoePositions returns every ongoing tic-tac-toe position reachable
// from the start, once each, in a fixed order.
func tictactoePositions(t *testing.T) []games.Position {
	t.Helper()
	g := mustFind(t, "tictactoe")
	seen := map[string]bool{}
	var out []games.Position
	var walk func(p games.Position)
	walk = func(p games.Position) {
		moves, o := p.Moves(nil)
		if o != games.Ongoing || seen[p.String()] {
			return
		}
		seen[p.String()] = true
		out = append(out, p.Clone())
		for _, m := range moves {
			p.Play(m)
			walk(p)
			p.Undo()
		}
	}
	walk(g.Start())
	return out
}

// signResult is the result for the side to move that the sign of q
// predicts: 1, 0.5 or 0.
func signResult(q float64) float64 {
	switch {
	case q > 0:
		return 1
	case q < 0:
		return 0
	}
	return 0.5
}

// craftedOverfit labels every ongoing tic-tac-toe position for a run of
// seed, each a game of its own in the order given (as a Texel run's given
// positions are): a held-out one (learn.IsHeldOut) by the sign of the
// default weights' evaluation, a training one by the sign of other weights,
// which ignore threats. The fit on the training positions learns those
// other weights, which predict the held-out results worse than the
// defaults.
func craftedOverfit(t *testing.T, seed uint64) (data []LabelledPosition, held int) {
	t.Helper()
	ev, _ := games.FindEvaluator(mustFind(t, "tictactoe"), "")
	def, other := ev.Defaults(), []float64{1, -1, 0, 0}
	x := make([]float64, len(def))
	for i, p := range tictactoePositions(t) {
		ev.FeatureValues(p, x)
		w := other
		if learn.IsHeldOut(seed, learn.DefaultHeldOut, i) {
			w = def
			held++
		}
		q := 0.0
		for j := range x {
			q += w[j] * x[j]
		}
		r := signResult(q)
		if p.Turn() == games.Second {
			r = 1 - r
		}
		data = append(data, LabelledPosition{Position: p.String(), First: r})
	}
	return data, held
}

// TestTexelHeldOutByGame: Texel's fit holds out learn's share of its games
// (learn.IsHeldOut): about a tenth of tic-tac-toe's 4,520 positions, each
// a game of its own, chosen by the seed.
func TestTexelHeldOutByGame(t *testing.T) {
	ps := tictactoePositions(t)
	if len(ps) != 4520 {
		t.Fatalf("%d ongoing tic-tac-toe positions, want 4520", len(ps))
	}
	g := mustFind(t, "tictactoe")
	ev, _ := games.FindEvaluator(g, "")
	set := &learn.Set{Game: g}
	for _, p := range ps {
		set.Games = append(set.Games, learn.Game{From: p, Result: 1})
	}
	held := map[uint64]int{}
	for _, seed := range []uint64{1, 2} {
		r, err := FitRound(context.Background(), set, ev, ev.Defaults(), seed)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ps {
			if learn.IsHeldOut(seed, learn.DefaultHeldOut, i) {
				held[seed]++
			}
		}
		if r.Held != held[seed] || r.Train != len(ps)-held[seed] {
			t.Errorf("seed %d: %d positions held out and %d fitted; the rule holds out %d of %d", seed, r.Held, r.Train, held[seed], len(ps))
		}
		if share := float64(r.Held) / float64(len(ps)); math.Abs(share-learn.DefaultHeldOut) > 0.02 {
			t.Errorf("seed %d: %.3f of the positions held out, want %.2f", seed, share, learn.DefaultHeldOut)
		}
	}
	differ := 0
	for i := range ps {
		if learn.IsHeldOut(1, learn.DefaultHeldOut, i) != learn.IsHeldOut(2, learn.DefaultHeldOut, i) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("seeds 1 and 2 hold out the same games")
	}
}

// TestFitRoundRefusesOverfit: on positions whose training labels follow
// other weights than their held-out labels, the fit lowers the training
// loss and raises the held-out loss, and FitRound refuses it; on labels
// that agree, it accepts the fit.
func TestFitRoundRefusesOverfit(t *testing.T) {
	g := mustFind(t, "tictactoe")
	ev, _ := games.FindEvaluator(g, "")
	data, _ := craftedOverfit(t, 7)
	start := []float64{0.5, -0.5, 0.5, -0.5}
	build := func(agree bool) *learn.Set {
		set := &learn.Set{Game: g}
		for i, lp := range data {
			p, err := g.ParsePosition(lp.Position)
			if err != nil {
				t.Fatal(err)
			}
			if agree && !learn.IsHeldOut(7, learn.DefaultHeldOut, i) { // label the training positions as the held-out ones
				x := make([]float64, 4)
				ev.FeatureValues(p, x)
				r := signResult(x[0] - x[1] + 2*x[2] - 2*x[3])
				if lp.First = r; p.Turn() == games.Second {
					lp.First = 1 - r
				}
			}
			set.Games = append(set.Games, learn.Game{From: p, Result: lp.First})
		}
		return set
	}
	r, err := FitRound(context.Background(), build(false), ev, start, 7)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	if !(r.TrainFit < r.TrainStart) || !(r.HeldFit > r.HeldStart) {
		t.Fatalf("not an overfit: %v", r)
	}
	if r.Accepted || r.Reason == "" || !slices.Equal(r.Champion(start), start) {
		t.Fatalf("the fit raising the held-out loss was accepted: %v", r)
	}
	if r, err = FitRound(context.Background(), build(true), ev, start, 7); err != nil {
		t.Fatal(err)
	}
	t.Log(r)
	if !r.Accepted || !(r.HeldFit < r.HeldStart) || slices.Equal(r.Champion(start), start) {
		t.Fatalf("the fit lowering the held-out loss was refused: %v", r)
	}
	if r, _ = FitRound(context.Background(), &learn.Set{Game: g}, ev, start, 7); r.Accepted || r.Reason == "" {
		t.Fatalf("a round with no positions accepted a fit: %v", r)
	}
}

// TestTexelRunKeepsWeightsOnOverfit: a Texel run whose given positions
// make the fit overfit its training positions keeps the start weights
// (the round's Best is the start, genome 0), records the refused fit
// beside it with its worse held-out loss, and ends with the start weights.
func TestTexelRunKeepsWeightsOnOverfit(t *testing.T) {
	cfg := smallTexel()
	cfg.TexelRounds, cfg.TexelGames, cfg.Seed, cfg.LadderPairs = 2, 2, 11, -1
	ev, _ := games.FindEvaluator(mustFind(t, "tictactoe"), "")
	start := ev.Defaults()
	store := NewMemoryStore()
	tu := newTestTuner(t, cfg, 2, store, start, nil)
	tu.TexelData.Positions, _ = craftedOverfit(t, cfg.Seed)
	res, err := tu.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Best.Weights, start) || res.Best.ID != 0 {
		t.Fatalf("the run ended with genome %d %v, want the start %v (genome 0)", res.Best.ID, res.Best.Weights, start)
	}
	for _, g := range store.Generations {
		if g.Best != 0 || g.Distance != 0 || len(g.Genomes) != 2 || g.Genomes[1].ID != g.Index+1 {
			t.Fatalf("round %d: best %d, moved %v, genomes %+v; want the start kept and the refused fit beside it", g.Index, g.Best, g.Distance, g.Genomes)
		}
		if g.BestFitness != g.WorstFitness || !(g.Genomes[1].Fitness < g.BestFitness) {
			t.Errorf("round %d: held-out losses %v (kept) and %v (start), refused fit %v", g.Index, -g.BestFitness, -g.WorstFitness, -g.Genomes[1].Fitness)
		}
	}
}

// TestTexelHeldOutNeverRises: in a Texel run on checkers, each round's
// champion has a held-out loss no higher than the weights the round began
// from, and strictly lower when the round took its fit, as the test
// measures anew from the recorded games: it rebuilds each round's set of
// games, fits again (K, the weights) and reads both held-out losses.
func TestTexelHeldOutNeverRises(t *testing.T) {
	cfg := smallTexel()
	cfg.Game, cfg.Depth, cfg.MaxPlies, cfg.LadderPairs, cfg.YardstickPairs = "checkers", 1, 120, -1, 0
	// No gates: the test rebuilds the set from the self-play games alone,
	// and checks the held-out rule by itself (TestTexelGate checks the
	// gate).
	cfg.TexelRounds, cfg.TexelGames, cfg.TexelOpeningPlies, cfg.TexelGatePairs = 4, 12, 6, 0
	g := mustFind(t, "checkers")
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		t.Fatal(err)
	}
	start := space{ev.Features}.snapAll(ev.Defaults())
	store := NewMemoryStore()
	if _, err := newTestTuner(t, cfg, 2, store, start, nil).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(store.Generations) != cfg.TexelRounds {
		t.Fatalf("%d rounds, want %d", len(store.Generations), cfg.TexelRounds)
	}
	set := &learn.Set{Game: g}
	current, accepted := start, 0
	for _, gen := range store.Generations {
		for i := 0; i < cfg.TexelGames; i++ {
			r, ok, _ := store.Game(GameKey{StageTexel, gen.Index, i})
			if !ok {
				t.Fatalf("game %d of round %d is not recorded", i, gen.Index)
			}
			lg, ok, err := fitGame(g, r.Record)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				set.Games = append(set.Games, lg)
			}
		}
		var champion []float64
		for _, x := range gen.Genomes {
			if x.ID == gen.Best {
				champion = x.Weights
			}
		}
		r, err := FitRound(context.Background(), set, ev, current, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		before, after := r.HeldStart, r.HeldStart
		if slices.Equal(champion, r.Fit.Weights) {
			after = r.HeldFit
		}
		t.Logf("round %d: best %d, held-out loss %.6g -> %.6g, K %.3g (%d positions held out of %d)", gen.Index, gen.Best, before, after, r.Fit.K, r.Held, r.Held+r.Train)
		if math.Abs(-gen.BestFitness-after) > 1e-12 || math.Abs(-gen.WorstFitness-before) > 1e-12 {
			t.Errorf("round %d records held-out losses %v and %v, measured %v and %v", gen.Index, -gen.WorstFitness, -gen.BestFitness, before, after)
		}
		switch took := gen.Best == gen.Index+1; {
		case took && !(after < before):
			t.Errorf("round %d took a fit that does not lower the held-out loss", gen.Index)
		case !took && !slices.Equal(champion, current):
			t.Errorf("round %d refused its fit but changed the weights", gen.Index)
		case took:
			accepted++
		}
		current = champion
	}
	if accepted == 0 {
		t.Error("no round took its fit: the check above checked nothing")
	}
}

// TestTexelLossesOf: a round's losses are read back from its Generation
// as texel records it: the fit's training and held-out losses and its
// start's, whether it took its fit, and a refused fit's held-out loss
// from its genome.
func TestTexelLossesOf(t *testing.T) {
	took := Generation{Index: 2, Best: 3, BestFitness: -0.1, WorstFitness: -0.125, MeanFitness: -0.0875,
		Genomes: []Genome{{ID: 3, Fitness: -0.1}}}
	if got, want := TexelLossesOf(took), (TexelLosses{Train: 0.0875, Held: 0.1, HeldStart: 0.125, Accepted: true, Champion: 3}); got != want {
		t.Errorf("a round that took its fit: %+v, want %+v", got, want)
	}
	kept := Generation{Index: 2, Best: 2, BestFitness: -0.125, WorstFitness: -0.125, MeanFitness: -0.0875,
		Genomes: []Genome{{ID: 2, Fitness: -0.125}, {ID: 3, Fitness: -0.126}}}
	if got, want := TexelLossesOf(kept), (TexelLosses{Train: 0.0875, Held: 0.126, HeldStart: 0.125, Champion: 2}); got != want {
		t.Errorf("a round that refused its fit: %+v, want %+v", got, want)
	}
	empty := Generation{Index: 0, Best: 0, BestFitness: -0.25, WorstFitness: -0.25, Genomes: []Genome{{ID: 0, Fitness: -0.25}}}
	if got := TexelLossesOf(empty); got.Held != 0.25 || got.Accepted {
		t.Errorf("a round with nothing to fit: %+v, want its start's held-out loss and no fit", got)
	}
}
