package learn

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// TestSetLabels: the labels of a game's positions are its result from the
// side to move's view. The game is the shortest Othello game, a black wipe-out in 9 moves
// (black 13 discs, white 0).
func TestSetLabels(t *testing.T) {
	g := othello.Game()
	var moves []games.Move
	p := g.Start()
	for _, s := range []string{"e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	if _, out := p.Moves(nil); out != games.FirstWins {
		t.Fatalf("the wipe-out ends %v", out)
	}
	for _, result := range []float64{1, 0.5, 0} {
		set := &Set{Game: g, Games: []Game{{Moves: moves, Result: result}}}
		n := 0
		err := set.Each(0, 1, func(p games.Position, label, _ float64) error {
			want := result
			if p.Turn() == games.Second {
				want = 1 - want
			}
			if math.Abs(label-want) > 1e-12 {
				t.Errorf("result %v, ply %d: label %v, want %v", result, n, label, want)
			}
			n++
			return nil
		})
		if err != nil || n != 9 {
			t.Fatalf("result %v: %d positions, %v", result, n, err)
		}
	}
}

// TestStartEmpty: "empty" starts from zero tables and the evaluator's
// scratch weights (othello patterns: scales 1, mobility 30, parity 0), not
// its shipped fit; other starts are the built-in specs.
func TestStartEmpty(t *testing.T) {
	g := othello.Game()
	ev, w, err := Start(g, "patterns", "empty")
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range ev.Data {
		if x != 0 {
			t.Fatalf("empty start: table value %d is %v", i, x)
		}
	}
	for i, f := range ev.Features {
		want := 1.0
		switch {
		case strings.HasPrefix(f.Name, "mobility@"):
			want = 30
		case strings.HasPrefix(f.Name, "parity@"):
			want = 0
		}
		if w[i] != want {
			t.Errorf("empty start: %s = %v, want %v", f.Name, w[i], want)
		}
	}
	shipped, _, err := Start(g, "patterns", "default")
	if err != nil || games.SameData(shipped.Data, ev.Data) {
		t.Errorf("default start: %v, or the shipped tables are empty", err)
	}
	if _, _, err := Start(g, "full", "empty"); err == nil || !strings.Contains(err.Error(), "has no tables to start empty") {
		t.Errorf("full from empty: %v", err)
	}
}

// TestSetFrom: a game with a From replays from a clone of it (the From
// unchanged), and a game of a From and no moves is that one position,
// labelled by its result from the side to move's view; a positions file
// refuses such games.
func TestSetFrom(t *testing.T) {
	g := othello.Game()
	from := g.Start()
	for _, s := range []string{"e6", "f4"} {
		m, err := from.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		from.Play(m)
	}
	next, err := from.ParseMove("e3")
	if err != nil {
		t.Fatal(err)
	}
	before := from.String()
	set := &Set{Game: g, Games: []Game{{From: from, Moves: []games.Move{next}, Result: 1}, {From: from, Result: 0}}}
	var got []string
	err = set.Each(0, 2, func(p games.Position, label, score float64) error {
		got = append(got, fmt.Sprintf("%s %v %v", p, label, math.IsNaN(score)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Black moves first and again after e6 f4: labels are black's result.
	want := []string{before + " 1 true", before + " 0 true"}
	if !slices.Equal(got, want) {
		t.Errorf("positions %q, want %q", got, want)
	}
	if from.String() != before {
		t.Errorf("the From changed: %s", from)
	}
	if n := set.Positions(); n != 2 {
		t.Errorf("%d positions, want 2", n)
	}
	var b strings.Builder
	if err := WriteGames(&b, g, set.Games[:1]); err == nil || !strings.Contains(err.Error(), "begins at a position of its own") {
		t.Errorf("a positions file took a game with a From: %v", err)
	}
}
