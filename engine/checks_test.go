package engine_test

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// mateAtDepth1 searches fen to depth 1 with ev and w (quiet checks off when
// off) and wants a win exactly when win: mate in plies with move. With the
// quiet checks on, Minimax must find the searcher's value.
func mateAtDepth1(t *testing.T, fen string, ev *games.Evaluator, w []float64, off, win bool, move string, plies int) {
	t.Helper()
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(engine.Options{TableMiB: 1, NoQuietChecks: off})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := p.FormatMove(res.Move)
	if engine.IsWin(res.Score) != win || (win && (got != move || res.Score != engine.Mate-plies)) {
		t.Errorf("quiet checks off %v: %s scores %d (mate %d), want a win %v, mate in %d plies with %s", off, got, res.Score, engine.Mate, win, plies, move)
	}
	if want, _ := engine.MinimaxNodes(p, ev, w, 1); !off && want != res.Score {
		t.Errorf("Minimax %d, the searcher %d", want, res.Score)
	}
}

// chessEvaluator returns the chess evaluator of that name.
func chessEvaluator(t *testing.T, name string) *games.Evaluator {
	t.Helper()
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestQuietChecks: Philidor's smothered mate, 1.Qg8+ Rxg8 2.Nf7#, found
// at depth 1: the queen's check is the one full-width ply (the capture
// that answers it is the check extension's), and the knight's quiet check
// at the horizon is the quiescence search's, which then finds that Black
// has no answer. Without quiet checks quiescence stands pat a queen down.
func TestQuietChecks(t *testing.T) {
	ev := chessEvaluator(t, "textbook")
	for _, off := range []bool{false, true} {
		mateAtDepth1(t, "5r1k/6pp/7N/8/2Q5/8/5PPP/6K1 w - - 0 1", ev, ev.Defaults(), off, !off, "Qg8+", 3)
	}
}

// TestDeepQuietChecks: the rook ladder 1.Rb5+ K 2.Ra6+ K 3.Rb7+ K 4.Ra8#
// from a king on g5, found at depth 1: the first check is the full-width
// ply and the king's answer the check extension's; quiescence tries the
// second check at its first ply, the third at its third and the mate at
// its fifth (quiet checks at qply 0, 2 and 4). Those deeper checks are
// tried only by a side less than 500 centipawns ahead (deepCheckMargin):
// with the rooks at 100 each White finds the mate; with the default 500
// (a thousand ahead) it stands pat, as it does with quiet checks off.
func TestDeepQuietChecks(t *testing.T) {
	ev := chessEvaluator(t, "textbook")
	for _, c := range []struct {
		rook float64
		off  bool
		win  bool
	}{{100, false, true}, {500, false, false}, {100, true, false}} {
		w := ev.Defaults()
		w[ev.Index("rook")] = c.rook
		mateAtDepth1(t, "8/8/8/6k1/R7/1R6/8/7K w - - 0 1", ev, w, c.off, c.win, "Rb5+", 7)
	}
}
