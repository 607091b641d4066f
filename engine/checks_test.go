package engine_test

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestQuietChecks: Philidor's smothered mate, 1.Qg8+ Rxg8 2.Nf7#, found
// at depth 1: the queen's check is the one full-width ply (the capture
// that answers it is the check extension's), and the knight's quiet check
// at the horizon is the quiescence search's, which then finds that Black
// has no answer. Without quiet checks quiescence stands pat a queen down.
func TestQuietChecks(t *testing.T) {
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	for _, c := range []struct {
		off bool
		win bool
	}{{false, true}, {true, false}} {
		p, err := g.ParsePosition("5r1k/6pp/7N/8/2Q5/8/5PPP/6K1 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.New(engine.Options{TableMiB: 1, NoQuietChecks: c.off})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		move := p.FormatMove(res.Move)
		if engine.IsWin(res.Score) != c.win || (c.win && (move != "Qg8+" || res.Score != engine.Mate-3)) {
			t.Errorf("quiet checks off %v: %s scores %d (mate %d), want a win %v, mate in 3 plies with Qg8+", c.off, move, res.Score, engine.Mate, c.win)
		}
		if want, _ := engine.MinimaxNodes(p, ev, ev.Defaults(), 1); !c.off && want != res.Score {
			t.Errorf("Minimax %d, the searcher %d", want, res.Score)
		}
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
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "textbook")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rook float64
		off  bool
		win  bool
	}{{100, false, true}, {500, false, false}, {100, true, false}} {
		w := ev.Defaults()
		w[ev.Index("rook")] = c.rook
		p, err := g.ParsePosition("8/8/8/6k1/R7/1R6/8/7K w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.New(engine.Options{TableMiB: 1, NoQuietChecks: c.off})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		move := p.FormatMove(res.Move)
		if engine.IsWin(res.Score) != c.win || (c.win && (move != "Rb5+" || res.Score != engine.Mate-7)) {
			t.Errorf("rook %v, quiet checks off %v: %s scores %d (mate %d), want a win %v, mate in 7 plies with Rb5+", c.rook, c.off, move, res.Score, engine.Mate, c.win)
		}
		if want, _ := engine.MinimaxNodes(p, ev, w, 1); !c.off && want != res.Score {
			t.Errorf("rook %v: Minimax %d, the searcher %d", c.rook, want, res.Score)
		}
	}
}
