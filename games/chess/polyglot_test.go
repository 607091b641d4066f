package chess

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestPolyglotKeys: the keys the Polyglot format's description gives for
// the start and the positions after its move sequences.
func TestPolyglotKeys(t *testing.T) {
	for _, c := range []struct {
		moves string
		key   uint64
	}{
		{"", 0x463b96181691fc9c},
		{"e2e4", 0x823c9b50fd114196},
		{"e2e4 d7d5", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	} {
		p := Start()
		for _, mv := range strings.Fields(c.moves) {
			m, err := p.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		if got := PolyglotKey(p); got != c.key {
			t.Errorf("after %q: key %016x, want %016x", c.moves, got, c.key)
		}
	}
}

// TestPolyglotRoundTrip: a book written here reads back, castling and
// promotion included, with weights; a file that is not whole entries is
// refused.
func TestPolyglotRoundTrip(t *testing.T) {
	start := Start()
	e4, _ := start.ParseMove("e2e4")
	d4, _ := start.ParseMove("d2d4")
	castle, _ := mustParse(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").ParseMove("e1c1")
	promo, _ := mustParse(t, "8/P6k/8/8/8/8/8/K7 w - - 0 1").ParseMove("a7a8n")
	var b bytes.Buffer
	err := WritePolyglot(&b, map[string][]games.WeightedMove{
		StartFEN:                               {{Move: e4, Weight: 30}, {Move: d4, Weight: 20}},
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1": {{Move: castle, Weight: 1}},
		"8/P6k/8/8/8/8/8/K7 w - - 0 1":         {{Move: promo, Weight: 5}},
	})
	if err != nil || b.Len() != 4*16 {
		t.Fatalf("%d bytes, %v", b.Len(), err)
	}
	book, err := OpenPolyglot(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for fen, want := range map[string]string{StartFEN: "e2e4:30 d2d4:20", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1": "e1c1:1", "8/P6k/8/8/8/8/8/K7 w - - 0 1": "a7a8n:5", "8/8/8/8/8/8/8/K6k w - - 0 1": ""} {
		p := mustParse(t, fen)
		moves, err := book.Moves(p)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range moves {
			got = append(got, p.UCI(m.Move)+":"+strconv.Itoa(m.Weight))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s", fen, got, want)
		}
	}
	if _, err := OpenPolyglot(bytes.NewReader(make([]byte, 17)), 17); err == nil || !strings.Contains(err.Error(), "16 bytes") {
		t.Errorf("17 bytes: %v", err)
	}
}

func mustParse(t *testing.T, fen string) *Position {
	t.Helper()
	p, err := Parse(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPolyglotFromDebian: Debian's polyglot makes a book from games
// written here, and every move it holds is one of those games' moves in
// the position: the keys and the move encoding agree with the real tool.
func TestPolyglotFromDebian(t *testing.T) {
	bin, err := exec.LookPath("polyglot")
	if err != nil {
		if bin, err = exec.LookPath("/usr/games/polyglot"); err != nil {
			t.Skip("polyglot is not installed (Debian package polyglot): the book format is not checked against it")
		}
	}
	lines := []string{
		"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5",
		"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
		"d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",
		"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",
	}
	var pgn bytes.Buffer
	played := map[uint64]map[string]bool{}
	for _, line := range lines {
		p := Start()
		var moves []games.Move
		for _, mv := range strings.Fields(line) {
			m, err := p.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			key := PolyglotKey(p)
			if played[key] == nil {
				played[key] = map[string]bool{}
			}
			played[key][mv] = true
			moves = append(moves, m)
			p.Play(m)
		}
		if err := WritePGN(&pgn, games.GameText{Tags: [][2]string{{"White", "a"}, {"Black", "b"}}, Result: games.FirstWins}, Start(), moves); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "games.pgn"), pgn.Bytes(), 0o644)
	cmd := exec.Command(bin, "make-book", "-pgn", "games.pgn", "-bin", "book.bin", "-max-ply", "8", "-min-game", "1")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("polyglot make-book: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "book.bin"))
	if err != nil || len(data) == 0 {
		t.Fatalf("no book: %v", err)
	}
	book, err := OpenPolyglot(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Walk every line: each position's book moves are those played there.
	found := 0
	for _, line := range lines {
		p := Start()
		for _, mv := range strings.Fields(line) {
			moves, err := book.Moves(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, bm := range moves {
				if !played[PolyglotKey(p)][p.UCI(bm.Move)] {
					t.Errorf("%s: the book's move %s was not played there", p.String(), p.UCI(bm.Move))
				}
				found++
			}
			m, _ := p.ParseMove(mv)
			p.Play(m)
		}
	}
	// polyglot keeps a game's moves for both sides: the first lines'
	// positions all have their moves in the book.
	if found < 20 {
		t.Errorf("only %d book moves found along the games", found)
	}
}
