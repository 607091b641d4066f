package tictactoe

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// TestPerft checks the published leaf counts of tic-tac-toe: games that end
// with a line are not extended.
func TestPerft(t *testing.T) {
	want := []uint64{1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}
	for d, n := range want {
		if got := games.Perft(Start(), d); got != n {
			t.Errorf("perft(%d) = %d, want %d", d, got, n)
		}
	}
}

// TestCompleteGames counts the finished games of the whole tree: 255168.
func TestCompleteGames(t *testing.T) {
	var count func(p *Position) int
	count = func(p *Position) int {
		moves, o := p.Moves(nil)
		if o != games.Ongoing {
			return 1
		}
		n := 0
		for _, m := range moves {
			p.Play(m)
			n += count(p)
			p.Undo()
		}
		return n
	}
	if got := count(Start()); got != 255168 {
		t.Fatalf("complete games = %d, want 255168", got)
	}
}

// TestSolve: tic-tac-toe is a draw with correct play; a position with a
// double threat is won.
func TestSolve(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	sol, err := s.Solve(context.Background(), Start(), linesEvaluator, 9)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Value != engine.DrawValue {
		t.Fatalf("empty board: %v, want draw", sol.Value)
	}
	// x to move completes the top row at c1.
	p, _ := Parse("xx-oo----")
	sol, err = s.Solve(context.Background(), p, linesEvaluator, 9)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Value != engine.Win || sol.Plies != 1 || p.FormatMove(sol.Move) != "c1" {
		t.Fatalf("xx-oo----: %v in %d with %s, want win in 1 with c1", sol.Value, sol.Plies, p.FormatMove(sol.Move))
	}
}

func TestParse(t *testing.T) {
	p, err := Parse("x-o -x- --o")
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != "x-o-x---o" || p.Turn() != games.First {
		t.Fatalf("got %q, %v", p, p.Turn())
	}
	bad := map[string]string{
		"":           "has 0 cells",
		"xxxxxxxxx":  "as many or one more",
		"x-o-x---z":  "cell 9",
		"x-o-x---o-": "has 10 cells",
	}
	for in, want := range bad {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", in, err, want)
		}
	}
	if _, err := p.ParseMove("a1"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("taken cell: %v", err)
	}
	if _, err := p.ParseMove("d4"); err == nil {
		t.Error("d4 accepted")
	}
	if m, err := p.ParseMove("5"); err == nil || m != 0 {
		t.Errorf("cell 5 is taken; got %v %v", m, err)
	}
	if m, err := p.ParseMove("B1"); err != nil || p.FormatMove(m) != "b1" {
		t.Errorf("B1: %v %v", m, err)
	}
}

// TestParseUnreachable: boards that alternate play from the empty board
// cannot reach are rejected with ErrUnreachable and a message saying why;
// their reachable neighbours parse.
func TestParseUnreachable(t *testing.T) {
	tests := []struct {
		name, board, want string // want is "" when the board is reachable
	}{
		{"both sides have a line", "xxxooo---", "both x and o"},
		{"both sides have a line, x one more", "xxxooox--", "both x and o"},
		{"o has two more marks", "oo-------", "0 x and 2 o"},
		{"x has two more marks", "xx-------", "2 x and 0 o"},
		{"x won, then o moved", "xxxoo-o--", "but o has moved since"},
		{"o won, then x moved", "ooox-x-xx", "but x has moved since"},
		{"x won with two lines at once", "xxxxooxoo", ""},
		{"x won", "xxxoo----", ""},
		{"o won", "ooox-x-x-", ""},
		{"full board drawn", "xoxxoooxx", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.board)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.board, err)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.board, err, tc.want)
			}
		})
	}
}

func TestPlayUndoHash(t *testing.T) {
	p := Start()
	h := p.Hash()
	m, _ := p.ParseMove("b2")
	p.Play(m)
	q, _ := Parse(p.String())
	if p.Hash() != q.Hash() {
		t.Fatal("hash differs from the parsed position's")
	}
	p.Undo()
	if p.Hash() != h || p.String() != "---------" {
		t.Fatal("undo did not restore the position")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"---------", "x-o-x---o", "xxxoo----", "", "zzz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func BenchmarkPerft(b *testing.B) {
	var n uint64
	for b.Loop() {
		n += games.Perft(Start(), 9)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkEvaluate(b *testing.B) {
	p, _ := Parse("x-o-x----")
	w := linesEvaluator.Defaults()
	for b.Loop() {
		linesEvaluator.Evaluate(p, w)
	}
}

func TestRandomGamesConsistency(t *testing.T) {
	gametest.RandomGames(t, Game(), 200, 5)
}
