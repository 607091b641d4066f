package nboard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// startLive serves Othello's engine (searches of depth, a 1 MiB table)
// over pipes until the test ends.
func startLive(t *testing.T, depth int) *protocoltest.Live {
	t.Helper()
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "full")
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: depth}})
	if err != nil {
		t.Fatal(err)
	}
	return protocoltest.Start(t, func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) })
}

// TestServePingWhileSearching: while go searches at depth 60, a set game
// and a move wait for the search; the ping after them stops it and is
// answered after the search's move and status, and after the waiting
// commands ran; quit ends Serve at once.
func TestServePingWhileSearching(t *testing.T) {
	l := startLive(t, 60)
	game := "set game (;GM[Othello]BO[8 " + startBoard + " *];)"
	l.Send("nboard 2", game, "go", game, "move f5", "ping 3")
	seen := l.Expect("pong 3", time.Second)
	want := []string{"set myname gametune-full", "status gametune is thinking", "=== ", "status"}
	if len(seen) != len(want) {
		t.Fatalf("got %q, want %q", seen, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(seen[i], w) {
			t.Errorf("line %d: %q, want %q", i+1, seen[i], w)
		}
	}
	// The move after the set game was played: hint searches the position
	// after f5 (white to move: D6, F4 or F6).
	l.Send("set depth 1", "hint 1")
	line, _ := l.Await("search ", time.Second)
	if f := strings.Fields(line); len(f) < 2 || !strings.Contains(" D6 F4 F6 ", " "+f[1]+" ") {
		t.Errorf("hint after f5: %q, want a search of D6, F4 or F6", line)
	}
	l.Send("set depth 60", "go", "quit")
	if returned, err := l.Wait(time.Second); !returned {
		t.Fatal("quit did not end Serve within 1 s")
	} else if err != nil {
		t.Errorf("Serve: %v", err)
	}
}
