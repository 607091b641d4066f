package nboard

import (
	"strings"
	"testing"
	"time"
)

const startBoard = "---------------------------O*------*O---------------------------"

// TestServe: a session as NBoard runs one, with errors on the way: each
// error is one status line, go answers after "status gametune is
// thinking", ping after the search. Each search is awaited before the next
// command (a ping would stop it).
func TestServe(t *testing.T) {
	l := startLive(t, 1)
	var got []string
	for _, step := range []struct {
		send  []string
		until string
	}{
		{[]string{"nboard 2", "set depth 2", "set depth 99", "set game (;GM[Othello]BO[8 " + startBoard + " *]B[F5]W[F6];)",
			"set game (;GM[Othello]BO[8 " + startBoard + " *]B[A1];)", "move a1", "move e6/0.5/1.2", "hint 1"}, "search "},
		{[]string{"go"}, "=== "},
		{[]string{"ping 7", "set colour 3", "dance", "ping 8"}, "pong 8"},
	} {
		l.Send(step.send...)
		line, seen := l.Await(step.until, 10*time.Second)
		got = append(append(got, seen...), line)
	}
	l.Send("quit", "go")
	if returned, _ := l.Wait(time.Second); !returned {
		t.Fatal("quit did not end the session")
	}
	got = append(got, l.Rest()...)
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
		"pong 8",
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
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
