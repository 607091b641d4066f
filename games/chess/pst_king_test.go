package chess

import "testing"

// TestPSTKingKnownAnswers scores the king-safety tables on positions worked
// out by hand.
func TestPSTKingKnownAnswers(t *testing.T) {
	ev, err := emptyPST.WithData(pstData(t, map[[3]string]float32{
		{"pawn-shelter", "eg", "#1"}: 4, {"pawn-shelter", "eg", "#2"}: 1,
		{"pawn-shelter", "eg", "#37"}: 6, {"pawn-shelter", "eg", "#38"}: 3,
		{"safe-checks", "mg", "#33"}: 12, {"safe-checks", "eg", "#33"}: 24,
		{"safe-checks", "eg", "#32"}: 5, {"safe-checks", "eg", "#16"}: 7, {"safe-checks", "eg", "#34"}: 2,
	}))
	if err != nil {
		t.Fatal(err)
	}
	checkTableFeatures(t, ev, []tableCase{
		// Kings and pawns (phase 0). White's g1 king: f2 and g2 at
		// rank 2 (entries 17 and 9), h3 at rank 3 on an edge file (2: 1);
		// storm pawns f7, g7, h7 at rank 7 from White's side (54, 46, 38:
		// 3). Black's g8 king: f7, g7, h7 (17, 9, 1: 4); storm f2, g2 at
		// rank 7 from Black's side (54, 46), h3 at rank 6 (37: 6). From
		// White's side 1+3 - (4+6).
		{"6k1/5ppp/8/8/8/7P/5PP1/6K1 w - - 0 1", map[string]float64{"pawn-shelter": -6}},
		// The a1 rook checks safely from a8 (entry 33), phase 2/24:
		// 12*2/24 + 24*22/24. Both kings' shelter entries are empty files
		// (24, 24, 16; 56, 56, 48), cancelling.
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{"safe-checks": 23}},
		// The b7 bishop guards a8: no safe rook check (32: 5); the bishop
		// has none on the e1 king (16: 7). Phase 3/24, from White's side
		// (5-7)*21/24; from Black's the opposite.
		{"4k3/1b6/8/8/8/8/8/R3K3 w - - 0 1", map[string]float64{"safe-checks": -1.75}},
		{"4k3/1b6/8/8/8/8/8/R3K3 b - - 0 1", map[string]float64{"safe-checks": 1.75}},
		// With the king on g1 the rook checks safely from a8 and e1 too
		// (34): 2*22/24.
		{"4k3/8/8/8/8/8/8/R5K1 w - - 0 1", map[string]float64{"safe-checks": 2.0 * 22 / 24}},
	})
	for i, want := range map[int]string{0: "shelter ah -", 10: "shelter bg 3", 30: "shelter de 7", 39: "", 46: "storm bg 7", 7: ""} {
		if got := kingColumns(false)[i]; got != want {
			t.Errorf("pawn-shelter entry %d is named %q, want %q", i, got, want)
		}
	}
	for i, want := range map[int]string{0: "N0", 15: "N15", 33: "R1", 50: "Q2", 63: "Q15"} {
		if got := kingColumns(true)[i]; got != want {
			t.Errorf("safe-checks entry %d is named %q, want %q", i, got, want)
		}
	}
}
