package chess

import (
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// walkAttacks is the reference for the sliders: step along each direction
// of dirs from s until the edge or the first occupied square (included).
func walkAttacks(s int, occ Bitboard, dirs [][2]int) Bitboard {
	var a Bitboard
	for _, d := range dirs {
		f, r := s%8+d[0], s/8+d[1]
		for onBoard(f, r) {
			a |= 1 << (r*8 + f)
			if occ&(1<<(r*8+f)) != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return a
}

// TestSliderAttacks: the branchless rook and bishop attacks equal the
// square-by-square walk on random boards, sparse and dense.
func TestSliderAttacks(t *testing.T) {
	rookDirs := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	bishopDirs := [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	rng := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 20000; i++ {
		occ := rng.Uint64() & rng.Uint64()
		if i%2 == 1 {
			occ |= rng.Uint64()
		}
		s := rng.IntN(64)
		if got, want := rookAttacks(s, occ), walkAttacks(s, occ, rookDirs); got != want {
			t.Fatalf("rook on %d, occupied %#x: %#x, want %#x", s, occ, got, want)
		}
		if got, want := bishopAttacks(s, occ), walkAttacks(s, occ, bishopDirs); got != want {
			t.Fatalf("bishop on %d, occupied %#x: %#x, want %#x", s, occ, got, want)
		}
	}
}

// TestCountMoves: perft's leaf count equals the length of the move list in
// the standard perft positions and along random games from each, which
// pass through checks, pins, promotions, en passant and castling.
func TestCountMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var buf []games.Move
	checked := 0
	for _, c := range perftSuite {
		for game := 0; game < 40; game++ {
			p, err := Parse(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 200; ply++ {
				buf = p.generate(buf[:0], false)
				if n := p.countMoves(); n != len(buf) {
					t.Fatalf("%s: countMoves %d, want %d", p, n, len(buf))
				}
				checked++
				if len(buf) == 0 {
					break
				}
				p.Play(buf[rng.IntN(len(buf))])
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d positions", checked)
	}
}
