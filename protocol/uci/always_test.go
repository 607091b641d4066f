package uci

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// startLive serves game's engine (a 1 MiB table) over pipes until the test
// ends.
func startLive(t *testing.T, game string) *protocoltest.Live {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, MaxTableMiB: 64})
	if err != nil {
		t.Fatal(err)
	}
	return protocoltest.Start(t, func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) })
}

// TestServeAnswersWhileSearching: isready is answered while a search to
// depth 60 runs and while commands wait behind it; stop ends a depth- or
// node-bounded search with its bestmove; quit ends Serve at once.
func TestServeAnswersWhileSearching(t *testing.T) {
	l := startLive(t, "chess")
	l.Send("position startpos", "go depth 60", "isready")
	l.Expect("readyok", time.Second)
	l.Send("position startpos moves e2e4", "setoption name Hash value 2", "go nodes 1000000000000", "isready")
	if seen := l.Expect("readyok", time.Second); strings.Contains(strings.Join(seen, "\n"), "bestmove") {
		t.Errorf("a search ended before stop: %q", seen)
	}
	l.Send("stop")
	l.Expect("bestmove", time.Second)
	seen := l.Expect("bestmove", time.Second) // the node-bounded search, which the same stop ended
	for _, s := range seen {
		if strings.HasPrefix(s, "info string error") {
			t.Errorf("a waiting command failed: %q", s)
		}
	}
	l.Send("go depth 60", "quit")
	l.Expect("bestmove", time.Second)
	if returned, err := l.Wait(time.Second); !returned {
		t.Fatal("quit did not end Serve within 1 s")
	} else if err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestServeInfoPerIteration: go depth 5 writes one info line per depth, 1
// to 5 in order, each with a score, nodes, nps, time and pv, then bestmove.
func TestServeInfoPerIteration(t *testing.T) {
	l := startLive(t, "chess")
	l.Send("position startpos", "go depth 5")
	seen := l.Expect("bestmove", 10*time.Second)
	var depths []int
	for _, s := range seen {
		in, err := ParseInfo(strings.Fields(s)[1:])
		if err != nil || in.Score == nil || in.Nodes == 0 || in.NPS == 0 || in.Time == 0 || len(in.PV) < min(in.Depth, 1) {
			t.Errorf("info line %q: %+v %v", s, in, err)
		}
		depths = append(depths, in.Depth)
	}
	if len(depths) != 5 {
		t.Fatalf("%d info lines, want 5: %q", len(depths), seen)
	}
	for i, d := range depths {
		if d != i+1 {
			t.Errorf("info line %d at depth %d, want %d", i+1, d, i+1)
		}
	}
}

// TestServePerftDivide: go perft as Stockfish answers it, with the
// published counts of chess's start position.
func TestServePerftDivide(t *testing.T) {
	l := startLive(t, "chess")
	for _, c := range []struct {
		depth      int
		moves      int
		nodes      uint64
		e2e4, g1f3 uint64
	}{{1, 20, 20, 1, 1}, {2, 20, 400, 20, 20}, {3, 20, 8902, 600, 440}} {
		l.Send("position startpos", "go perft "+strconv.Itoa(c.depth))
		seen := l.Expect("Nodes searched: "+strconv.FormatUint(c.nodes, 10), 20*time.Second)
		if len(seen) != c.moves+1 || seen[c.moves] != "" {
			t.Fatalf("perft %d: %d lines before the total, want %d moves and an empty line: %q", c.depth, len(seen), c.moves, seen)
		}
		var sum uint64
		counts := map[string]uint64{}
		for _, s := range seen[:c.moves] {
			move, count, ok := strings.Cut(s, ": ")
			n, err := strconv.ParseUint(count, 10, 64)
			if !ok || err != nil {
				t.Fatalf("perft %d: line %q, want MOVE: COUNT", c.depth, s)
			}
			counts[move], sum = n, sum+n
		}
		if sum != c.nodes || counts["e2e4"] != c.e2e4 || counts["g1f3"] != c.g1f3 {
			t.Errorf("perft %d: sum %d, e2e4 %d, g1f3 %d; want %d, %d, %d", c.depth, sum, counts["e2e4"], counts["g1f3"], c.nodes, c.e2e4, c.g1f3)
		}
		l.Expect("", time.Second) // the empty line after the total
	}
	// A perft too deep to finish is stopped, and isready answered meanwhile.
	l.Send("go perft 12", "isready")
	l.Expect("readyok", time.Second)
	l.Send("stop")
	l.Expect("info string perft 12 stopped", time.Second)
	l.Send("go perft 31", "go perft 0")
	l.Expect("info string error: uci: go perft \"31\": want an integer from 1 to 30", time.Second)
	l.Expect("bestmove 0000", time.Second)
	l.Expect("info string error: uci: go perft \"0\": want an integer from 1 to 30", time.Second)
}

// TestServeMoveOverhead: the Move Overhead option is offered (10 ms, 0 to
// 5000), checked, and kept back from a move time: with 900 ms of overhead,
// movetime 1000 answers within about 100 ms.
func TestServeMoveOverhead(t *testing.T) {
	l := startLive(t, "chess")
	l.Send("uci")
	seen := l.Expect("uciok", time.Second)
	if !strings.Contains(strings.Join(seen, "\n"), "option name Move Overhead type spin default 10 min 0 max 5000") {
		t.Errorf("no Move Overhead option in %q", seen)
	}
	for _, bad := range []string{"5001", "-1", "NaN", "1e3", ""} {
		l.Send("setoption name Move Overhead value "+bad, "isready")
		seen := l.Expect("readyok", time.Second)
		if len(seen) != 1 || !strings.HasPrefix(seen[0], "info string error: option Move Overhead value") || !strings.Contains(seen[0], "from 0 to 5000") {
			t.Errorf("Move Overhead %q: %q, want one error line naming the bounds", bad, seen)
		}
	}
	l.Send("setoption name move overhead value 900", "position startpos", "isready")
	if seen := l.Expect("readyok", time.Second); len(seen) != 0 {
		t.Fatalf("setoption Move Overhead 900: %q", seen)
	}
	start := time.Now()
	l.Send("go movetime 1000")
	l.Expect("bestmove", 2*time.Second)
	if took := time.Since(start); took > 900*time.Millisecond { // well below the 1,000 without the overhead, whatever the load
		t.Errorf("movetime 1000 with an overhead of 900 ms took %v, want about 100 ms", took)
	}
}

// TestServeGoBounds: go's numbers out of their bounds, or not numbers, are
// refused with a message giving the bounds, and bestmove 0000.
func TestServeGoBounds(t *testing.T) {
	got := serve(t, "tictactoe", strings.Join([]string{"position startpos",
		"go depth 1001", "go movestogo 1001 wtime 100 btime 100", "go mate 501", "go nodes 1099511627777",
		"go movetime -1", "go wtime NaN", "go depth Inf", "go movetime 1099511627777",
	}, "\n"))
	want := []string{
		`go depth "1001": want an integer from 0 to 1000`, `go movestogo "1001": want an integer from 0 to 1000`,
		`go mate "501": want an integer from 0 to 500`, `go nodes "1099511627777": want an integer from 0 to 1099511627776`,
		`go movetime "-1": want an integer from 0 to 1099511627776 ms`, `go wtime "NaN": want an integer from -1099511627776 to 1099511627776 ms`,
		`go depth "Inf": want an integer from 0 to 1000`, `go movetime "1099511627777": want an integer`,
	}
	if len(got) != 2*len(want) {
		t.Fatalf("%d lines, want %d: %q", len(got), 2*len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[2*i], "info string error: uci: "+w) || got[2*i+1] != "bestmove 0000" {
			t.Errorf("%q %q, want the error %q and bestmove 0000", got[2*i], got[2*i+1], w)
		}
	}
}
