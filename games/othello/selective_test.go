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
