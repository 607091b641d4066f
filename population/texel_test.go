package population

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/learn"
)

// smallTexel is a short Texel run on tic-tac-toe (and the base of other
// tuners' small runs). Its 5 random opening plies vary the self-play games
// enough that its rounds' fits lower the held-out loss: with 3, every fit
// is refused and the run keeps its start. Its 8 games a round give the
// held-out games (a tenth, learn.IsHeldOut) enough to judge a fit by: with
// 6, every fit is refused.
func smallTexel() Config {
	c := smallSPSA()
	c.Algo, c.TexelRounds, c.TexelGames, c.TexelOpeningPlies, c.TexelGatePairs = Texel, 3, 8, 5, 0
	c.CMAESGenerations, c.CMAESPopulation, c.CMAESPairs, c.CMAESSigma = 3, 4, 1, 0.3
	c.BayesRounds, c.BayesPairs = 4, 2
	return c
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

// TestTexelChessMaterial: on chess textbook, Texel's fit (learn's, by
// L-BFGS) on more than 100,000 positions of self-play games of random
// weights in the ranges (pawn 67, knight 281, bishop 562, rook 459, queen
// 931: the bishop above the rook and twice the knight), started from those
// weights as a Texel round starts from the weights that played (its
// quiescence leaves are theirs), the material ranges widened to [0, 2000],
// recovers pawn < knight ≈ bishop < rook < queen. (Texel's own fit once
// started this test from equal material values; the one fit finds its
// positions' quiescence leaves with the weights it starts from, and with
// every piece worth 300 every exchange looks even and the leaves say
// little: the fit then ends at 232, 370, 230, 358, 586.) The games take
// about a minute on two cores: not under -short.
func TestTexelChessMaterial(t *testing.T) {
	long(t, "plays about 1,500 chess games")
	g := mustFind(t, "chess")
	ev, err := games.FindEvaluator(g, "textbook")
	if err != nil {
		t.Fatal(err)
	}
	start := space{ev.Features}.random(rngFor(5, "test", 0, 0))
	if s := start[:5]; !(s[2] > s[3] && s[2] > 1.25*s[1]) {
		t.Fatalf("the random start %v has its bishop below its rook or near its knight: the test needs one that is wrong", s)
	}
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
	set := &learn.Set{Game: g}
	for i := 0; i < cfg.TexelGames; i++ {
		r, _, _ := store.Game(GameKey{StageTexel, 0, i})
		lg, ok, err := fitGame(g, r.Record)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			set.Games = append(set.Games, lg)
		}
	}
	if set.Positions() < 100_000 {
		t.Fatalf("only %d positions from %d games", set.Positions(), len(set.Games))
	}
	began = time.Now()
	wide := ev.Clone()
	for i := 0; i < 5; i++ {
		wide.Features[i].Min, wide.Features[i].Max = 0, 2000
	}
	fit, err := learn.Fit(context.Background(), weightsOnly(wide), start, set, learn.FitOptions{Seed: 5, Snap: space{wide.Features}.snapAll})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	m := fit.Raw[:5]
	t.Logf("%d games in %v; %d positions fitted; fit in %v (%v of it finding the leaves and K; %d iterations), K %.5f, loss %.5f -> %.5f",
		len(set.Games), played.Round(time.Second), fit.Positions, took.Round(time.Millisecond), fit.Prepare.Round(time.Millisecond), fit.Iterations, fit.K, fit.StartLoss, fit.Loss)
	t.Logf("pawn %.0f knight %.0f bishop %.0f rook %.0f queen %.0f (snapped %v)", m[0], m[1], m[2], m[3], m[4], fit.Weights[:5])
	if !(m[0] < m[1] && m[0] < m[2] && m[1] < m[3] && m[2] < m[3] && m[3] < m[4]) {
		t.Errorf("material values out of order: %v", m)
	}
	if math.Abs(m[1]-m[2]) > 0.25*(m[1]+m[2])/2 {
		t.Errorf("knight %.0f and bishop %.0f differ by more than 25%%", m[1], m[2])
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
