package nboard

import (
	"testing"

	"github.com/gametune/gametune/games/othello"
)

func TestMoves(t *testing.T) {
	tests := []struct {
		in, out string
	}{
		{"F5", "F5"}, {"f5/1.5", "F5/1.50"}, {"d6/-1/0.25", "D6/-1.00/0.25"}, {"PA", "PA"}, {"pass//", "PA"},
	}
	for _, tt := range tests {
		m, err := ParseMove(tt.in)
		if err != nil || m.String() != tt.out {
			t.Errorf("%q: %q %v, want %q", tt.in, m.String(), err, tt.out)
		}
	}
	for _, bad := range []string{"", "I1", "F9", "F5/x", "F5/1/2/3", "F5/NaN"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got := BestMove(Move{Square: "d6", Eval: -1, HasEval: true, Seconds: 0.5}); got != "=== D6/-1.00/0.50" {
		t.Errorf("BestMove: %q", got)
	}
	if got := Search([]string{"f5", "d6"}, 2, 7); got != "search F5-D6 2.00 0 7" {
		t.Errorf("Search: %q", got)
	}
}

func TestParseAnswer(t *testing.T) {
	a, err := ParseAnswer("=== d6 -1.00 0.0")
	if err != nil || a.Move.Square != "d6" || a.Move.Eval != -1 {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = ParseAnswer("pong 7")
	if err != nil || a.Pong != 7 {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = ParseAnswer("status Edax is thinking")
	if err != nil || a.Kind != "status" || a.Text != "Edax is thinking" {
		t.Fatalf("%+v %v", a, err)
	}
	for _, bad := range []string{"===", "pong x", ""} {
		if _, err := ParseAnswer(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzParse: no line panics the parsers; what they accept writes back to
// text they read the same way.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"set game (;GM[Othello]BO[8 " + othello.StartGGFBoard + " *]B[F5];)", "move F5/1.00/0.5", "=== d6 -1.00 0.0", "pong 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if m, err := ParseMove(line); err == nil {
			again, err := ParseMove(m.String())
			if err != nil || again.String() != m.String() {
				t.Fatalf("move %q -> %q -> %v", line, m.String(), err)
			}
		}
		_, _ = ParseAnswer(line)
	})
}
