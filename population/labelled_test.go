package population

import (
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
)

// labelledChess is a file of chess positions with results in the forms of
// public Texel data sets: EPD with c9 and a closing semicolon (Zurichess's
// quiet-labeled.epd), a result in brackets as a number or a score
// (lichess-big3-resolved, Ethereal's data, with or without an evaluation
// after it), a result after a semicolon, and gametune's own "|".
const labelledChess = `rnb1kbnr/pp1pppp1/7p/2q5/5P2/N1P1P3/P2P2PP/R1BQKBNR w KQkq - c9 "1-0";
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1/2-1/2";
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 [1.0]
rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 [0.5]
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 [0.0]
r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3 [1-0]
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 3 3 [0-1]
r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4 [1/2-1/2]
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4 [0.5] 27
r1bqkb1r/pppp1ppp/2n2n2/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 4; 0.5
r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4;1.0
r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/3P1N2/PPP2PPP/RNBQKB1R b KQkq - 0 4 ; 0
rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2 | 1/2-1/2
`

// TestReadLabelledForms: every common form of a labelled position is read
// with its result for the first player (white).
func TestReadLabelledForms(t *testing.T) {
	g := mustFind(t, "chess")
	ps, err := ReadLabelledPositions(g, []byte(labelledChess))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0.5, 1, 0.5, 0, 1, 0, 0.5, 0.5, 0.5, 1, 0, 0.5}
	if len(ps) != len(want) {
		t.Fatalf("%d positions, want %d", len(ps), len(want))
	}
	lines := strings.Split(labelledChess, "\n")
	for i, p := range ps {
		if p.First != want[i] {
			t.Errorf("line %d %q: result %g, want %g", i+1, lines[i], p.First, want[i])
		}
		if fen := strings.Fields(lines[i]); !strings.HasPrefix(p.Position, strings.Join(fen[:4], " ")) {
			t.Errorf("line %d: position %q, want the line's %q", i+1, p.Position, strings.Join(fen[:4], " "))
		}
	}
	// Tic-tac-toe's boards in the same forms.
	ps, err = ReadLabelledPositions(mustFind(t, "tictactoe"), []byte("xx-oo---- [1.0]\nxx-oo----; 0.5\nxx-oo---- [0-1]\n"))
	if err != nil || len(ps) != 3 || ps[0].First != 1 || ps[1].First != 0.5 || ps[2].First != 0 {
		t.Fatalf("tic-tac-toe: %v %+v", err, ps)
	}
}

// TestReadLabelledErrors: a line in none of the forms, or with a result
// that is not one, is an error naming the line and what is accepted.
func TestReadLabelledErrors(t *testing.T) {
	g := mustFind(t, "tictactoe")
	for _, tc := range []struct{ text, want string }{
		{"xx-oo----\n", "line 1: no result"},
		{"xx-oo---- [1.0\n", `line 1: "[" opens a result and "]" does not close it`},
		{"xx-oo---- [0.7]\n", `line 1: result "0.7"`},
		{"# c\nxx-oo---- [1.0] x\n", `line 2: "x" after the result`},
		{"xx-oo----;\n", `line 1: result ""`},
		{"xx-oo---- [2]\n", "want 1-0, 0-1 or 1/2-1/2, or 1, 0.5, 0"},
		{"xx-oo---- c9 \"1-0\n", "line 1: c9 opens a quote"},
		{"xxxoo---- [1.0]\n", "line 1: the game is over"},
	} {
		_, err := ReadLabelledPositions(g, []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.text, err, tc.want)
		}
	}
}

// FuzzReadLabelledPositions: whatever the file, the reader never panics,
// and every position it returns is the game's own notation of an ongoing
// position, its result 0, 0.5 or 1.
func FuzzReadLabelledPositions(f *testing.F) {
	f.Add(labelledChess)
	f.Add("xx-oo---- | 1-0\nxx-oo---- [0.5]\n# c\n\nxx-oo----; 0\n")
	f.Add("xx-oo---- c9 \"1/2-1/2\";\n")
	f.Add("[1.0]\n;\n|\n c9 \"\n")
	chess, tictactoe := mustFind(f, "chess"), mustFind(f, "tictactoe")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<16 {
			return
		}
		for _, g := range []games.Game{chess, tictactoe} {
			ps, err := ReadLabelledPositions(g, []byte(text))
			if err != nil {
				continue
			}
			for _, p := range ps {
				if p.First != 0 && p.First != 0.5 && p.First != 1 {
					t.Fatalf("result %g", p.First)
				}
				pos, err := g.ParsePosition(p.Position)
				if err != nil || pos.String() != p.Position {
					t.Fatalf("position %q does not read back: %v", p.Position, err)
				}
			}
		}
	})
}
