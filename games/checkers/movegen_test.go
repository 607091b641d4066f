package checkers

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestShift: a whole-board step, through the tables and written out, is
// the square table's step, square by square.
func TestShift(t *testing.T) {
	for d := 0; d < 4; d++ {
		for s := 0; s < 32; s++ {
			var want Bitboard
			if to := step[d][s]; to >= 0 {
				want = 1 << to
			}
			if got := shift(1<<s, d); got != want {
				t.Errorf("shift(square %d, direction %d) = %#x, want %#x", s+1, d, got, want)
			}
			fixed := [4]func(Bitboard) Bitboard{stepDownLeft, stepDownRight, stepUpLeft, stepUpRight}[d]
			if got := fixed(1 << s); got != want {
				t.Errorf("the step of direction %d from square %d = %#x, want %#x", d, s+1, got, want)
			}
		}
	}
}

// referenceMoves lists the moves square by square through the step and
// jump tables, in the order Moves gives them: the generator the bitboard
// one replaced.
func referenceMoves(p *Position) []games.Move {
	me := p.turn
	them := p.pieces(me.Other())
	occ := p.occupied()
	var out []games.Move
	var path [32]int
	var walk func(origin, s int, king bool, taken Bitboard, n int)
	walk = func(origin, s int, king bool, taken Bitboard, n int) {
		extended := false
		for d := 0; d < 4; d++ {
			if !king && d != forward[me][0] && d != forward[me][1] {
				continue
			}
			over, to := step[d][s], jump[d][s]
			if to < 0 || them&^taken&(1<<over) == 0 || (occ&^(1<<origin))&(1<<to) != 0 {
				continue
			}
			extended = true
			path[n] = d
			if !king && lastRow[me]&(1<<to) != 0 {
				out = append(out, encodeMove(origin, path[:n+1]))
				continue
			}
			walk(origin, int(to), king, taken|1<<over, n+1)
		}
		if !extended && n > 0 {
			out = append(out, encodeMove(origin, path[:n]))
		}
	}
	for _, king := range []bool{false, true} {
		b := p.men[me]
		if king {
			b = p.kings[me]
		}
		for ; b != 0; b &= b - 1 {
			walk(lowest(b), lowest(b), king, 0, 0)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, king := range []bool{false, true} {
		b := p.men[me]
		if king {
			b = p.kings[me]
		}
		for ; b != 0; b &= b - 1 {
			s := lowest(b)
			for d := 0; d < 4; d++ {
				if !king && d != forward[me][0] && d != forward[me][1] {
					continue
				}
				if t := step[d][s]; t >= 0 && occ&(1<<t) == 0 {
					out = append(out, simpleMove(s, d))
				}
			}
		}
	}
	return out
}

// TestMovesAgainstTables plays random games, many with kings, and checks at
// every position that Moves lists exactly the reference moves in the same
// order (the search's results depend on it) and that countMoves counts them.
func TestMovesAgainstTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	positions := 0
	for game := 0; game < 300; game++ {
		p := Start()
		for {
			moves, o := p.Moves(nil)
			if o != games.Ongoing {
				if p.countMoves() != 0 {
					t.Fatalf("%s: game over, countMoves %d", p, p.countMoves())
				}
				break
			}
			positions++
			if want := referenceMoves(p); !slices.Equal(moves, want) {
				t.Fatalf("%s: moves %v, want %v", p, p.formatAll(moves), p.formatAll(want))
			}
			if n := p.countMoves(); n != len(moves) {
				t.Fatalf("%s: countMoves %d, want %d", p, n, len(moves))
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if positions < 10000 {
		t.Fatalf("only %d positions", positions)
	}
}

// TestPerftPositions: the bulk counter agrees with the generic one in
// positions with kings, captures and the king's ring.
func TestPerftPositions(t *testing.T) {
	for _, fen := range []string{
		"B:W18,20,21,24,25,26,27,29,32:B1,2,3,4,6,7,8,9,11,16,K31",
		"W:W12,17,20,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,13,22",
		"B:W14,15,22,23:BK10",
		"W:WK14,K15,22,23:BK10,K1,5",
		"B:WK32:BK1",
	} {
		p, err := Parse(fen)
		if err != nil {
			t.Fatal(err)
		}
		depth := 6
		if testing.Short() {
			depth = 4
		}
		for d := 0; d <= depth; d++ {
			if got, want := p.Perft(d), games.PerftGeneric(p, d); got != want {
				t.Errorf("%s: perft(%d) = %d, generic %d", fen, d, got, want)
			}
		}
	}
}

// TestPerftDrawRules: with kings only, the bulk counter stops at draws by
// repetition and by the no-progress rule as the generic one does, from
// fresh positions and from ones already deep into their reversible plies.
func TestPerftDrawRules(t *testing.T) {
	for _, c := range []struct {
		fen   string
		depth int
	}{{"B:WK32:BK1", 10}, {"W:WK32,K27:BK1,K6", 7}} {
		for _, reversible := range []int{0, 5, 6, 7, 74, 79} {
			p, err := Parse(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			p.reversible = reversible
			for d := 1; d <= c.depth; d++ {
				if got, want := p.Perft(d), games.PerftGeneric(p, d); got != want {
					t.Errorf("%s after %d reversible plies: perft(%d) = %d, generic %d", c.fen, reversible, d, got, want)
				}
			}
		}
	}
}
