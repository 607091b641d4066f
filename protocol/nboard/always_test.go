package nboard

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// live is a session served over pipes: commands are sent while the engine
// searches, and answers are awaited line by line.
type live struct {
	t     *testing.T
	in    chan string // written on their own goroutine: a server that stops reading fails expect, not send
	lines chan string
	done  chan error
}

// startLive serves Othello's engine (searches of depth, a 1 MiB table)
// over pipes until the test ends.
func startLive(t *testing.T, depth int) *live {
	t.Helper()
	g, _ := all.Find("othello")
	ev, _ := games.FindEvaluator(g, "full")
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: depth}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	l := &live{t: t, in: make(chan string, 4096), lines: make(chan string, 4096), done: make(chan error, 1)}
	go func() {
		for s := range l.in {
			io.WriteString(inW, s+"\n")
		}
		inW.Close()
	}()
	go func() {
		err := Serve(context.Background(), inR, outW, e)
		outW.Close()
		l.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
		close(l.lines)
	}()
	t.Cleanup(func() {
		close(l.in)
		inR.CloseWithError(io.EOF)
		select {
		case <-l.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return within 10 s of the end of its input")
		}
	})
	return l
}

func (l *live) send(lines ...string) {
	for _, s := range lines {
		l.in <- s
	}
}

// expect waits for a line starting with prefix and returns the lines
// before it.
func (l *live) expect(prefix string, timeout time.Duration) []string {
	l.t.Helper()
	_, seen := l.await(prefix, timeout)
	return seen
}

// await waits for a line starting with prefix and returns it and the lines
// before it.
func (l *live) await(prefix string, timeout time.Duration) (string, []string) {
	l.t.Helper()
	var seen []string
	deadline := time.After(timeout)
	for {
		select {
		case s, ok := <-l.lines:
			if !ok {
				l.t.Fatalf("the session ended before %q; it wrote %q", prefix, seen)
			}
			if strings.HasPrefix(s, prefix) {
				return s, seen
			}
			seen = append(seen, s)
		case <-deadline:
			l.t.Fatalf("no %q within %v; the session wrote %q", prefix, timeout, seen)
		}
	}
}

// TestServePingWhileSearching: while go searches at depth 60, a set game
// and a move wait for the search; the ping after them stops it and is
// answered after the search's move and status, and after the waiting
// commands ran; quit ends Serve at once.
func TestServePingWhileSearching(t *testing.T) {
	l := startLive(t, 60)
	game := "set game (;GM[Othello]BO[8 " + startBoard + " *];)"
	l.send("nboard 2", game, "go", game, "move f5", "ping 3")
	seen := l.expect("pong 3", time.Second)
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
	l.send("set depth 1", "hint 1")
	line, _ := l.await("search ", time.Second)
	if f := strings.Fields(line); len(f) < 2 || !strings.Contains(" D6 F4 F6 ", " "+f[1]+" ") {
		t.Errorf("hint after f5: %q, want a search of D6, F4 or F6", line)
	}
	l.send("set depth 60", "go", "quit")
	select {
	case err := <-l.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		l.done <- nil
	case <-time.After(time.Second):
		t.Fatal("quit did not end Serve within 1 s")
	}
}
