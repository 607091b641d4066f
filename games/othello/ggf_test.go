package othello_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// The game of NBoard's example session, as NBoard sends it.
const exampleGGF = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]" +
	"BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4/1.5/0.3];)"

func TestParseGGF(t *testing.T) {
	g, err := othello.ParseGGF(exampleGGF)
	if err != nil {
		t.Fatal(err)
	}
	if g.Board != othello.StartGGFBoard || !g.Black || len(g.Moves) != 8 || g.Moves[0].Square() != "F5" || !g.Moves[0].Black || g.Moves[7].Black || g.Moves[7].Square() != "F4" {
		t.Fatalf("%+v", g)
	}
	if g.Notation() != othello.StartNotation {
		t.Errorf("Notation() = %q", g.Notation())
	}
	again, err := othello.ParseGGF(g.String())
	if err != nil || again.String() != g.String() {
		t.Fatalf("round trip: %q, %v", again.String(), err)
	}
	for _, bad := range []string{
		"",
		"(;GM[Chess]BO[8 " + othello.StartGGFBoard + " *];)",
		"(;GM[Othello]B[F5];)",
		"(;GM[Othello]BO[10 " + othello.StartGGFBoard + " *];)",
		"(;GM[Othello]BO[8 " + othello.StartGGFBoard[:60] + " *];)",
		"(;GM[Othello]BO[8 " + othello.StartGGFBoard + " *]B[Z9];)",
		"(;GM[Othello]BO[8 " + othello.StartGGFBoard + " *]B[F5;)",
		"(;GM[Othello]BO[8 " + othello.StartGGFBoard + " ?];)",
	} {
		if _, err := othello.ParseGGF(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestGGFRecords: a game written as GGF (with a pass) reads back to the
// same moves and final position; NBoard's example game reads and replays.
func TestGGFRecords(t *testing.T) {
	g := othello.Game()
	rec, ok := g.(games.Recorder)
	reader, ok2 := g.(games.RecordReader)
	if !ok || !ok2 {
		t.Fatal("othello writes and reads no game records")
	}
	// A game that ends early with passes: the shortest win for black.
	moves := []string{"e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"}
	var b bytes.Buffer
	if err := rec.WriteGame(&b, [][2]string{{games.TagFirst, "a"}, {games.TagSecond, "b"}}, othello.StartNotation, moves, games.FirstWins); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "(;GM[Othello]PB[a]PW[b]RE[+13.000]BO[8 ") {
		t.Errorf("GGF: %s", b.String())
	}
	b.WriteString("\n" + exampleGGF + "\n")
	got, err := reader.ReadGames(b.Bytes())
	if err != nil || len(got) != 2 {
		t.Fatalf("%d games, %v", len(got), err)
	}
	p, played, err := got[0].Replay(g)
	if err != nil || len(played) != len(moves) {
		t.Fatalf("replay: %d moves, %v", len(played), err)
	}
	if _, o := p.Moves(nil); o != games.FirstWins {
		t.Errorf("the replayed game ends %v", o)
	}
	if _, _, err := got[1].Replay(g); err != nil {
		t.Errorf("NBoard's example game: %v", err)
	}
	if _, err := reader.ReadGames([]byte("no games here")); err == nil {
		t.Error("a file without games reads")
	}
}

func FuzzGGF(f *testing.F) {
	f.Add(exampleGGF)
	f.Add("(;BO[8 " + othello.StartGGFBoard + " O]W[PA];)")
	f.Fuzz(func(t *testing.T, line string) {
		if g, err := othello.ParseGGF(line); err == nil {
			again, err := othello.ParseGGF(g.String())
			if err != nil || again.String() != g.String() {
				t.Fatalf("GGF %q -> %q -> %v", line, g.String(), err)
			}
		}
		if recs, err := othello.Game().(games.RecordReader).ReadGames([]byte(line)); err == nil {
			for _, r := range recs {
				r.Replay(othello.Game())
			}
		}
	})
}
