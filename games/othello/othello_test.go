package othello

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// perftTable is the published Othello perft from the start (passes count as
// a ply; finished games are not extended).
var perftTable = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056}

func TestPerft(t *testing.T) {
	for d, want := range perftTable {
		if d > 8 && testing.Short() {
			break
		}
		if got := Start().Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
}

// TestPerftGeneric checks the make/unmake path (Moves, Play, Undo) against
// the table, and that the position is restored.
func TestPerftGeneric(t *testing.T) {
	p := Start()
	for d := 0; d <= 7; d++ {
		if got := games.PerftGeneric(p, d); got != perftTable[d] {
			t.Errorf("generic perft(%d) = %d, want %d", d, got, perftTable[d])
		}
	}
	if p.String() != StartNotation || p.Hash() != Start().Hash() {
		t.Fatal("perft did not restore the position")
	}
}

// TestRandomGamesConsistency plays random games through the contract; the
// winner has more discs.
func TestRandomGamesConsistency(t *testing.T) {
	out := gametest.RandomGames(t, Game(), 200, 3)
	if out[games.FirstWins] == 0 || out[games.SecondWins] == 0 {
		t.Fatalf("200 random games ended %v", out)
	}
}

// TestPerftAlongGames: the bulk perft (the last two plies written out in
// lastTwoPlies) agrees with the make/unmake count at depths 1 to 3 in every
// position of random games, passes and finished games included.
func TestPerftAlongGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 56))
	buf := make([]games.Move, 0, 64)
	for g := 0; g < 20; g++ {
		p := Start()
		for {
			for d := 1; d <= 3; d++ {
				if got, want := p.Perft(d), games.PerftGeneric(p, d); got != want {
					t.Fatalf("%s: perft(%d) = %d, make/unmake %d", p, d, got, want)
				}
			}
			moves, o := p.Moves(buf)
			if o != games.Ongoing {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

func TestPass(t *testing.T) {
	// From a random game: white to move has no move, black has some; so
	// white must pass.
	p, err := Parse("--------------------O------OO------OOXXX---O--X---O---XX-O----X- O")
	if err != nil {
		t.Fatal(err)
	}
	moves, o := p.Moves(nil)
	if o != games.Ongoing || len(moves) != 1 || moves[0] != PassMove {
		t.Fatalf("white without a move: %v %v, want one pass", moves, o)
	}
	if _, err := p.ParseMove("pass"); err != nil {
		t.Fatal(err)
	}
	p.Play(PassMove)
	moves, _ = p.Moves(nil)
	if moves[0] == PassMove {
		t.Fatalf("black has no move after white's pass")
	}
	name := p.FormatMove(moves[0])
	if m, err := p.ParseMove(strings.ToUpper(name)); err != nil || m != moves[0] {
		t.Fatalf("%s after the pass: %v %v", strings.ToUpper(name), m, err)
	}
	if _, err := p.ParseMove("pass"); err == nil || !strings.Contains(err.Error(), "cannot pass") {
		t.Fatalf("pass with a move: %v", err)
	}
	// A full board with 32 discs each is a draw.
	q, err := Parse("XXXXXXXOXOOOOXXOXOOXXOXOXOXXOXXOOOXOOOXXOOOOOOXXXOOXOOXOXXXXXOOO X")
	if err != nil {
		t.Fatal(err)
	}
	if _, o := q.Moves(nil); o != games.Draw {
		t.Fatalf("full board 32-32: %v, want a draw", o)
	}
}

// TestParseUnreachable: boards that no game reaches are rejected with
// ErrUnreachable and a message naming the square at fault.
func TestParseUnreachable(t *testing.T) {
	board := func(discs map[string]byte) string {
		b := []byte(strings.Repeat("-", 64))
		for sq, c := range discs {
			b[int(sq[1]-'1')*8+int(sq[0]-'a')] = c
		}
		return string(b) + " X"
	}
	tests := []struct {
		name, pos, want string // want is "" when the position is reachable
	}{
		{"empty board", strings.Repeat("-", 64) + " X", "centre squares d4, e4, d5, e5 are empty"},
		{"two discs", "XO" + strings.Repeat("-", 62) + " O", "centre squares d4, e4, d5, e5 are empty"},
		{"one centre square empty", board(map[string]byte{"d4": 'O', "e4": 'X', "d5": 'X'}), "centre square e5 is empty"},
		{"a disc far from the others", board(map[string]byte{"d4": 'O', "e4": 'X', "d5": 'X', "e5": 'O', "a1": 'X'}), "disc on a1 is cut off"},
		{"a disc beside a stray one", board(map[string]byte{"d4": 'O', "e4": 'X', "d5": 'X', "e5": 'O', "d3": 'X', "h8": 'X', "g7": 'O'}), "disc on g7 is cut off"},
		{"start", StartNotation, ""},
		{"a diagonal chain", board(map[string]byte{"d4": 'O', "e4": 'X', "d5": 'X', "e5": 'O', "f6": 'X', "g7": 'X', "h8": 'O'}), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.pos)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse(%q): %v, want a position", tc.pos, err)
				}
				return
			}
			if !errors.Is(err, games.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want ErrUnreachable saying %q", tc.pos, err, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"":                             "want 64 squares",
		strings.Repeat("-", 63) + " X": "has 63 characters",
		strings.Repeat("-", 10) + "Z" + strings.Repeat("-", 53) + " X": "character 11 (square c2)",
		strings.Repeat("-", 64) + " Q":                                 "side to move",
	}
	for in, want := range cases {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
	p := Start()
	moves := map[string]string{
		"j9":  `square "j9" is off the board (files a-h, ranks 1-8)`,
		"a1":  "flips nothing",
		"d4":  "is taken",
		"xx":  "not a square",
		"d3x": "not a square",
	}
	for in, want := range moves {
		if _, err := p.ParseMove(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMove(%q) = %v, want %q", in, err, want)
		}
	}
	for _, ok := range []string{"d3", "C4", "f5", "E6"} {
		if _, err := p.ParseMove(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(StartNotation)
	f.Add("--------------------O------OO------OOXXX---O--X---O---XX-O----X- O")
	f.Add("XO" + strings.Repeat("-", 62) + " O")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, s string) {
		gametest.ParsedRoundTrip(t, Game(), s)
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d3", "pass", "j9", "", "a", "h8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Start()
		m, err := p.ParseMove(s)
		if err != nil {
			return
		}
		moves, _ := p.Moves(nil)
		for _, l := range moves {
			if l == m {
				return
			}
		}
		t.Fatalf("%q parsed to the illegal move %v", s, m)
	})
}

func TestEvaluatorsDoNotAllocate(t *testing.T) {
	p := Start()
	for _, ev := range Game().Evaluators() {
		w := ev.Defaults()
		if a := testing.AllocsPerRun(100, func() { ev.Evaluate(p, w) }); a != 0 {
			t.Errorf("%s: %v allocations", ev.Name, a)
		}
	}
	buf := make([]games.Move, 0, 64)
	if a := testing.AllocsPerRun(100, func() {
		moves, _ := p.Moves(buf)
		p.Play(moves[0])
		p.Undo()
	}); a != 0 {
		t.Errorf("moves/play/undo: %v allocations", a)
	}
}

// BenchmarkPerft counts from the start at 7, 9 and 11 plies (212,258,216
// leaves at 11, the figure scripts/edax-perft.sh compares with Edax's
// perft, issue 56), in leaves a second.
func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{7, 9, 11} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			p := Start()
			var n uint64
			for b.Loop() {
				n += p.Perft(depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

func midgame(b *testing.B) *Position {
	data, err := os.ReadFile("testdata/midgame.txt")
	if err != nil {
		b.Fatal(err)
	}
	p, err := Parse(strings.SplitN(string(data), "\n", 2)[0])
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkMoves(b *testing.B) {
	p := midgame(b)
	buf := make([]games.Move, 0, 64)
	for b.Loop() {
		buf, _ = p.Moves(buf)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	p := midgame(b)
	moves, _ := p.Moves(nil)
	for b.Loop() {
		for _, m := range moves {
			p.Play(m)
			p.Undo()
		}
	}
	b.ReportMetric(float64(len(moves)), "moves/op")
}

func BenchmarkEvaluateReport(b *testing.B) {
	p := midgame(b)
	w := reportEvaluator.Defaults()
	for b.Loop() {
		reportEvaluator.Evaluate(p, w)
	}
}

func BenchmarkEvaluateFull(b *testing.B) {
	p := midgame(b)
	w := fullEvaluator.Defaults()
	for b.Loop() {
		fullEvaluator.Evaluate(p, w)
	}
}

// TestLegalKept: the legal moves that Parse, Play and Undo keep equal those
// generated from the discs, along random games and back through Undo, in
// clones too, passes included.
func TestLegalKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	check := func(p *Position, when string) {
		t.Helper()
		if want := legalMoves(p.mine(), p.theirs()); p.legal != want {
			t.Fatalf("%v %s: kept moves %#x, want %#x", p, when, p.legal, want)
		}
		if p.hash != p.computeHash() {
			t.Fatalf("%v %s: hash %#x, want %#x", p, when, p.hash, p.computeHash())
		}
	}
	passes := 0
	for range 500 {
		p := Start()
		check(p, "at the start")
		for {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				break
			}
			m := moves[rng.IntN(len(moves))]
			if m == PassMove {
				passes++
			}
			p.Play(m)
			check(p, "after "+p.FormatMove(m))
			if rng.IntN(4) == 0 {
				p.Undo()
				check(p, "after taking back "+p.FormatMove(m))
				p.Play(m)
			}
			q, err := Parse(p.String())
			if err != nil {
				t.Fatal(err)
			}
			check(q, "parsed")
			check(p.Clone().(*Position), "cloned")
		}
		for p.Ply() > 0 {
			p.Undo()
			check(p, "taken back")
		}
	}
	if passes == 0 {
		t.Fatal("no pass in 500 random games")
	}
}
