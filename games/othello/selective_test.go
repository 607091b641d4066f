package othello_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// probCutPositions plays n positions' worth of self-play games with the
// patterns evaluator at depth 2 from random openings of 2 to 9 plies (one
// move in ten random after that, for variety), and keeps one position in
// four with more than othello.ExactEmpties empty squares, each re-read
// from its notation so that it carries no history.
func probCutPositions(t *testing.T, n int, seed uint64) []games.Position {
	t.Helper()
	ev, err := games.FindEvaluator(othello.Game(), "patterns")
	if err != nil {
		t.Fatal(err)
	}
	w := ev.Defaults()
	s, err := engine.New(engine.Options{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 52))
	var out []games.Position
	for len(out) < n {
		p := othello.Start()
		random := 2 + rng.IntN(8)
		s.NewGame()
		for ply := 0; ; ply++ {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				break
			}
			if p.Empties() > othello.ExactEmpties && ply >= random && rng.IntN(4) == 0 {
				q, err := othello.Parse(p.String())
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, q)
			}
			m := moves[rng.IntN(len(moves))]
			if ply >= random && rng.IntN(10) != 0 {
				res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 2})
				if err != nil {
					t.Fatal(err)
				}
				m = res.Move
			}
			p.Play(m)
		}
	}
	return out[:n]
}

// TestFitProbCut fits Othello's Multi-ProbCut relations for the patterns
// evaluator from self-play positions (GAMETUNE_EXPERIMENTS=1; about ten
// minutes; GAMETUNE_POSITIONS positions, 720 by default) and prints them as the table of selective.go.
func TestFitProbCut(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a fit of minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	ev, err := games.FindEvaluator(othello.Game(), "patterns")
	if err != nil {
		t.Fatal(err)
	}
	n := 720
	if s := os.Getenv("GAMETUNE_POSITIONS"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			t.Fatalf("GAMETUNE_POSITIONS=%q: want a number", s)
		}
	}
	positions := probCutPositions(t, n, 1)
	stage := func(p games.Position) int { return othello.ProbCutStage(p.(*othello.Position).Empties()) }
	fits, err := engine.FitProbCut(context.Background(), positions, stage, othello.ProbCutStages, ev, ev.Defaults(), othello.ProbCutMaxDepth, othello.ProbCutShallow)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for st, row := range fits {
		fmt.Fprintf(&b, "\t{ // stage %d\n", st)
		for d, f := range row {
			if f.Shallow > 0 {
				fmt.Fprintf(&b, "\t\t%d: {Shallow: %d, Slope: %.3f, Offset: %.1f, Sigma: %.1f},\n", d, f.Shallow, f.Slope, f.Offset, f.Sigma)
			}
		}
		b.WriteString("\t},\n")
	}
	t.Logf("%d positions; the fits:\n%s", len(positions), b.String())
}

// TestProbCut: Othello's relations are asked by depth and stage: none
// below 3 plies, none where the exact endgame is near, Edax's shallow
// depths up to ProbCutMaxDepth, and beyond it the deepest relation of the
// same parity with a shallow search as much deeper.
func TestProbCut(t *testing.T) {
	for _, c := range []struct{ depth, shallow int }{{3, 1}, {4, 2}, {5, 3}, {6, 2}, {8, 4}, {12, 6}} {
		if got := othello.ProbCutShallow(c.depth); got != c.shallow {
			t.Errorf("ProbCutShallow(%d) = %d, want %d", c.depth, got, c.shallow)
		}
	}
	mid := othello.Start()
	if _, ok := mid.ProbCut(2); ok {
		t.Error("a relation for depth 2")
	}
	f12, ok := mid.ProbCut(12)
	if !ok || f12.Shallow != 6 || f12.Sigma <= 0 || f12.Slope <= 0 {
		t.Errorf("depth 12 at the start: %+v, %v", f12, ok)
	}
	f14, ok := mid.ProbCut(14)
	if !ok || f14.Shallow != 8 || f14.Sigma != f12.Sigma {
		t.Errorf("depth 14 at the start: %+v, %v; want depth 12's with a shallow search of 8", f14, ok)
	}
	f13, ok := mid.ProbCut(13)
	if f11, _ := mid.ProbCut(11); !ok || f13.Shallow != f11.Shallow+2 || f13.Sigma != f11.Sigma {
		t.Errorf("depth 13 at the start: %+v, %v; want depth 11's (%+v) with a shallow search 2 plies deeper", f13, ok, f11)
	}
	end, err := othello.Parse("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOO--O------OX X")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := end.ProbCut(4); ok {
		t.Errorf("a relation with %d empty squares", end.Empties())
	}
	for e := 0; e <= 60; e++ {
		if st := othello.ProbCutStage(e); st < 0 || st >= othello.ProbCutStages {
			t.Errorf("ProbCutStage(%d) = %d", e, st)
		}
	}
}
