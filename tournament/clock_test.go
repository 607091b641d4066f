package tournament

import (
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	tc, err := ParseTimeControl("40/60+0.5")
	if err != nil || tc != (TimeControl{40, time.Minute, 500 * time.Millisecond}) {
		t.Fatalf("40/60+0.5: %+v %v", tc, err)
	}
	if s := tc.String(); s != "40/60+0.5" {
		t.Errorf("40/60+0.5 written back as %q", s)
	}
	tc, err = ParseTimeControl("0.5")
	if err != nil || tc != (TimeControl{0, 500 * time.Millisecond, 0}) {
		t.Fatalf("0.5: %+v %v", tc, err)
	}
	if s := tc.String(); s != "0.5" {
		t.Errorf("0.5 written back as %q", s)
	}
}

// TestPair: the second game of a pair swaps the players and takes the
// next seed; everything else is the first's.
func TestPair(t *testing.T) {
	a, b := Player{Name: "a"}, Player{Name: "b"}
	p := Pair(GameSpec{Opening: "moves: d3", First: a, Second: b, Seed: 6, MaxPlies: 9})
	if p[0].First.Name != "a" || p[0].Second.Name != "b" || p[0].Seed != 6 {
		t.Errorf("first game: %s-%s seed %d", p[0].First.Name, p[0].Second.Name, p[0].Seed)
	}
	if p[1].First.Name != "b" || p[1].Second.Name != "a" || p[1].Seed != 7 || p[1].Opening != "moves: d3" || p[1].MaxPlies != 9 {
		t.Errorf("second game: %s-%s seed %d opening %q plies %d", p[1].First.Name, p[1].Second.Name, p[1].Seed, p[1].Opening, p[1].MaxPlies)
	}
}
