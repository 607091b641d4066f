package othello_test

import (
	"bytes"
	"math/rand/v2"
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
	if err := rec.WriteGame(&b, games.GameText{Tags: [][2]string{{games.TagFirst, "a"}, {games.TagSecond, "b"}}, Start: othello.StartNotation, Moves: moves, Result: games.FirstWins}); err != nil {
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

// TestGGFLeftOutPass: a GGF game that leaves a forced pass out (the same
// colour moves twice) reads with the pass put back, and replays; a pass
// that was not forced does not replay.
func TestGGFLeftOutPass(t *testing.T) {
	g := othello.Game()
	line := gameToForcedPass(t)
	p := othello.Start()
	for _, s := range line {
		m, _ := p.ParseMove(s)
		p.Play(m)
	}
	if p.MovesLeft() != p.Empties()/2+1 {
		t.Errorf("MovesLeft %d with %d empty squares", p.MovesLeft(), p.Empties())
	}
	pass, _ := p.ForcedPass()
	p.Play(pass)
	next, _ := p.Moves(nil)
	full := append(append([]string(nil), line...), "pass", p.FormatMove(next[0]))
	var b bytes.Buffer
	if err := g.(games.Recorder).WriteGame(&b, games.GameText{Start: othello.StartNotation, Moves: full, Result: games.Ongoing}); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(strings.Replace(b.String(), "B[PA]", "", 1), "W[PA]", "", 1)
	if strings.Contains(text, "PA") {
		t.Fatalf("the pass is still there: %s", text)
	}
	recs, err := g.(games.RecordReader).ReadGames([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0].Moves, " "); got != strings.Join(full, " ") {
		t.Fatalf("read %s, want %s", got, strings.Join(full, " "))
	}
	if _, _, err := recs[0].Replay(g); err != nil {
		t.Fatal(err)
	}
	// Black moving twice from the start: the pass put back is not forced.
	bad := "(;GM[Othello]BO[8 " + othello.StartGGFBoard + " *]B[F5]B[F6];)"
	if recs, err = g.(games.RecordReader).ReadGames([]byte(bad)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := recs[0].Replay(g); err == nil {
		t.Errorf("%s replays", bad)
	}
}

// gameToForcedPass plays random games until one reaches a forced pass in
// the middle of the game, and returns its moves up to there. ForcedPass
// must agree with Moves on every position on the way.
func gameToForcedPass(t *testing.T) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	for range 1000 {
		p := othello.Start()
		var moves []string
		for {
			ms, o := p.Moves(nil)
			if o != games.Ongoing {
				break
			}
			m, forced := p.ForcedPass()
			if forced != (len(ms) == 1 && ms[0] == othello.PassMove) || forced && m != othello.PassMove {
				t.Fatalf("after %v: ForcedPass %v %v, moves %v", moves, m, forced, ms)
			}
			if forced {
				return moves
			}
			m = ms[rng.IntN(len(ms))]
			moves = append(moves, p.FormatMove(m))
			p.Play(m)
		}
	}
	t.Fatal("no forced pass in 1000 random games")
	return nil
}
