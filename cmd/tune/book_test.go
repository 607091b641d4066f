package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// TestMatchOnABigEPDBook: a match plays a 100,000-line EPD book with
// operations in random order from an offset, as a fastchess user writes
// it: the games start, in order, from the openings the book gives for the
// seed from that offset, and each is a line of the book.
func TestMatchOnABigEPDBook(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100,000-line book: not under -short")
	}
	dir := t.TempDir()
	// The positions of a white king on the first rank, a black king on the
	// last and a white pawn between: a few thousand, written in turn, each
	// line with its own id, up to 100,000 lines.
	var positions []string
	book := map[string]bool{}
	for k := range 8 {
		for bk := 56; bk < 64; bk++ {
			for p := 8; p < 48; p++ { // ranks 2-6: the pawn gives no check
				board := make([]byte, 64)
				board[k], board[bk], board[p] = 'K', 'k', 'P'
				fen := boardOf(board) + " w - -"
				positions = append(positions, fen)
				book[fen+" 0 1"] = true
			}
		}
	}
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "%s id \"line %d\"; c9 \"1/2-1/2\";\n", positions[i%len(positions)], i+1)
	}
	path := filepath.Join(dir, "book.epd")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := "file=" + path + " format=epd order=random start=5"
	g, _ := all.Find("chess")
	want, err := tournament.LoadOpenings(context.Background(), g, spec, 7, false)
	if err != nil || len(want) != 100_000 {
		t.Fatalf("the book: %d openings, %v", len(want), err)
	}
	pgn := filepath.Join(dir, "games.pgn")
	code, _, errOut := tune(t, "", "match", "--game", "chess", "--openings", spec, "--seed", "7", "--pairs", "3", "--depth", "1",
		"--games-out", pgn, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(pgn)
	recs, err := g.(games.RecordReader).ReadGames(data)
	if err != nil || len(recs) != 6 {
		t.Fatalf("%d games written: %v", len(recs), err)
	}
	for i, r := range recs {
		if r.Start != want[i/2] || !book[r.Start] {
			t.Errorf("game %d starts from %s, want %s (the book's opening %d for seed 7 from start=5)", i+1, r.Start, want[i/2], i/2+1)
		}
	}
}

// boardOf writes a board of 64 squares (a1 first, 0 for empty) as FEN's
// piece placement.
func boardOf(sq []byte) string {
	var ranks []string
	for r := 7; r >= 0; r-- {
		var s strings.Builder
		empty := 0
		for f := range 8 {
			c := sq[8*r+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&s, empty)
				empty = 0
			}
			s.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&s, empty)
		}
		ranks = append(ranks, s.String())
	}
	return strings.Join(ranks, "/")
}
