package checkers

import (
	"testing"

	"github.com/gametune/gametune/games"
)

// TestNullMove: a null move gives the move to the other side (the hash is
// the one of the same pieces with the other side to move) and UndoNull
// brings the position back; a side with a capture to make, or on a board
// of fewer than nullMinPieces pieces, may not pass.
func TestNullMove(t *testing.T) {
	for _, c := range []struct {
		fen, after string
		safe       bool
	}{
		{"B:W21-32:B1-12", "W:W21-32:B1-12", true},
		{"B:W18,22-32:B1-12", "W:W18,22-32:B1-12", true},
		{"B:W14,22-32:B1-12", "", false},                                  // black must take the man on 14
		{"B:W21,22,23,K30:B1,2,3,K9", "W:W21,22,23,K30:B1,2,3,K9", false}, // too few pieces
	} {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if p.NullSafe() != c.safe {
			t.Errorf("%s: NullSafe %v, want %v", c.fen, !c.safe, c.safe)
		}
		if c.after == "" {
			continue
		}
		before, hash := p.String(), p.Hash()
		p.PlayNull()
		q, err := Parse(c.after)
		if err != nil {
			t.Fatal(err)
		}
		if p.Hash() != q.Hash() || p.Turn() != games.Second {
			t.Errorf("%s: after a null move hash %x, turn %v; %s has %x", c.fen, p.Hash(), p.Turn(), c.after, q.Hash())
		}
		p.UndoNull()
		if p.String() != before || p.Hash() != hash {
			t.Errorf("%s: after UndoNull %s (hash %x, want %x)", c.fen, p.String(), p.Hash(), hash)
		}
	}
}
