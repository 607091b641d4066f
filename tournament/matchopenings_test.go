package tournament

import (
	"context"
	"slices"
	"testing"

	"github.com/gametune/gametune/games/all"
)

// TestLoadMatchOpenings: a match of more pairs than one batch of random
// openings gets an opening for every pair, the first batch first (a match
// of up to 64 pairs is unchanged), the same for the same seed; "default"
// for a game without a book extends the same way; a small game stops when
// it has no more; the start is left alone.
func TestLoadMatchOpenings(t *testing.T) {
	ctx := context.Background()
	g, _ := all.Find("othello")
	first, err := LoadOpenings(ctx, g, "random:8", 7, false)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := LoadMatchOpenings(ctx, g, "random:8", 7, false, 200)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for _, op := range ops {
		distinct[op] = true
	}
	if len(ops) < 200 || len(distinct) != len(ops) || !slices.Equal(ops[:len(first)], first) {
		t.Fatalf("%d openings (%d distinct) for 200 pairs; the first batch first: %v", len(ops), len(distinct), slices.Equal(ops[:len(first)], first))
	}
	again, _ := LoadMatchOpenings(ctx, g, "default", 7, false, 200)
	if !slices.Equal(again, ops) {
		t.Errorf("default openings of a game without a book differ from random:8's")
	}
	small, err := LoadMatchOpenings(ctx, g, "random:8", 7, false, 10)
	if err != nil || !slices.Equal(small, first) {
		t.Errorf("10 pairs: %d openings, want the first batch's %d", len(small), len(first))
	}
	ttt, _ := all.Find("tictactoe")
	few, err := LoadMatchOpenings(ctx, ttt, "random:1", 7, false, 1000)
	if err != nil || len(few) == 0 || len(few) > 9 {
		t.Errorf("tic-tac-toe random:1 for 1000 pairs: %d openings (%v), want at most the 9 first moves", len(few), err)
	}
	if none, err := LoadMatchOpenings(ctx, g, "start", 7, false, 1000); err != nil || none != nil {
		t.Errorf("start: %v, %v", none, err)
	}
}
