package chess

import (
	"math/rand/v2"
	"testing"
)

// TestPawnStructure: the pawn sets found by filling files are those the
// square-by-square masks define, on random pawn placements of both sides
// and on every position of the perft suite.
func TestPawnStructure(t *testing.T) {
	check := func(c int, pawns, enemy Bitboard) {
		t.Helper()
		var want pawnStructure
		for b := pawns; b != 0; b &= b - 1 {
			s := lsb(b)
			bit := Bitboard(1) << s
			want.rankSum += relativeRank(c, s)
			files := adjacentFiles(s % 8)
			fileAhead, adjAhead := aheadOn(c, s, fileMask(s%8)), aheadOn(c, s, files)
			neighbours := files & pawns
			if fileAhead&pawns != 0 {
				want.doubled |= bit
			}
			if neighbours == 0 {
				want.isolated |= bit
			} else if adjAhead&pawns == neighbours {
				want.backward |= bit
			}
			if (fileAhead|adjAhead)&enemy == 0 {
				want.passed |= bit
			}
		}
		if got := pawnStructureOf(c, pawns, enemy); got != want {
			t.Fatalf("side %d, pawns %#x, enemy %#x: got %+v, want %+v", c, pawns, enemy, got, want)
		}
		if got := passedPawns(c, pawns, enemy); got != want.passed {
			t.Fatalf("side %d, pawns %#x, enemy %#x: passedPawns %#x, want %#x", c, pawns, enemy, got, want.passed)
		}
	}
	r := rand.New(rand.NewPCG(7, 0))
	for range 20000 {
		// Pawns on ranks 2 to 7, each square with probability 1/4 or 1/8.
		inner := ^(rank1 | rank8)
		a, b := Bitboard(r.Uint64()&r.Uint64())&inner, Bitboard(r.Uint64()&r.Uint64()&r.Uint64())&inner
		b &^= a
		check(white, a, b)
		check(black, a, b)
		check(white, b, a)
		check(black, b, a)
	}
	for _, c := range perftSuite {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		for side := range 2 {
			check(side, p.pieces[side][Pawn], p.pieces[side^1][Pawn])
		}
	}
	// Known answers: white a2 b3 c4 d4 d5 h2 against e6 g7. a2 is backward
	// (its one neighbour, b3, ahead), h2 isolated and held back by g7, d4
	// doubled by d5, and e6 stops d4 and d5 but not c4.
	p, err := Parse("4k3/6p1/4p3/3P4/2PP4/1P6/P6P/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	ps := pawnStructureOf(white, p.pieces[white][Pawn], p.pieces[black][Pawn])
	sq := func(names ...string) (b Bitboard) {
		for _, n := range names {
			b |= 1 << (int(n[0]-'a') + 8*int(n[1]-'1'))
		}
		return b
	}
	want := pawnStructure{doubled: sq("d4"), isolated: sq("h2"), backward: sq("a2"), passed: sq("a2", "b3", "c4"), rankSum: 1 + 2 + 3 + 3 + 4 + 1}
	if ps != want {
		t.Errorf("white's pawns: got %+v, want %+v", ps, want)
	}
}

// aheadOn returns the squares of mask ahead of s (towards the opponent)
// for side c, square by square.
func aheadOn(c, s int, mask Bitboard) (b Bitboard) {
	for t := range 64 {
		if mask&(1<<t) != 0 && relativeRank(c, t) > relativeRank(c, s) {
			b |= 1 << t
		}
	}
	return b
}
