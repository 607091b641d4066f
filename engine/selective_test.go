package engine_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/chess"
)

// chessPST returns chess and its pst evaluator.
func chessPST(t testing.TB) (games.Game, *games.Evaluator) {
	t.Helper()
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "pst")
	if err != nil {
		t.Fatal(err)
	}
	return g, ev
}

// TestSelectiveFindsMates: the selective search finds the mates the exact
// one finds, with the same first move and the score of a mate in as many
// plies, at the same depth: the mates of chess's testdata/mates.txt (which
// chess's TestMates holds the exact search to) and three of Win at Chess,
// which both searches are held to here. Where the mate is a zugzwang, the
// selective search is held to it without null move: in kbK5 Black, after
// Ra6, must move and is mated, but a null move says it is safe; a search
// that did not see the mate at its second iteration never searches Ra6 as
// its principal move, where no null move is tried, and with chess's own
// parameters (SPSA's) it is not found at depths 4 to 9.
func TestSelectiveFindsMates(t *testing.T) {
	g, ev := chessPST(t)
	for _, c := range []struct {
		fen, move string
		plies     int
		exact     bool // the exact search is held to it here
		zugzwang  bool // the defender would rather pass: the selective search is held to it without null move
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#", 1, false, false},
		{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qxf7#", 1, false, false},
		{"kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "Ra6", 3, false, true},
		{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nf6+", 3, false, false},
		{"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "Bc5+", 5, false, false},
		{"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "Qg6", 3, true, false},  // WAC 1
		{"r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", "Qxh7+", 3, true, false}, // WAC 4
		{"5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "Qc4+", 3, true, false},          // WAC 5
	} {
		p, err := g.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []engine.Options{{}, {Selective: true, NoNullMove: c.zugzwang}} {
			if !opts.Selective && !c.exact {
				continue
			}
			s, err := engine.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: c.plies + 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FormatMove(res.Move); got != c.move || res.Score != engine.Mate-c.plies {
				t.Errorf("%s (selective %v): %s scoring %d, want %s mating in %d plies (%d)", c.fen, opts.Selective, got, res.Score, c.move, c.plies, engine.Mate-c.plies)
			}
		}
	}
}

// TestSelectiveFindsTactics: the selective search plays the known best
// move of positions from Win at Chess (WAC) that win material or the game,
// as the exact search does at the same depth.
func TestSelectiveFindsTactics(t *testing.T) {
	g, ev := chessPST(t)
	for _, c := range []struct{ fen, move string }{
		{"5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1", "Rg3"},           // WAC 3
		{"7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "Rb7"},                                  // WAC 6
		{"rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1", "Ne3"},         // WAC 7
		{"r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1", "Rf7"},                // WAC 8
		{"3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1", "Bh2+"},            // WAC 9
		{"2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1", "Rxh7"},           // WAC 10
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "Bxa6"}, // kiwipete: the bishop takes
	} {
		p, err := g.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []engine.Options{{}, {Selective: true}} {
			s, err := engine.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 5})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FormatMove(res.Move); got != c.move {
				t.Errorf("%s (selective %v): %s scoring %d, want %s", c.fen, opts.Selective, got, res.Score, c.move)
			}
		}
	}
}

// nullWatch is a chess position that counts the null moves the engine
// plays, and those it plays where it must not: in check, or where the game
// calls a null move unsafe.
type nullWatch struct {
	*chess.Position
	nulls, bad int
}

func (n *nullWatch) PlayNull() {
	n.nulls++
	if n.InCheck() || !n.Position.NullSafe() {
		n.bad++
	}
	n.Position.PlayNull()
}

// TestNullMoveOnlyWhereSafe: on middlegames, endings of kings and pawns and
// positions in check, the selective search plays null moves (it prunes
// with them) at depth 6 but never in check nor where the game says a null
// move is unsafe; the exact search plays none (at depth 4).
func TestNullMoveOnlyWhereSafe(t *testing.T) {
	_, pst := chessPST(t)
	ev := pst.Clone()
	ev.Evaluate = func(p games.Position, w []float64) int { return pst.Evaluate(p.(*nullWatch).Position, w) }
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"8/5pk1/6p1/8/3K4/6P1/5P2/8 w - - 0 1", // kings and pawns: zugzwang
		"8/8/3k4/8/2PK4/8/8/8 w - - 0 1",       // kings and a pawn
		"4k3/8/8/8/8/8/3PPr2/3QK3 w - - 0 1",   // in check
		"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
	}
	total := 0
	for _, fen := range fens {
		p, err := chess.Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []engine.Options{{}, {Selective: true}} {
			w := &nullWatch{Position: p}
			s, err := engine.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			depth := 4
			if opts.Selective {
				depth = 6
			}
			if _, err := s.Search(context.Background(), w, ev, ev.Defaults(), engine.Limits{Depth: depth}); err != nil {
				t.Fatal(err)
			}
			if w.bad > 0 {
				t.Errorf("%s: %d of %d null moves in check or where unsafe", fen, w.bad, w.nulls)
			}
			if !opts.Selective && w.nulls > 0 {
				t.Errorf("%s: the exact search played %d null moves", fen, w.nulls)
			}
			if opts.Selective {
				total += w.nulls
			}
		}
	}
	if total == 0 {
		t.Error("the selective search played no null move")
	}
}

// TestSelectiveDoesNotAllocate: once a searcher's buffers have grown, a
// selective search allocates nothing either.
func TestSelectiveDoesNotAllocate(t *testing.T) {
	for _, c := range selectiveCases {
		ps, ev := c.load(t)
		w := ev.Defaults()
		s, err := engine.New(engine.Options{TableMiB: 1, Selective: true})
		if err != nil {
			t.Fatal(err)
		}
		p := ps[0]
		ctx := context.Background()
		allocs := testing.AllocsPerRun(3, func() {
			s.NewGame()
			s.Search(ctx, p, ev, w, engine.Limits{Depth: 4})
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per selective search", c.game, allocs)
		}
	}
}

// TestSolveStaysExact: Solve on a selective searcher still proves values
// with the full-width search: the same solution as an exact searcher's.
func TestSolveStaysExact(t *testing.T) {
	g, ev := chessPST(t)
	p, err := g.ParsePosition("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var sols [2]engine.Solution
	for i, opts := range []engine.Options{{}, {Selective: true}} {
		s, err := engine.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		if sols[i], err = s.Solve(context.Background(), p, ev, 6); err != nil {
			t.Fatal(err)
		}
	}
	if sols[0] != sols[1] || sols[0].Value != engine.Win {
		t.Errorf("exact %+v, selective %+v; want the same win", sols[0], sols[1])
	}
}

// TestFitProbCut: the relations fitted from Othello positions at depths 3
// and 4 (shallow searches of 1 and 2 plies) are lines of positive slope
// with a positive deviation, none is fitted beyond the depth searched,
// and a depth below 3 is refused.
func TestFitProbCut(t *testing.T) {
	g, err := all.Find("othello")
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	rng := rand.New(rand.NewPCG(52, 3))
	var ps []games.Position
	for len(ps) < 40 {
		if p := randomPosition(t, g, rng, 10+rng.IntN(30)); !gameOver(p) {
			ps = append(ps, p)
		}
	}
	shallow := func(d int) int { return d - 2 }
	stage := func(games.Position) int { return 0 }
	fits, err := engine.FitProbCut(context.Background(), ps, stage, 1, ev, ev.Defaults(), 4, shallow)
	if err != nil {
		t.Fatal(err)
	}
	for d := 3; d <= 4; d++ {
		f := fits[0][d]
		if f.Shallow != d-2 || f.Slope <= 0 || f.Sigma <= 0 {
			t.Errorf("depth %d: %+v, want shallow %d, a positive slope and deviation", d, f, d-2)
		}
	}
	if len(fits[0]) != 5 {
		t.Errorf("%d depths fitted, want 0 to 4", len(fits[0]))
	}
	if _, err := engine.FitProbCut(context.Background(), ps, stage, 1, ev, ev.Defaults(), 2, shallow); err == nil {
		t.Error("a fit to depth 2 was not refused")
	}
}

func gameOver(p games.Position) bool {
	_, o := p.Moves(nil)
	return o != games.Ongoing
}

// TestNullMoveZugzwangBlindSpot pins null move's known blind spot that
// TestSelectiveFindsMates works around: with chess's own parameters the
// selective search does not find kbK5's mate in 2 (Ra6, a zugzwang) at any
// depth from 4 to 9, and without null move it finds it at depth 4. When
// null move learns zugzwang here, this test fails: drop it and the
// workaround.
func TestNullMoveZugzwangBlindSpot(t *testing.T) {
	g, ev := chessPST(t)
	p, err := g.ParsePosition("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	mates := func(o engine.Options, depth int) bool {
		s, err := engine.New(o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		return res.Score == engine.Mate-3 && p.FormatMove(res.Move) == "Ra6"
	}
	for depth := 4; depth <= 9; depth++ {
		if mates(engine.Options{Selective: true}, depth) {
			t.Errorf("depth %d: the selective search finds the zugzwang mate with null move", depth)
		}
	}
	if !mates(engine.Options{Selective: true, NoNullMove: true}, 4) {
		t.Error("depth 4: without null move the selective search misses the mate")
	}
}
