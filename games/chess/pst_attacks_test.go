package chess

import (
	"math"
	"testing"

	"github.com/gametune/gametune/games"
)

// slowAttacks is the set of squares a piece of kind k (Knight ... Queen) on
// sq attacks, walked square by square.
func slowAttacks(p *Position, k, sq int) Bitboard {
	diagonal := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	straight := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	occ := p.occupied()
	switch k {
	case Knight:
		var a Bitboard
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if f, r := sq%8+d[0], sq/8+d[1]; onBoard(f, r) {
				a |= 1 << (r*8 + f)
			}
		}
		return a
	case Bishop:
		return walkAttacks(sq, occ, diagonal)
	case Rook:
		return walkAttacks(sq, occ, straight)
	}
	return walkAttacks(sq, occ, diagonal) | walkAttacks(sq, occ, straight)
}

// slowPawnAttacked reports whether a pawn of side c attacks sq.
func slowPawnAttacked(p *Position, c, sq int) bool {
	back := -1 // a white pawn attacks from the rank below
	if c == black {
		back = 1
	}
	for _, df := range [2]int{-1, 1} {
		if f, r := sq%8+df, sq/8+back; onBoard(f, r) && p.kind[r*8+f] == Pawn && p.colorAt(r*8+f) == c {
			return true
		}
	}
	return false
}

// TestPSTAttackKnownAnswers scores the mobility and king-attack tables on
// positions worked out by hand, at phase 1/24 (one knight).
func TestPSTAttackKnownAnswers(t *testing.T) {
	ev, err := emptyPST.WithData(pstData(t, map[[3]string]float32{
		{"knight-mobility", "mg", "#8"}: 6, {"knight-mobility", "eg", "#8"}: 12, {"knight-mobility", "eg", "#6"}: 3,
		{"king-attack", "eg", "#0"}: 1, {"king-attack", "eg", "#4"}: 10,
	}))
	if err != nil {
		t.Fatal(err)
	}
	checkTableFeatures(t, ev, []tableCase{
		// The e4 knight attacks 8 empty squares: 6/24 + 12*23/24; neither
		// side attacks the other's king (entry 0 for both, cancelling).
		{"4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", map[string]float64{"knight-mobility": 11.75}},
		// Black's e7 pawn attacks d6 and f6: 6 safe squares, 3*23/24.
		{"4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1", map[string]float64{"knight-mobility": 2.875}},
		// The f6 knight attacks e8 and d7 of the black king's zone: 4 units
		// (10) against Black's 0 (1), from Black's side: -(10-1)*23/24; its
		// 8 squares count the enemy king's.
		{"4k3/8/5N2/8/8/8/8/4K3 b - - 0 1", map[string]float64{"knight-mobility": -11.75, "king-attack": -8.625}},
	})
}

// tableCase is a position and the value of each table's feature there
// (table name -> value; the others 0).
type tableCase struct {
	fen  string
	want map[string]float64
}

// checkTableFeatures checks ev's table features on each case.
func checkTableFeatures(t *testing.T, ev *games.Evaluator, cases []tableCase) {
	t.Helper()
	f := make([]float64, pstFeatureCount)
	for _, c := range cases {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		ev.FeatureValues(p, f)
		for i, name := range pstTableNames {
			if x := f[pstScale(i)]; math.Abs(x-c.want[name]) > 1e-6 {
				t.Errorf("%s: %s table %v, want %v", c.fen, name, x, c.want[name])
			}
		}
	}
}
