package thinker

import (
	"context"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games/all"
)

// TestAnalysisScore: a plain score is Score; a forced end is MateIn (moves
// of the side to move, negative when it loses) and EndPlies beside a nil
// Score; ScoreText says the same for a person.
func TestAnalysisScore(t *testing.T) {
	g, _ := all.Find("tictactoe")
	p, ev := g.Start(), g.Evaluators()[0]
	for _, c := range []struct {
		score, mateIn, plies int
		text                 string
	}{
		{engine.Mate - 3, 2, 3, "win in 3 plies"},
		{-(engine.Mate - 4), -2, 4, "loss in 4 plies"},
		{120, 0, 0, "+120"},
		{-7, 0, 0, "-7"},
	} {
		a := analysis(g, p, ev, engine.Result{Score: c.score}, 1)
		if got := a.ScoreText(); got != c.text {
			t.Errorf("score %d: ScoreText %q, want %q", c.score, got, c.text)
		}
		if c.plies == 0 {
			if a.Score == nil || *a.Score != c.score || a.MateIn != nil || a.EndPlies != nil {
				t.Errorf("score %d: %+v", c.score, a)
			}
			continue
		}
		if a.Score != nil || a.MateIn == nil || *a.MateIn != c.mateIn || a.EndPlies == nil || *a.EndPlies != c.plies {
			t.Errorf("score %d: %+v, want mate in %d, %d plies", c.score, a, c.mateIn, c.plies)
		}
	}
}

// TestAnalyseAndSolve: tic-tac-toe's start is a draw, and a search names a
// legal move with its statistics.
func TestAnalyseAndSolve(t *testing.T) {
	g, _ := all.Find("tictactoe")
	p, ev := g.Start(), g.Evaluators()[0]
	a, err := Analyse(context.Background(), g, p, ev, ev.Defaults(), engine.Limits{Depth: 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Game != "tictactoe" || a.Move == "" || len(a.PV) == 0 || a.PV[0] != a.Move || a.Stats.Depth != 3 || a.Stats.Nodes == 0 {
		t.Errorf("analysis %+v", a)
	}
	s, err := Solve(context.Background(), g, p, SolveOptions{MaxDepth: 9})
	if err != nil {
		t.Fatal(err)
	}
	if s.Value != "draw" || s.value != engine.DrawValue || s.Nodes == 0 {
		t.Errorf("solved %+v", s)
	}
}

// TestWriteText: what a person reads of an analysis and of a solution.
func TestWriteText(t *testing.T) {
	g, _ := all.Find("tictactoe")
	p, ev := g.Start(), g.Evaluators()[0]
	moves, _ := p.Moves(nil)
	a := analysis(g, p, ev, engine.Result{Move: moves[0], PV: moves[:1], Score: engine.Mate - 3, Stats: engine.Stats{Nodes: 2000, QNodes: 5, TTHits: 7, TTCuts: 3, Cutoffs: 10, FirstCutoffs: 9, Depth: 4, EBF: 2.5}}, 0.5)
	var b strings.Builder
	a.WriteText(&b)
	m := p.FormatMove(moves[0])
	want := `best move ` + m + `, score win in 3 plies, depth 4
pv: ` + m + `
nodes 2000 (quiescence 5) in 0.500 s, 0.00 M nodes/s
table hits 7 (cuts 3), beta cutoffs 10 (90.0% by the first move), branching factor 2.50
`
	if b.String() != want {
		t.Errorf("analysis:\n%s\nwant\n%s", b.String(), want)
	}
	for _, c := range []struct {
		s    Solved
		want string
	}{
		{Solved{Move: "b2", Depth: 3, value: engine.Unknown}, "unknown: the tree is not exhausted at depth 3 (best move so far b2)\n"},
		{Solved{Value: "win", Move: "b2", Plies: 5, Nodes: 40, Seconds: 0.25, value: engine.Win}, "win for the side to move in 5 plies, best move b2 (40 nodes, 0.250 s)\n"},
		{Solved{Value: "draw", Move: "b2", Nodes: 40, Seconds: 0.25, value: engine.DrawValue}, "draw with best play, e.g. b2 (40 nodes, 0.250 s)\n"},
	} {
		b.Reset()
		if c.s.WriteText(&b); b.String() != c.want {
			t.Errorf("%q, want %q", b.String(), c.want)
		}
	}
}
