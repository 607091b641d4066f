package tournament

import (
	"strings"
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
	// fastchess's and cutechess's clock forms: M:SS and H:MM:SS.
	for in, want := range map[string]TimeControl{
		"1:00+1":        {0, time.Minute, time.Second},
		"40/1:30:00":    {40, 90 * time.Minute, 0},
		"0:30.5+0.25":   {0, 30500 * time.Millisecond, 250 * time.Millisecond},
		"2:05":          {0, 125 * time.Second, 0},
		"40/60+0.6":     {40, time.Minute, 600 * time.Millisecond},
		"10:00:00+0.01": {0, 10 * time.Hour, 10 * time.Millisecond},
	} {
		if tc, err := ParseTimeControl(in); err != nil || tc != want {
			t.Errorf("%s: %+v %v, want %+v", in, tc, err, want)
		}
	}
	for _, bad := range []string{"1:60", "1.5:00", "1:2:3:4", ":30", "0:00", "x", "1:00+y", "-1", "1e7", "Inf"} {
		if _, err := ParseTimeControl(bad); err == nil || !strings.Contains(err.Error(), "want [MOVES/]") && !strings.Contains(err.Error(), "increment") {
			t.Errorf("%s: %v", bad, err)
		}
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
