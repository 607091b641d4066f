package kono

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// TestSolveStart: Kono is a draw with correct play, as the course says.
// Reasoning: the only way to lose is to be blocked, which needs both of a
// side's pieces off the points next to the empty one. From the start the
// first side (a, d) moves into e; every reply keeps a mobile piece for each
// side as long as neither moves its last piece away from the hub e, and a
// side always has such a move available, so neither can force a block and
// the 40-ply cap ends the game drawn. The solver confirms it by exhausting
// the tree, under the 40-ply cap and under a longer one.
func TestSolveStart(t *testing.T) {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	for _, pos := range []string{"XOOX- X 0/40", "XOOX- X 0/60"} {
		p, err := Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(context.Background(), p, mobilityEvaluator, 60)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Value != engine.DrawValue {
			t.Errorf("%s: %v, want draw", pos, sol.Value)
		}
	}
}

// TestBlockedLoses: a side to move with no piece next to the empty point has
// lost.
func TestBlockedLoses(t *testing.T) {
	// Empty c (neighbours d and e); O holds d and e; X holds a and b: X to
	// move is blocked.
	p, err := Parse("XX-OO X")
	if err != nil {
		t.Fatal(err)
	}
	moves, o := p.Moves(nil)
	if len(moves) != 0 || o != games.SecondWins {
		t.Fatalf("blocked X: moves %v outcome %v, want none and 0-1", moves, o)
	}
	// "XXO-O O": empty d, O on c and e, X on a and b. O's e-d would empty e,
	// next to both X pieces; O's c-d empties c, whose neighbours d and e are
	// both O's: X is blocked. So O to move wins in one with c-d.
	q, _ := Parse("XXO-O O")
	s, _ := engine.New(engine.Options{TableMiB: 1})
	sol, _ := s.Solve(context.Background(), q, mobilityEvaluator, 10)
	if sol.Value != engine.Win || sol.Plies != 1 || q.FormatMove(sol.Move) != "c-d" {
		t.Fatalf("XXO-O O: %v in %d with %s, want a win in 1 with c-d", sol.Value, sol.Plies, q.FormatMove(sol.Move))
	}
}

func TestNotation(t *testing.T) {
	p := Start()
	if p.String() != "XOOX- X 0/40" {
		t.Fatalf("start is %q", p)
	}
	moves, _ := p.Moves(nil)
	if len(moves) != 2 {
		t.Fatalf("start moves %v, want a-e and d-e", moves)
	}
	m, err := p.ParseMove("a-e")
	if err != nil {
		t.Fatal(err)
	}
	p.Play(m)
	if p.String() != "-OOXX O 1/40" {
		t.Fatalf("after a-e: %q", p)
	}
	bad := map[string]string{
		"d":   "no piece of the side to move",
		"c":   "no line joins c and a",
		"z-e": "not a slide",
		"be":  "only move to the empty point",
	}
	for in, want := range bad {
		if _, err := p.ParseMove(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMove(%q) = %v, want %q", in, err, want)
		}
	}
	for in, want := range map[string]string{
		"XOOX-":         "want five points",
		"XOOXX X":       "exactly two pieces",
		"XOQX- X":       "point c",
		"XOOX- Z":       "side to move",
		"XOOX- X 50/40": "P/C",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
}

// TestParseUnreachable: positions that no game from the start reaches (with
// the plies given) are rejected with ErrUnreachable; without plies, the
// fewest plies that reach the position are taken.
func TestParseUnreachable(t *testing.T) {
	tests := []struct {
		name, pos, want string // want is "" when the position is reachable
		ply             int    // plies played when it is
	}{
		{"side to move against the plies", "-OOXX X 1/40", "after 1 plies O is to move, not X", 0},
		{"the start after one ply", "XOOX- O 1/40", "no game from the start (XOOX- X) reaches XOOX- after 1 plies; it first arises after 11 plies", 0},
		{"never with O to move", "XX-OO O", "reaches XX-OO with O to move", 0},
		{"never with X to move", "-XOOX X", "reaches -XOOX with X to move", 0},
		{"never with O to move, plies given", "-OXXO O 9/40", "reaches -OXXO after 9 plies", 0},
		{"not yet after 2 plies", "XX-OO X 2/40", "first arises after 4 plies", 0},
		{"the start", "XOOX- X", "", 0},
		{"the first ply", "-OOXX O 1/40", "", 1},
		{"X blocked after 4 plies", "XX-OO X", "", 4},
		{"O to move at 13 plies at the earliest", "XXO-O O", "", 13},
		{"the start again at the cap", "XOOX- X 40/40", "", 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.pos)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.pos, err)
				}
				if p.ply != tc.ply {
					t.Fatalf("Parse(%q): %d plies played, want %d", tc.pos, p.ply, tc.ply)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.pos, err, tc.want)
			}
		})
	}
}

func TestDrawByCap(t *testing.T) {
	p, _ := Parse("XOOX- X 40/40")
	if moves, o := p.Moves(nil); len(moves) != 0 || o != games.Draw {
		t.Fatalf("at the cap: %v %v, want a draw", moves, o)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"XOOX- X", "XOOX- X 0/40", "-OOXX O 1/40", "", "XX-OO X 3/4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func BenchmarkPerft(b *testing.B) {
	var n uint64
	for b.Loop() {
		n += games.Perft(Start(), 20)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkMoves(b *testing.B) {
	p := Start()
	buf := make([]games.Move, 0, 8)
	for b.Loop() {
		buf, _ = p.Moves(buf)
	}
}

func TestRandomGamesConsistency(t *testing.T) {
	gametest.RandomGames(t, Game(), 200, 5)
}
