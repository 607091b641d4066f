package nboard

import (
	"context"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

const startBoard = "---------------------------O*------*O---------------------------"

// TestServe: a session as NBoard runs one, with errors on the way: each
// error is one status line, go answers after "status gametune is
// thinking", ping after the search it stopped.
func TestServe(t *testing.T) {
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "full")
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{
		"nboard 2", "set depth 2", "set depth 99", "set game (;GM[Othello]BO[8 " + startBoard + " *]B[F5]W[F6];)",
		"set game (;GM[Othello]BO[8 " + startBoard + " *]B[A1];)", "move a1", "move e6/0.5/1.2", "hint 1", "go", "ping 7",
		"set colour 3", "dance", "quit", "go",
	}, "\n")
	var out strings.Builder
	if err := Serve(context.Background(), strings.NewReader(input), &out, e); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"set myname gametune-full",
		"status error: set depth 99: want 1 to 64",
		"status error: set game: move 1: othello: a1 flips nothing (a move must outflank at least one disc) (the position stays ",
		"status error: move a1: ",
		"status gametune is thinking", "search ", "status",
		"status gametune is thinking", "=== ", "status",
		"pong 7",
		"status error: set colour: unknown setting (depth, game, contempt)",
		`status error: unknown command "dance"`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d: %q, want %q...", i+1, got[i], w)
		}
	}
	a, err := ParseAnswer(got[8])
	if err != nil || !a.Move.HasEval {
		t.Fatalf("%q: %+v %v", got[8], a, err)
	}
	// The search is at the depth set.
	if !strings.HasSuffix(got[5], " 2") {
		t.Errorf("hint at depth %q, want 2", got[5])
	}
}
