package tournament

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/chess"
)

// epdBook writes a book of n chess positions in EPD with operations, as
// opening books are published: each line a different position (the black
// king's square and the white pawns' advance vary), with id and c9.
func epdBook(t *testing.T, n int) (string, []string) {
	t.Helper()
	var b strings.Builder
	fens := make([]string, 0, n)
	for i := range n {
		// A white king on a1, a black king on one of 24 squares of ranks
		// 6-8, up to 8 white pawns on ranks 2-4: many distinct positions.
		k := i % 24
		board := [8][8]byte{}
		board[0][0] = 'K'
		board[5+k/8][k%8] = 'k'
		for f := range 8 {
			board[1+(i/24/int(pow3(f)))%3][f] = 'P'
		}
		fen := boardFEN(board) + " w - -"
		fmt.Fprintf(&b, "%s id \"line %d\"; c9 \"1/2-1/2\";\n", fen, i+1)
		fens = append(fens, fen+" 0 1")
	}
	path := filepath.Join(t.TempDir(), "book.epd")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, fens
}

func pow3(n int) int64 {
	x := int64(1)
	for range n {
		x *= 3
	}
	return x
}

func boardFEN(b [8][8]byte) string {
	var ranks []string
	for r := 7; r >= 0; r-- {
		var s strings.Builder
		empty := 0
		for f := range 8 {
			if b[r][f] == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&s, empty)
				empty = 0
			}
			s.WriteByte(b[r][f])
		}
		if empty > 0 {
			fmt.Fprint(&s, empty)
		}
		ranks = append(ranks, s.String())
	}
	return strings.Join(ranks, "/")
}

// TestEPDBook: a 100,000-line EPD book with operations, read in order from
// an offset, and in random order from the seed: a permutation of the whole
// book, the same for a seed, another for another seed, turned to start at
// the offset.
func TestEPDBook(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100,000-line book: not under -short")
	}
	g, _ := all.Find("chess")
	path, fens := epdBook(t, 100_000)
	ctx := context.Background()
	got, err := LoadOpenings(ctx, g, "file="+path+" format=epd order=sequential start=99999", 1, false)
	if err != nil || len(got) != 2 || got[0] != fens[99998] || got[1] != fens[99999] {
		t.Fatalf("sequential from 99999: %d openings, %v", len(got), err)
	}
	one, err := LoadOpenings(ctx, g, "file="+path+",order=random", 7, false)
	if err != nil || len(one) != 100_000 {
		t.Fatalf("random: %d openings, %v", len(one), err)
	}
	same, _ := LoadOpenings(ctx, g, "file="+path+" order=random", 7, false)
	other, _ := LoadOpenings(ctx, g, "file="+path+" order=random", 8, false)
	shifted, _ := LoadOpenings(ctx, g, "file="+path+" order=random start=11", 7, false)
	if !reflect.DeepEqual(one, same) || reflect.DeepEqual(one, other) || !reflect.DeepEqual(shifted[:10], one[10:20]) || shifted[len(shifted)-1] != one[9] {
		t.Fatal("random order: not one permutation per seed, turned at the start")
	}
	index := map[string]int{}
	for i, f := range fens {
		index[f] = i
	}
	seen, inPlace := map[string]bool{}, 0
	for i, f := range one {
		j, ok := index[f]
		if !ok || seen[f] {
			t.Fatalf("random order: opening %q is not one of the book's or comes twice", f)
		}
		seen[f] = true
		if i == j {
			inPlace++
		}
	}
	if inPlace > 10 {
		t.Errorf("random order: %d of 100,000 openings in their place", inPlace)
	}
	if _, err := LoadOpenings(ctx, g, "file="+path+" start=100001", 1, false); err == nil || !strings.Contains(err.Error(), "holds 100000 openings") {
		t.Errorf("start past the end: %v", err)
	}
}

// TestRecordBook: a PGN book read game by game, each game's position after
// plies=N plies, and as moves for engines that cannot set up a position; a
// PGN from another start stays a position.
func TestRecordBook(t *testing.T) {
	g, _ := all.Find("chess")
	pgn := `[Event "a"]
[Site "?"]
[Result "*"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 *

[Event "b"]
[Result "1-0"]

1. d4 {a comment} Nf6 (1... d5) 2. c4 e6 1-0

[Event "c"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "*"]

1. e3 Kd7 *
`
	path := filepath.Join(t.TempDir(), "book.pgn")
	os.WriteFile(path, []byte(pgn), 0o644)
	ctx := context.Background()
	got, err := LoadOpenings(ctx, g, "file="+path+" plies=2", 1, false)
	want := []string{
		"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
		"rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
		"8/3k4/8/8/8/4P3/8/4K3 w - - 1 2",
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("plies=2: %q %v", got, err)
	}
	moves, err := LoadOpenings(ctx, g, "file="+path+" plies=3", 1, true)
	if err != nil || len(moves) != 3 || moves[0] != "moves: e4 c5 Nf3" || moves[2] != "8/3k4/8/8/8/4P3/8/4K3 w - - 1 2" {
		t.Fatalf("as moves: %q %v", moves, err)
	}
	all, err := ReadOpenings(path, g)
	if err != nil || len(all) != 3 || !strings.HasPrefix(all[0], "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq -") {
		t.Fatalf("whole games: %q %v", all, err)
	}
}

