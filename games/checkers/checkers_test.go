package checkers

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// perftTable is the published English draughts perft from the start.
var perftTable = []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128}

func TestPerft(t *testing.T) {
	for d, want := range perftTable {
		if d > 8 && testing.Short() {
			break
		}
		if got := Start().Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
}

func TestPerftGeneric(t *testing.T) {
	p := Start()
	for d := 0; d <= 6; d++ {
		if got := games.PerftGeneric(p, d); got != perftTable[d] {
			t.Errorf("generic perft(%d) = %d, want %d", d, got, perftTable[d])
		}
	}
	if p.String() != StartNotation || p.Hash() != Start().Hash() {
		t.Fatal("perft did not restore the position")
	}
}

// TestRandomGamesConsistency plays random games through the contract; every
// outcome occurs.
func TestRandomGamesConsistency(t *testing.T) {
	out := gametest.RandomGames(t, Game(), 300, 1)
	if out[games.FirstWins] == 0 || out[games.SecondWins] == 0 || out[games.Draw] == 0 {
		t.Fatalf("300 random games ended %v: every outcome should occur", out)
	}
}

func TestCaptures(t *testing.T) {
	// Black man on 9, white men on 14 and 23 with 18 and 27 empty: the
	// double jump 9x18x27 is the only legal move.
	p, err := Parse("B:W14,23:B9")
	if err != nil {
		t.Fatal(err)
	}
	moves, _ := p.Moves(nil)
	if len(moves) != 1 || p.FormatMove(moves[0]) != "9x18x27" {
		t.Fatalf("moves %v", p.formatAll(moves))
	}
	for in, want := range map[string]string{
		"9-13":    "capture is mandatory: 9x18x27",
		"9x18":    "stops early",
		"9x27":    "",
		"9x18x27": "",
		"33-1":    "off the board",
		"9":       "want from-to",
		"a-b":     "not a square number",
	} {
		_, err := p.ParseMove(in)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	// A man crowned by a capture stops there: black man on 23 takes 27 and
	// lands on 32 (crowned); the move ends although a king could go on.
	q, err := Parse("B:W24,27:B23")
	if err != nil {
		t.Fatal(err)
	}
	moves, _ = q.Moves(nil)
	for _, m := range moves {
		q.Play(m)
		if q.kings[0] == 0 {
			t.Errorf("%s did not crown", q.FormatMove(m))
		}
		q.Undo()
	}
	// A king on 10 with white men on 14, 15, 22 and 23 can jump round the
	// ring 10x19x26x17x10 or the other way, 10x17x26x19x10: the same
	// pieces in two orders are two moves, and "10x10" is ambiguous.
	k, err := Parse("B:W14,15,22,23:BK10")
	if err != nil {
		t.Fatal(err)
	}
	moves, _ = k.Moves(nil)
	if len(moves) < 2 {
		t.Fatalf("king loop: %v", k.formatAll(moves))
	}
	if _, err := k.ParseMove("10x10"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("10x10: %v (moves %v)", err, k.formatAll(moves))
	}
	for _, full := range []string{"10x19x26x17x10", "10x17x26x19x10"} {
		m, err := k.ParseMove(full)
		if err != nil {
			t.Errorf("%s: %v (moves %v)", full, err, k.formatAll(moves))
			continue
		}
		// The king ends where it started: it must still be there, and undo
		// must restore the ring.
		k.Play(m)
		if k.String() != "W:W:BK10" {
			t.Errorf("after %s: %s, want W:W:BK10", full, k)
		}
		k.Undo()
		if k.String() != "B:W14,15,22,23:BK10" {
			t.Errorf("undo %s: %s", full, k)
		}
	}
}

// TestParseUnreachable: positions that no game reaches are rejected with
// ErrUnreachable and a message saying what is impossible.
func TestParseUnreachable(t *testing.T) {
	tests := []struct {
		name, fen, want string // want is "" when the position is reachable
	}{
		{"13 black men", "B:W21-32:B1-13", "black has 13 pieces"},
		{"13 white pieces with kings", "W:W20-30,K1,K2:B5", "white has 13 pieces"},
		{"a black man on the crowning row", "B:W1:B30", "would have been crowned"},
		{"a white man on the crowning row", "B:W3:B9", "white man on square 3 would have been crowned"},
		{"the side that moved last has no piece", "W:W5:B", "black has no piece but made the last move"},
		{"both sides empty", "B:W:B", "white has no piece"},
		{"12 each, kings included", "B:W21-30,K1,K2:B3-12,K31,K32", ""},
		{"the side to move has no piece", "W:W:BK10", ""},
		{"men on their own back row", "B:W29-32:B1-4", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.fen)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.fen, err)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.fen, err, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":               "three fields",
		"X:W1:B2":        "side to move",
		"B:W5,5:B2":      "two pieces",
		"B:W33:B1":       "outside 1-32",
		"B:Wx:B1":        "not a square number",
		"B:W5:W6":        "given twice",
		"B:Q5:B6":        "must start with W or B",
		"B:W1:B30":       "would have been crowned",
		"B:W21-32:B1-12": "",
	} {
		_, err := Parse(in)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if p, _ := Parse("B:W21-32:B1-12."); p.String() != StartNotation {
		t.Errorf("ranges: %s", p)
	}
}

// TestDrawRules: kings shuffling back and forth repeat the position three
// times; and NoProgressPlies king moves draw.
func TestDrawRules(t *testing.T) {
	p, _ := Parse("B:WK32:BK1")
	shuffle := []string{"1-5", "32-28", "5-1", "28-32"}
	for i := 0; i < 8; i++ {
		moves, o := p.Moves(nil)
		if o != games.Ongoing {
			t.Fatalf("ended after %d plies: %v", i, o)
		}
		m, err := p.ParseMove(shuffle[i%4])
		if err != nil {
			t.Fatal(err, moves)
		}
		p.Play(m)
	}
	if _, o := p.Moves(nil); o != games.Draw {
		t.Fatalf("third repetition: %v, want a draw", o)
	}
	q, _ := Parse("B:WK32:BK1")
	q.reversible = NoProgressPlies
	if _, o := q.Moves(nil); o != games.Draw {
		t.Fatalf("no progress: %v", o)
	}
	r, _ := Parse("W:W5:B1")
	if _, o := r.Moves(nil); o != games.FirstWins {
		t.Fatalf("white man on 5 blocked by 1: %v, want black to win", o)
	}
}

func TestDoesNotAllocate(t *testing.T) {
	p := Start()
	buf := make([]games.Move, 0, 64)
	for _, ev := range Game().Evaluators() {
		w := ev.Defaults()
		if a := testing.AllocsPerRun(100, func() { ev.Evaluate(p, w) }); a != 0 {
			t.Errorf("%s: %v allocations", ev.Name, a)
		}
	}
	if a := testing.AllocsPerRun(100, func() {
		moves, _ := p.Moves(buf)
		p.Play(moves[0])
		p.Undo()
	}); a != 0 {
		t.Errorf("moves/play/undo: %v allocations", a)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{StartNotation, "B:W14,23:B9", "W:WK32:BK1", "B:W21-32:B1-12.", "::", "B:W:B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"11-15", "9x18x27", "22x15", "", "x", "1-2-3", "99x1"} {
		f.Add(s)
	}
	positions := []*Position{Start()}
	q, _ := Parse("B:W14,23:B9")
	positions = append(positions, q)
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range positions {
			m, err := p.ParseMove(s)
			if err != nil {
				continue
			}
			moves, _ := p.Moves(nil)
			ok := false
			for _, l := range moves {
				ok = ok || l == m
			}
			if !ok {
				t.Fatalf("%q parsed to an illegal move", s)
			}
		}
	})
}

func midgame(b *testing.B) *Position {
	p, err := Parse("W:W18,21,22,23,25,26,27,29,30,31,32:B1,2,3,5,6,7,9,10,11,13")
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPerft counts from the start at 5, 8 and 11 plies (the published
// table's last figure, 85,242,128 leaves).
func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{5, 8, 11} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			p := Start()
			perftLists.Put(perftLists.Get(depth)) // lists lent before the count: 0 allocs/op however few ops
			var n uint64
			for b.Loop() {
				n += p.Perft(depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func BenchmarkMoves(b *testing.B) {
	p := midgame(b)
	buf := make([]games.Move, 0, 64)
	for b.Loop() {
		buf, _ = p.Moves(buf)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	p := midgame(b)
	moves, _ := p.Moves(nil)
	for b.Loop() {
		for _, m := range moves {
			p.Play(m)
			p.Undo()
		}
	}
}

func BenchmarkEvaluatePaper(b *testing.B) {
	p := midgame(b)
	w := paperEvaluator.Defaults()
	for b.Loop() {
		paperEvaluator.Evaluate(p, w)
	}
}

func BenchmarkEvaluateFull(b *testing.B) {
	p := midgame(b)
	w := fullEvaluator.Defaults()
	for b.Loop() {
		fullEvaluator.Evaluate(p, w)
	}
}
