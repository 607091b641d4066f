package chess

import (
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestQuietChecks: QuietChecks lists exactly the legal moves that are
// neither captures nor promotions and leave the opponent in check, tried
// one by one, but those checking with the moved piece alone where the
// opponent can take it for less than it is worth (slowLoses: attacker by
// attacker), on the perft suite and random positions.
func TestQuietChecks(t *testing.T) {
	check := func(p *Position) {
		t.Helper()
		moves, _ := p.Moves(nil)
		var want []games.Move
		for _, m := range moves {
			if p.kind[mTo(m)] != noPiece || mPromo(m) != 0 || mFlag(m) == flagEnPassant {
				continue
			}
			to := mTo(m)
			p.Play(m)
			if p.InCheck() {
				// A discovered check: some checker other than the
				// moved piece.
				k := p.kingSquare(p.turn)
				discovered := p.attackersTo(k, p.occupied())&p.colors[p.turn^1]&^(1<<to) != 0
				if mFlag(m) == flagCastle || discovered || !slowLoses(p, to) {
					want = append(want, m)
				}
			}
			p.Undo()
		}
		prefix := []games.Move{1, 2}
		got := p.QuietChecks(slices.Clone(prefix))
		if !slices.Equal(got[:2], prefix) {
			t.Fatalf("%s: QuietChecks changed dst's moves: %v", p.String(), got[:2])
		}
		slices.Sort(want)
		got = slices.Sorted(slices.Values(got[2:]))
		if !slices.Equal(got, want) {
			t.Fatalf("%s: QuietChecks %v, want %v", p.String(), got, want)
		}
	}
	for _, c := range perftSuite {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		check(p)
	}
	randomPositions(t, 200, func(p *Position, _ []games.Move) { check(p) })
	// Known answers: every move of the e4 knight uncovers the e1 rook (and
	// two check directly as well); no other move checks. Ra8 is the only
	// quiet check of the lone rook, castling long not among them. The
	// queen checks from h8, h5, e4 and e1; Qe7+ and Qd8+ are left out,
	// the king taking on e7 and the knight on d8.
	for _, c := range []struct {
		fen  string
		want int
	}{{"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", 8}, {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 1}, {"4k3/8/2n5/8/7Q/8/8/K7 w - - 0 1", 4}} {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.QuietChecks(nil); len(got) != c.want {
			t.Errorf("%s: %d quiet checks, want %d", c.fen, len(got), c.want)
		}
	}
}

// slowLoses reports whether the piece just moved to t can be taken there
// for less than it is worth, by the side to move now: square by square,
// each enemy attacker tried.
func slowLoses(p *Position, t int) bool {
	mover := int(p.kind[t])
	defended := false
	cheaper := false
	attacked := false
	for s := range 64 {
		if p.kind[s] == noPiece || s == t {
			continue
		}
		if !attacksSquare(p, s, t) {
			continue
		}
		if p.colorAt(s) == p.turn {
			attacked = true
			if checkerValue[p.kind[s]] < checkerValue[mover] {
				cheaper = true
			}
		} else {
			defended = true
		}
	}
	return attacked && (!defended || cheaper)
}

// attacksSquare reports whether the piece on s attacks t, through the
// current occupancy.
func attacksSquare(p *Position, s, t int) bool {
	c, k, occ := p.colorAt(s), int(p.kind[s]), p.occupied()
	if k == Pawn {
		return pawnAttacks[c][s]&(1<<t) != 0
	}
	return attacks(k, s, occ)&(1<<t) != 0
}

// TestRecaptured: known sequences, an even recapture (a pawn for a pawn, a
// bishop for a knight) counts; a recapture of other worth, one on another
// square, a capture after a quiet move and the first moves of a game do
// not.
func TestRecaptured(t *testing.T) {
	cases := []struct {
		fen   string
		moves string
		want  bool
	}{
		{"startpos", "", false},
		{"startpos", "e2e4", false},
		{"startpos", "e2e4 d7d5 e4d5", false},
		{"startpos", "e2e4 d7d5 e4d5 d8d5", true},
		{"startpos", "e2e4 d7d5 e4d5 g8f6", false},
		{"startpos", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a2 a1a2", false}, // a queen for a pawn
		{"startpos", "e2e4 d7d5 e4d5 c7c6 d5c6 b8c6", true},
		{"startpos", "e2e4 d7d5 d2d4 e7e5 e4d5 e5d4", false},                                          // on another square
		{"rnbqkb1r/pppppppp/5n2/8/8/3P4/PPPBPPPP/RN1QKBNR w KQkq - 0 1", "d2g5 e7e6 g5f6 g7f6", true}, // a bishop for a knight
		{"rnbqkb1r/pppppppp/5n2/8/8/3P4/PPPBPPPP/RN1QKBNR w KQkq - 0 1", "d2g5 f6e4 d3e4", false},     // after a quiet move
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "e4d5 d8d5", true},
	}
	for _, c := range cases {
		fen := c.fen
		if fen == "startpos" {
			fen = StartFEN
		}
		p, err := Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range strings.Fields(c.moves) {
			m, err := p.ParseMove(s)
			if err != nil {
				t.Fatalf("%s %q: %v", fen, s, err)
			}
			p.Play(m)
		}
		if got := p.Recaptured(); got != c.want {
			t.Errorf("%s after %q: Recaptured %v, want %v", c.fen, c.moves, got, c.want)
		}
	}
}

// TestPushedToSeventh: a pawn's move, or capture, onto its seventh rank
// counts, for either side; a pawn on its sixth, a promotion, a piece on the
// seventh and a pawn that stood on the seventh already do not. Extend is
// either this or Recaptured.
func TestPushedToSeventh(t *testing.T) {
	cases := []struct {
		fen, moves          string
		seventh, recaptured bool
	}{
		{"4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6d7", true, false},
		{"4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", false, false},
		{"2r4k/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7c8q", false, false},    // a promotion
		{"4k3/8/2pP4/8/8/8/8/4K3 b - - 0 1", "c6c5 d6d7", true, false}, // black's quiet move, then white's
		{"4k3/8/8/8/8/3p4/8/4K3 b - - 0 1", "d3d2", true, false},       // black's seventh is the second rank
		{"4k3/2n5/3P4/8/8/8/8/4K3 w - - 0 1", "d6c7", true, false},     // a capture onto it
		{"4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", "d2d7", false, false},      // a rook on the seventh
		{"7k/3P4/8/8/8/8/8/4K3 w - - 0 1", "e1e2", false, false},       // a pawn there already
		{"4k3/2n5/1P6/8/8/8/8/4K3 w - - 0 1", "b6c7", true, false},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "e4d5 d8d5", false, true},
	}
	for _, c := range cases {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range strings.Fields(c.moves) {
			m, err := p.ParseMove(s)
			if err != nil {
				t.Fatalf("%s %q: %v", c.fen, s, err)
			}
			p.Play(m)
		}
		if got := p.PushedToSeventh(); got != c.seventh {
			t.Errorf("%s after %q: PushedToSeventh %v, want %v", c.fen, c.moves, got, c.seventh)
		}
		if got := p.Extend(); got != (c.seventh || c.recaptured) {
			t.Errorf("%s after %q: Extend %v, want %v", c.fen, c.moves, got, c.seventh || c.recaptured)
		}
	}
}
