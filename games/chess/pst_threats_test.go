package chess

import "testing"

// slowAttackers returns the kinds of side c's pieces that attack sq, walked
// square by square: attackers[k] for kind k.
func slowAttackers(p *Position, c, sq int) (attackers [6]bool) {
	attackers[Pawn] = slowPawnAttacked(p, c, sq)
	for from := range 64 {
		k := int(p.kind[from])
		if k == noPiece || p.colorAt(from) != c {
			continue
		}
		switch k {
		case King:
			if from != sq && max(from%8-sq%8, sq%8-from%8, from/8-sq/8, sq/8-from/8) <= 1 {
				attackers[King] = true
			}
		case Knight, Bishop, Rook, Queen:
			if slowAttacks(p, k, from)&(1<<sq) != 0 {
				attackers[k] = true
			}
		}
	}
	return attackers
}

// slowThreat returns the threat entry of the piece on sq (not a king) if
// the other side attacks it: its least valuable attacker's kind, its kind,
// and whether no piece of its side attacks its square.
func slowThreat(p *Position, sq int) (entry int, ok bool) {
	d := p.colorAt(sq)
	by, def := slowAttackers(p, d^1, sq), slowAttackers(p, d, sq)
	for k := Pawn; k <= King; k++ {
		if by[k] {
			defended := def != [6]bool{}
			return 10*k + 2*int(p.kind[sq]) + map[bool]int{true: 0, false: 1}[defended], true
		}
	}
	return 0, false
}

// TestThreatColumns names a few entries by hand.
func TestThreatColumns(t *testing.T) {
	cols := threatColumns()
	for e, want := range map[int]string{0: "PxP", 1: "PxP!", 2: "PxN", 9: "PxQ!", 18: "NxQ", 58: "KxQ", 59: "KxQ!"} {
		if cols[e] != want {
			t.Errorf("entry %d named %q, want %q", e, cols[e], want)
		}
	}
}

// TestPSTThreatKnownAnswers scores the threat tables on positions worked
// out by hand, at phase 4/24 (one queen) unless said otherwise.
func TestPSTThreatKnownAnswers(t *testing.T) {
	ev, err := emptyPST.WithData(pstData(t, map[[3]string]float32{
		{"threats-by-mover", "mg", "#9"}: 24, {"threats-by-mover", "eg", "#9"}: 48, // PxQ!
		{"threats-by-mover", "mg", "#8"}: 12, // PxQ defended
		{"threats-on-mover", "mg", "#9"}: 24, {"threats-on-mover", "eg", "#9"}: 48,
		{"threats-on-mover", "mg", "#39"}: 240, // RxQ!
		{"threats-by-mover", "mg", "#41"}: 6,   // QxP!
	}))
	if err != nil {
		t.Fatal(err)
	}
	checkTableFeatures(t, ev, []tableCase{
		// White's d4 pawn attacks Black's undefended e5 queen, White to
		// move: 24*4/24 + 48*20/24.
		{"4k3/8/8/4q3/3P4/8/8/7K w - - 0 1", map[string]float64{"threats-by-mover": 44}},
		// The same, Black to move: the opponent's threat, subtracted; the
		// queen's on the undefended d4 pawn is the mover's (QxP!, 6*4/24).
		{"4k3/8/8/4q3/3P4/8/8/7K b - - 0 1", map[string]float64{"threats-on-mover": -44, "threats-by-mover": 1}},
		// Black's d6 pawn defends the queen: PxQ defended, 12*4/24; the
		// queen attacks d4 (defended by nothing: QxP!, entry 41, zero).
		{"4k3/8/3p4/4q3/3P4/8/8/7K w - - 0 1", map[string]float64{"threats-by-mover": 2}},
		// A rook and a pawn both attack the queen: the pawn is the least
		// valuable attacker. Phase (4+2)/24: 24*6/24 + 48*18/24. The queen
		// attacks the undefended e4 pawn (QxP!, 6*6/24) and the d1 rook,
		// defended by the king (QxR, zero).
		{"4k3/8/8/3q4/4P3/8/8/3RK3 b - - 0 1", map[string]float64{"threats-on-mover": -42, "threats-by-mover": 1.5}},
		// The rook alone (its pawn gone): RxQ!, 240*6/24; the queen's
		// threat on the d1 rook, defended by the king, reads zero.
		{"4k3/8/8/3q4/8/8/8/3RK3 b - - 0 1", map[string]float64{"threats-on-mover": -60}},
	})
}
