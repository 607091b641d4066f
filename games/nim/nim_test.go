package nim

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// TestLosingHeaps: under the classic rules a heap of n matches is lost for
// the side to move exactly when n ≡ 1 (mod 4): from 4k+1 every take leaves
// 4k, 4k-1 or 4k-2, from which the opponent restores 4(k-1)+1; from any
// other heap a take reaches 4k+1 (with 1 match left the side to move must
// take it and loses).
func TestLosingHeaps(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	for n := 1; n <= 40; n++ {
		p, _ := New(n, false)
		sol, err := s.Solve(context.Background(), p, basicEvaluator, n)
		if err != nil {
			t.Fatal(err)
		}
		want := engine.Win
		if n%4 == 1 {
			want = engine.Loss
		}
		if sol.Value != want {
			t.Errorf("%d matches: %v, want %v", n, sol.Value, want)
		}
		if want == engine.Win && (n-int(sol.Move))%4 != 1 {
			t.Errorf("%d matches: takes %d, leaving %d (not 4k+1)", n, sol.Move, n-int(sol.Move))
		}
	}
}

// TestTwentyTakeThree: from the course's 20 matches the engine takes 3,
// leaving 17 = 4*4+1, at any depth that sees the end and also at depth 1
// with the default evaluation.
func TestTwentyTakeThree(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	for _, depth := range []int{1, 2, 5, 20} {
		s.NewGame()
		res, err := s.Search(context.Background(), Game().Start(), basicEvaluator, basicEvaluator.Defaults(), engine.Limits{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move != 3 {
			t.Errorf("depth %d: takes %d, want 3", depth, res.Move)
		}
	}
}

// TestDoubleRules checks exercise 9.1: the first take is 1, then up to
// twice the last take, and the values of small heaps worked out by hand.
// With 2 matches the first player takes 1 (forced) and the second must take
// the last one: a win for the first. With 3 the first takes 1, the second
// takes 1 (taking 2 would take the last), and the first must take the last:
// a loss for the first.
func TestDoubleRules(t *testing.T) {
	p, _ := New(10, true)
	moves, _ := p.Moves(nil)
	if len(moves) != 1 || moves[0] != 1 {
		t.Fatalf("first move options %v, want [1]", moves)
	}
	p.Play(1)
	moves, _ = p.Moves(nil)
	if len(moves) != 2 {
		t.Fatalf("after taking 1, options %v, want [1 2]", moves)
	}
	p.Play(2)
	moves, _ = p.Moves(nil)
	if len(moves) != 4 {
		t.Fatalf("after taking 2, options %v, want 1-4", moves)
	}
	s, _ := engine.New(engine.Options{TableMiB: 1})
	for n, want := range map[int]engine.Value{2: engine.Win, 3: engine.Loss} {
		p, _ := New(n, true)
		sol, _ := s.Solve(context.Background(), p, basicEvaluator, 20)
		if sol.Value != want {
			t.Errorf("double:%d: %v, want %v", n, sol.Value, want)
		}
	}
}

func TestNotation(t *testing.T) {
	for _, s := range []string{"20", "17 second", "double:19 last=1 second", "double:5"} {
		p, err := Parse(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if p.String() != s {
			t.Errorf("%q reads back as %q", s, p)
		}
	}
	bad := map[string]string{
		"":            "empty",
		"x":           "not a number",
		"-3":          "not a number",
		"20 last=2":   "double rules",
		"20 sideways": "unknown field",
	}
	for in, want := range bad {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
	p, _ := Parse("2")
	if _, err := p.ParseMove("3"); err == nil || !strings.Contains(err.Error(), "take 1 to 2") {
		t.Errorf("taking 3 of 2: %v", err)
	}
	if m, err := p.ParseMove("take 2"); err != nil || m != 2 {
		t.Errorf("take 2: %v %v", m, err)
	}
}

// TestParseUnreachable: positions that no game reaches are rejected with
// ErrUnreachable and a message saying why.
func TestParseUnreachable(t *testing.T) {
	tests := []struct {
		name, pos, want string // want is "" when the position is reachable
	}{
		{"double, second to move before any take", "double:19 second", "second to move with no take yet"},
		{"double, empty heap before any take", "double:0", "starts with at least 1 match"},
		{"classic, second to move on the largest heap", "10000 second", "from a heap of at least 10001"},
		{"classic, empty heap, first to move", "0", ""},
		{"double, last take needs a long chain", "double:9990 last=8 second", "takes at least 16 matches"},
		{"double, chain parity", "double:9997 last=2 second", "takes at least 4 matches"},
		{"double, chain fits", "double:9997 last=2", ""},
		{"classic, largest heap, first to move", "10000", ""},
		{"double, after the first take", "double:19 last=1 second", ""},
		{"double, empty heap after takes", "double:0 last=2", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.pos)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.pos, err)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.pos, err, tc.want)
			}
		})
	}
}

func TestPerft(t *testing.T) {
	// From 5 matches: depth 1: 3 takes; depth 2: from 4, 3, 2 -> 3+3+2 = 8.
	p, _ := New(5, false)
	for d, want := range []uint64{1, 3, 8} {
		if got := games.Perft(p, d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"20", "double:19 last=1 second", "0", "x", "99999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func BenchmarkPerft(b *testing.B) {
	p, _ := New(DefaultMatches, false)
	var n uint64
	for b.Loop() {
		n += games.Perft(p, 10)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
}

func TestRandomGamesConsistency(t *testing.T) {
	gametest.RandomGames(t, Game(), 100, 5)
}