// TestMoveLinesStayMoves: an Othello book of move lines stays moves for
// engines that cannot set up a position (GTP), checked and normalized.
func TestMoveLinesStayMoves(t *testing.T) {
	g, _ := all.Find("othello")
	path := filepath.Join(t.TempDir(), "book.txt")
	os.WriteFile(path, []byte("moves: d3 c5\nmoves: F5  D6 c3\n"), 0o644)
	got, err := LoadOpenings(context.Background(), g, path, 1, true)
	if err != nil || !reflect.DeepEqual(got, []string{"moves: d3 c5", "moves: f5 d6 c3"}) {
		t.Fatalf("%q %v", got, err)
	}
	os.WriteFile(path, []byte("moves: d3 d3\n"), 0o644)
	if _, err := LoadOpenings(context.Background(), g, path, 1, true); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("an illegal move line: %v", err)
	}
}

func TestParseBook(t *testing.T) {
	b, err := ParseBook("file=x.epd format=epd order=random start=3 plies=8")
	if err != nil || b != (Book{Path: "x.epd", Format: "epd", Random: true, Start: 3, Plies: 8}) {
		t.Fatalf("%+v %v", b, err)
	}
	if b, err := ParseBook("my book.epd"); err != nil || b.Path != "my book.epd" || b.Start != 1 {
		t.Fatalf("a path: %+v %v", b, err)
	}
	for in, want := range map[string]string{
		"file=x order=shuffle": "the orders are sequential and random",
		"file=x format=abk":    "the formats are epd",
		"file=x start=0":       "is not a count",
		"order=random":         "no file=PATH",
		"file=x depth=3":       "unknown word",
		"file=x plies=":        "is not key=value",
	} {
		if _, err := ParseBook(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func FuzzParseBook(f *testing.F) {
	for _, s := range []string{"file=x order=random start=2 plies=4", "x", "file=", "=,=", "start=99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBook(s)
		if err == nil && (b.Path == "" || b.Start < 1 || b.Plies < 0) {
			t.Fatalf("%q: %+v", s, b)
		}
	})
}

// TestBookBounds: a line longer than the bound is refused, not read into
// memory whole; a book that is not a regular file is refused.
func TestBookBounds(t *testing.T) {
	g, _ := all.Find("tictactoe")
	dir := t.TempDir()
	path := filepath.Join(dir, "long.txt")
	os.WriteFile(path, []byte("x--------\n"+strings.Repeat("-", maxBookLine+10)+"\n"), 0o644)
	if _, err := ReadOpenings(path, g); err == nil || !strings.Contains(err.Error(), ":2: a line longer than") {
		t.Errorf("long line: %v", err)
	}
	if _, err := ReadOpenings(dir, g); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder: %v", err)
	}
}

// TestPolyglotBook: a Polyglot book written here gives the openings its
// walks reach, each move drawn by its weight; the same for a seed; as
// moves for engines that cannot set up a position; plies= bounds the walk.
func TestPolyglotBook(t *testing.T) {
	g, _ := all.Find("chess")
	start := chess.Start()
	move := func(p *chess.Position, uci string) games.Move {
		m, err := p.ParseMove(uci)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	afterE4 := chess.Start()
	afterE4.Play(move(afterE4, "e2e4"))
	afterD4 := chess.Start()
	afterD4.Play(move(afterD4, "d2d4"))
	var b bytes.Buffer
	err := chess.WritePolyglot(&b, map[string][]games.WeightedMove{
		chess.StartFEN:   {{Move: move(start, "e2e4"), Weight: 3}, {Move: move(start, "d2d4"), Weight: 1}},
		afterE4.String(): {{Move: move(afterE4, "c7c5"), Weight: 1}, {Move: move(afterE4, "e7e5"), Weight: 1}},
		afterD4.String(): {{Move: move(afterD4, "d7d5"), Weight: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "book.bin")
	os.WriteFile(path, b.Bytes(), 0o644)
	ctx := context.Background()
	got, err := LoadOpenings(ctx, g, path, 5, true)
	want := map[string]bool{"moves: e4 c5": true, "moves: e4 e5": true, "moves: d4 d5": true}
	if err != nil || len(got) != 3 {
		t.Fatalf("%q %v", got, err)
	}
	for _, op := range got {
		if !want[op] {
			t.Errorf("opening %q is not a walk of the book", op)
		}
	}
	again, _ := LoadOpenings(ctx, g, "file="+path+" format=bin", 5, true)
	if !reflect.DeepEqual(got, again) {
		t.Errorf("one seed, two orders: %q %q", got, again)
	}
	one, err := LoadOpenings(ctx, g, "file="+path+" plies=1", 5, false)
	if err != nil || len(one) != 2 {
		t.Fatalf("plies=1: %q %v", one, err)
	}
	for _, op := range one {
		if op != afterE4.String() && op != afterD4.String() {
			t.Errorf("plies=1: %q", op)
		}
	}
	if _, err := LoadOpenings(ctx, g, path+"x", 1, false); err == nil {
		t.Error("a missing book read")
	}
	ttt, _ := all.Find("tictactoe")
	if _, err := LoadOpenings(ctx, ttt, path, 1, false); err == nil || !strings.Contains(err.Error(), "no book format of moves") {
		t.Errorf("tic-tac-toe with a Polyglot book: %v", err)
	}
}
