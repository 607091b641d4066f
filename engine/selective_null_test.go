package engine_test

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
)

// TestNullMoveSwitches: chess's defaults have null move on
// (null-min-depth above 0, which 'tune engine chess' and the selective
// players use), and the selective search plays null moves with them; the
// switch NoNullMove (the -null variant of the strength matches) and
// null-min-depth 0 each turn it off: no null move is played (nor by
// the exact search).
func TestNullMoveSwitches(t *testing.T) {
	_, pst := chessPST(t)
	ev := pst.Clone()
	ev.Evaluate = func(p games.Position, w []float64) int { return pst.Evaluate(p.(*nullWatch).Position, w) }
	p, err := chess.Parse("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	if err != nil {
		t.Fatal(err)
	}
	defaults := engine.DefaultSearchParams(p)
	if defaults.NullMinDepth == 0 {
		t.Fatal("chess's default null-min-depth is 0: null move off")
	}
	off := defaults
	off.NullMinDepth = 0
	for _, c := range []struct {
		name string
		opts engine.Options
		on   bool
	}{
		{"defaults", engine.Options{Selective: true}, true},
		{"NoNullMove", engine.Options{Selective: true, NoNullMove: true}, false},
		{"null-min-depth=0", engine.Options{Selective: true, Params: off}, false},
		{"exact", engine.Options{}, false},
	} {
		s, err := engine.New(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		w := &nullWatch{Position: p}
		depth := 7
		if !c.opts.Selective {
			depth = 4
		}
		if _, err := s.Search(context.Background(), w, ev, ev.Defaults(), engine.Limits{Depth: depth}); err != nil {
			t.Fatal(err)
		}
		if (w.nulls > 0) != c.on {
			t.Errorf("%s: %d null moves, want them %v", c.name, w.nulls, map[bool]string{true: "played", false: "none"}[c.on])
		}
	}
}

// TestNullMoveRefinementsDoNotAllocate: with the null move's reduction by
// the evaluation and its table check on, a selective search still
// allocates nothing once the searcher's buffers have grown.
func TestNullMoveRefinementsDoNotAllocate(t *testing.T) {
	_, ev := chessPST(t)
	p, err := chess.Parse("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	if err != nil {
		t.Fatal(err)
	}
	params := engine.DefaultSearchParams(p)
	params.NullEvalMargin, params.NullTableCheck = 200, 1
	s, err := engine.New(engine.Options{TableMiB: 1, Selective: true, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	w, ctx := ev.Defaults(), context.Background()
	allocs := testing.AllocsPerRun(3, func() {
		s.NewGame()
		s.Search(ctx, p, ev, w, engine.Limits{Depth: 6})
	})
	if allocs != 0 {
		t.Errorf("%v allocations per search", allocs)
	}
}
