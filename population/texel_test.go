package population

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// smallTexel is a short Texel run on tic-tac-toe (and the base of other
// tuners' small runs). Its 5 random opening plies vary the self-play games
// enough that its rounds' fits lower the held-out loss: with 3, every fit
// is refused and the run keeps its start.
func smallTexel() Config {
	c := smallSPSA()
	c.Algo, c.TexelRounds, c.TexelGames, c.TexelOpeningPlies, c.TexelGatePairs = Texel, 3, 6, 5, 0
	c.CMAESGenerations, c.CMAESPopulation, c.CMAESPairs, c.CMAESSigma = 3, 4, 1, 0.3
	c.BayesRounds, c.BayesPairs = 4, 2
	return c
}

// TestTexelLossGradient: the loss's gradient is the derivative of the
// loss (central differences).
func TestTexelLossGradient(t *testing.T) {
	p := &Positions{Dim: 3, Values: []float64{1, 2, -1, 0, 3, 1, -2, 1, 0.5, 4, -1, 2}, Results: []float64{1, 0.5, 0, 1}}
	w := []float64{0.3, -0.2, 0.7}
	g := make([]float64, 3)
	texelLoss(p, 0.8, w, g)
	for j := range w {
		h := 1e-6
		a, b := append([]float64(nil), w...), append([]float64(nil), w...)
		a[j] += h
		b[j] -= h
		num := (texelLoss(p, 0.8, a, nil) - texelLoss(p, 0.8, b, nil)) / (2 * h)
		if math.Abs(num-g[j]) > 1e-7 {
			t.Errorf("d/dw%d: %v, numeric %v", j, g[j], num)
		}
	}
}

// TestTexelRun: a short Texel run on tic-tac-toe records its self-play
// games, fits, and ends with weights in the ranges.
func TestTexelRun(t *testing.T) {
	store := NewMemoryStore()
	res, err := newTestTuner(t, smallTexel(), 2, store, nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(store.Generations) != 3 {
		t.Fatalf("%d generations, want 3", len(store.Generations))
	}
	if _, ok, _ := store.Game(GameKey{StageTexel, 2, 5}); !ok {
		t.Fatal("the last round's games are not recorded under the texel stage")
	}
	ev, _ := games.FindEvaluator(mustFind(t, "tictactoe"), "")
	if err := ev.Check(res.Best.Weights); err != nil {
		t.Fatal(err)
	}
}

// TestTexelChessMaterial: on chess textbook, Texel's fit on more than
// 100,000 quiet positions of self-play games (of random weights in the
// ranges), started from equal material values (every piece 300, the
// material ranges widened to [0, 2000] so that equal values are allowed),
// recovers pawn < knight ≈ bishop < rook < queen. The games take a few
// minutes on two cores: not under -short.
func TestTexelChessMaterial(t *testing.T) {
	long(t, "plays about 1,500 chess games")
	g := mustFind(t, "chess")
	ev, err := games.FindEvaluator(g, "textbook")
	if err != nil {
		t.Fatal(err)
	}
	start := space{ev.Features}.random(rngFor(5, "test", 0, 0))
	cfg := Defaults()
	cfg.Game, cfg.Evaluator, cfg.Algo, cfg.Depth, cfg.Openings, cfg.MaxPlies = "chess", "textbook", Texel, 1, "", 200
	cfg.TexelRounds, cfg.TexelGames, cfg.TexelOpeningPlies, cfg.YardstickPairs, cfg.LadderPairs, cfg.Seed = 1, 1600, 8, 0, -1, 5
	store := NewMemoryStore()
	tu := newTestTuner(t, cfg, 2, store, start, nil)
	began := time.Now()
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	played := time.Since(began)
	pos := &Positions{}
	for i := 0; i < cfg.TexelGames; i++ {
		r, _, _ := store.Game(GameKey{StageTexel, 0, i})
		if err := pos.AddGame(g, ev, start, r.Record); err != nil {
			t.Fatal(err)
		}
	}
	if pos.Len() < 100_000 {
		t.Fatalf("only %d quiet positions from %d games", pos.Len(), pos.Games)
	}
	began = time.Now()
	wide := ev.Clone()
	equal := ev.Defaults()
	for i := 0; i < 5; i++ {
		wide.Features[i].Min, wide.Features[i].Max = 0, 2000
		equal[i] = 300
	}
	fit, err := FitWeights(context.Background(), pos, wide, equal)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	m := fit.Raw[:5]
	t.Logf("%d games in %v; %d quiet positions (%d resolved by quiescence); fit in %v (%d iterations), K %.5f, loss %.5f -> %.5f",
		pos.Games, played.Round(time.Second), pos.Len(), pos.Resolved, took.Round(time.Millisecond), fit.Iterations, fit.K, fit.LossStart, fit.Loss)
	t.Logf("pawn %.0f knight %.0f bishop %.0f rook %.0f queen %.0f (snapped %v)", m[0], m[1], m[2], m[3], m[4], fit.Weights[:5])
	if !(m[0] < m[1] && m[0] < m[2] && m[1] < m[3] && m[2] < m[3] && m[3] < m[4]) {
		t.Errorf("material values out of order: %v", m)
	}
	if math.Abs(m[1]-m[2]) > 0.25*(m[1]+m[2])/2 {
		t.Errorf("knight %.0f and bishop %.0f differ by more than 25%%", m[1], m[2])
	}
	if took > time.Minute {
		t.Errorf("the fit took %v, more than a minute", took)
	}
}

func mustFind(t testing.TB, name string) games.Game {
	t.Helper()
	g, err := all.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestQuietLeaves: the leaf Texel's positions take from the engine's
// quiescence search is where the search's score comes from (its static
// evaluation, seen from the root's side), on chess positions with
// captures, and the position comes back unchanged.
func TestQuietLeaves(t *testing.T) {
	g := mustFind(t, "chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	s, err := engine.New(engine.Options{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	resolved := 0
	for _, fen := range []string{
		"4r1kr/1ppq3p/4bppQ/p2Nb3/P2n4/1P1BR3/1BPP1PP1/4R1K1 w - - 1 23",
		"r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	} {
		pos, err := g.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		w := ev.Defaults()
		leaf, score := s.QuietLeaf(pos, ev, w, nil)
		if pos.String() != fen {
			t.Fatalf("%s: came back as %s", fen, pos)
		}
		for _, m := range leaf {
			pos.Play(m)
		}
		v := ev.Evaluate(pos, w)
		if len(leaf)%2 == 1 {
			v = -v
		}
		if v != score {
			t.Errorf("%s: leaf %v evaluates to %d, the search scored %d", fen, leaf, v, score)
		}
		if len(leaf) > 0 {
			resolved++
		}
	}
	if resolved == 0 {
		t.Error("no position resolved: the first one's captures win material")
	}
}
