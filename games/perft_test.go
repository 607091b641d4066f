package games_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/checkers"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/games/nim"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/games/tictactoe"
)

func parse(t *testing.T, g games.Game, s string) games.Position {
	t.Helper()
	p, err := g.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPerftContextCounts: without cancellation PerftContext gives the
// published counts, the same as Perft, with and without a fast counter, and
// leaves the position as it found it.
func TestPerftContextCounts(t *testing.T) {
	deep := 5
	if testing.Short() {
		deep = 4
	}
	tests := []struct {
		name  string
		p     games.Position
		depth int
		want  uint64
	}{
		{"chess start depth 0", chess.Start(), 0, 1},
		{"chess start depth 1", chess.Start(), 1, 20},
		{"chess start depth 3", chess.Start(), 3, 8902},
		{"chess start", chess.Start(), deep, map[int]uint64{4: 197281, 5: 4865609}[deep]},
		{"chess kiwipete depth 3", parse(t, chess.Game(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 3, 97862},
		// Bare kings: a draw by rule for Moves, but Perft counts on, as the
		// published tables do; PerftContext follows Perft.
		{"chess bare kings", parse(t, chess.Game(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), 4, games.Perft(parse(t, chess.Game(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), 4)},
		{"othello start", othello.Start(), 7, 55092},
		{"tictactoe start, no fast counter", tictactoe.Start(), 9, 127872},
		{"tictactoe start depth 7", tictactoe.Start(), 7, 148176},
		{"nim finished", parse(t, nim.Game(), "0"), 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.p.String()
			got, err := games.PerftContext(context.Background(), tc.p, tc.depth)
			if err != nil || got != tc.want {
				t.Fatalf("PerftContext(%d) = %d, %v; want %d", tc.depth, got, err, tc.want)
			}
			if tc.p.String() != before {
				t.Fatalf("the position changed from %s to %s", before, tc.p)
			}
		})
	}
	if n := games.Perft(parse(t, chess.Game(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), 4); n == 0 {
		t.Fatal("Perft stops at bare kings; the bare-kings case tests nothing")
	}
}

// TestPerftContextCancel: a cancelled context stops a chess perft of depth
// 7 (minutes of work) well within 100 ms, and one cancelled before the call
// does not start.
func TestPerftContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := games.PerftContext(ctx, chess.Start(), 7); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before the call: %d, %v; want 0 and context.Canceled", n, err)
	}
	for _, tc := range []struct {
		name  string
		p     games.Position
		depth int
	}{
		{"chess start", chess.Start(), 7},
		{"chess bare kings", parse(t, chess.Game(), "8/8/8/4k3/8/8/8/4K3 w - - 0 1"), 14},
		{"othello start", othello.Start(), 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var cancelled time.Time
			timer := time.AfterFunc(50*time.Millisecond, func() {
				cancelled = time.Now()
				cancel()
			})
			defer timer.Stop()
			n, err := games.PerftContext(ctx, tc.p, tc.depth)
			late := time.Since(cancelled)
			if n != 0 || !errors.Is(err, context.Canceled) {
				t.Fatalf("PerftContext(%d) = %d, %v; want 0 and context.Canceled", tc.depth, n, err)
			}
			if late > time.Second {
				t.Fatalf("PerftContext returned %v after the cancellation, want well under a second", late)
			}
			t.Logf("returned %v after the cancellation", late)
		})
	}
}

// BenchmarkPerftContext counts through PerftContext (tune perft), whose
// walk hands the subtrees below its leaf depth to the games' counters in
// many short calls: chess from the start at 4 and 5 plies, checkers at 8.
func BenchmarkPerftContext(b *testing.B) {
	for _, c := range []struct {
		name  string
		start games.Position
		depth int
	}{
		{"chess/depth=4", chess.Game().Start(), 4},
		{"chess/depth=5", chess.Game().Start(), 5},
		{"checkers/depth=8", checkers.Game().Start(), 8},
	} {
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				k, err := games.PerftContext(context.Background(), c.start, c.depth)
				if err != nil {
					b.Fatal(err)
				}
				n += k
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// TestParsePerftDepth: 0 to MaxPerftDepth, and a message for the rest.
func TestParsePerftDepth(t *testing.T) {
	for _, s := range []string{"0", "7", "30"} {
		if _, err := games.ParsePerftDepth(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"-1", "31", "x", ""} {
		if _, err := games.ParsePerftDepth(s); err == nil || err.Error() != `perft: depth "`+s+`" must be a whole number from 0 to 30` {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// TestTimedPerft: the count is PerftContext's, with the game and position.
func TestTimedPerft(t *testing.T) {
	g := tictactoe.Game()
	c, err := games.TimedPerft(context.Background(), g, g.Start(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes != 504 || c.Game != "tictactoe" || c.Depth != 3 || c.Position != g.Start().String() {
		t.Errorf("%+v", c)
	}
}
