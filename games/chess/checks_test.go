package chess

import (
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestQuietChecks: QuietChecks lists exactly the legal moves that are
// neither captures nor promotions and leave the opponent in check, tried
// one by one, on the perft suite and random positions.
func TestQuietChecks(t *testing.T) {
	check := func(p *Position) {
		t.Helper()
		moves, _ := p.Moves(nil)
		var want []games.Move
		for _, m := range moves {
			if p.kind[mTo(m)] != noPiece || mPromo(m) != 0 || mFlag(m) == flagEnPassant {
				continue
			}
			p.Play(m)
			if p.InCheck() {
				want = append(want, m)
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
	// quiet check of the lone rook, castling long not among them.
	for _, c := range []struct {
		fen  string
		want int
	}{{"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", 8}, {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 1}} {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.QuietChecks(nil); len(got) != c.want {
			t.Errorf("%s: %d quiet checks, want %d", c.fen, len(got), c.want)
		}
	}
}
