package chess_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
)

// TestExchange: the static exchange evaluation of known captures, in
// centipawns: free, even and losing captures, a slider behind a slider,
// en passant and a capture that promotes.
func TestExchange(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		want      int32
	}{
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},             // a free pawn
		{"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},             // pawn for pawn
		{"4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", -850},          // the queen for a pawn
		{"4k3/8/2p5/3n4/8/8/3R4/4K3 w - - 0 1", "d2d5", 320 - 500},     // the rook for a knight
		{"4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},          // the rook behind takes back last
		{"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100 - 500},   // two rooks each: white stops at a pawn for a rook
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},             // en passant
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 320 + 950 - 100}, // a knight and a queen for a pawn
		{"4k3/8/8/3p4/4K3/8/8/8 w - - 0 1", "e4d5", 100},               // the king takes an undefended pawn
		{"4k3/8/8/8/3q4/8/3R4/3QK3 b - - 0 1", "d4d2", 500 - 950},      // the queen takes a rook the queen behind defends
	} {
		p, err := chess.Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if got := p.Exchange(m); got != c.want {
			t.Errorf("%s %s: exchange %d, want %d", c.fen, c.move, got, c.want)
		}
	}
}

// TestNullMove: a null move gives the move to the other side (the hash is
// the one of the same position with the other side to move, the
// en-passant square gone), and UndoNull brings the position back; a side
// in check, or with only its king and pawns, may not pass.
func TestNullMove(t *testing.T) {
	for _, c := range []struct {
		fen, after string
		safe       bool
	}{
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", true},
		{"4k3/8/8/3pP3/8/8/8/4K2N w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K2N b - - 0 1", true},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1", false}, // king and pawns
		{"4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "", false},                                  // in check
	} {
		p, err := chess.Parse(c.fen)
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
		q, err := chess.Parse(c.after)
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

// TestNullMoveDoesNotAllocate: PlayNull, UndoNull, NullSafe and Exchange
// allocate nothing.
func TestNullMoveDoesNotAllocate(t *testing.T) {
	p, err := chess.Parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := p.ParseMove("e2a6")
	allocs := testing.AllocsPerRun(100, func() {
		if p.NullSafe() {
			p.PlayNull()
			p.UndoNull()
		}
		p.Exchange(m)
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// TestNullMoveAlongGames: along seeded random games, at every position
// where the side to move may pass, the null move's hash is the one of the
// same position computed from scratch (its FEN parsed again: the other side
// to move, no en-passant square), differs from the position's own, and
// stays right after each reply played and taken back; no repetition
// reaches across it; and UndoNull brings back the position, its hash and
// its history exactly.
func TestNullMoveAlongGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 1))
	nulls := 0
	for game := 0; game < 20; game++ {
		p := chess.Start()
		for ply := 0; ply < 120; ply++ {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				break
			}
			if p.NullSafe() {
				nulls++
				checkNullMove(t, p, moves)
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if nulls < 1000 {
		t.Errorf("only %d null moves tried", nulls)
	}
}

// checkNullMove plays a null move at p, with the checks of
// TestNullMoveAlongGames, and takes it back.
func checkNullMove(t *testing.T, p *chess.Position, moves []games.Move) {
	t.Helper()
	before, hash, plies, turn := p.String(), p.Hash(), p.Ply(), p.Turn()
	p.PlayNull()
	after := p.String()
	q, err := chess.Parse(after)
	if err != nil {
		t.Fatalf("%s: after a null move %q: %v", before, after, err)
	}
	if p.Hash() != q.Hash() || p.Hash() == hash || p.Turn() == turn || strings.Fields(after)[3] != "-" {
		t.Fatalf("%s: after a null move %s hash %x (from scratch %x, before %x), turn %v", before, after, p.Hash(), q.Hash(), hash, p.Turn())
	}
	for k := 2; k <= 100; k += 2 {
		if p.Repeats(k) {
			t.Fatalf("%s: a repetition across the null move (%d plies)", before, k)
		}
	}
	replies, _ := p.Moves(nil)
	for _, m := range replies {
		p.Play(m)
		r, err := chess.Parse(p.String())
		if err != nil || r.Hash() != p.Hash() {
			t.Fatalf("%s: null move, then %s: hash %x, from scratch %x (%v)", before, q.FormatMove(m), p.Hash(), r.Hash(), err)
		}
		p.Undo()
	}
	if p.String() != after {
		t.Fatalf("%s: replies after the null move left %s, want %s", before, p.String(), after)
	}
	p.UndoNull()
	if p.String() != before || p.Hash() != hash || p.Ply() != plies || p.Turn() != turn {
		t.Fatalf("%s: after UndoNull %s (hash %x, want %x; ply %d, want %d)", before, p.String(), p.Hash(), hash, p.Ply(), plies)
	}
	if again, _ := p.Moves(nil); len(again) != len(moves) {
		t.Fatalf("%s: %d moves after UndoNull, %d before", before, len(again), len(moves))
	}
}
