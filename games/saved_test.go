package games_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestSavedRoundTrip: every game's saved form reads back to the same start,
// moves and position: the record format of the games that have one, the
// plain lines of the others.
func TestSavedRoundTrip(t *testing.T) {
	for _, g := range all.Games() {
		t.Run(g.Name(), func(t *testing.T) {
			p := g.Start()
			start := p.String()
			var moves []games.Move
			for range 6 {
				ms, o := p.Moves(nil)
				if o != games.Ongoing {
					break
				}
				m := ms[len(ms)/2]
				moves = append(moves, m)
				p.Play(m)
			}
			var b bytes.Buffer
			if err := games.WriteSaved(&b, g, start, moves, "you", "gametune"); err != nil {
				t.Fatal(err)
			}
			_, plain := g.(games.Recorder)
			if plain == strings.HasPrefix(b.String(), "game "+g.Name()+"\nstart "+start+"\n") {
				t.Errorf("saved as %q (the game has a record format: %v)", b.String(), plain)
			}
			gotStart, q, played, err := games.ReadSaved(g, b.Bytes())
			if err != nil {
				t.Fatalf("%q: %v", b.String(), err)
			}
			if gotStart != start || q.String() != p.String() || fmt.Sprint(played) != fmt.Sprint(moves) {
				t.Errorf("read back %q %v -> %s, saved %q %v -> %s", gotStart, played, q, start, moves, p)
			}
		})
	}
}

// TestReadSavedBadInput: what is not a saved game of this game is refused
// with a message saying what is wrong.
func TestReadSavedBadInput(t *testing.T) {
	ttt, _ := all.Find("tictactoe")
	chess, _ := all.Find("chess")
	long := "game tictactoe\nstart ---------\n" + strings.Repeat("a1\n", games.MaxSavedPlies+1)
	for _, c := range []struct {
		g          games.Game
		data, want string
	}{
		{ttt, "hello", "not a saved game"},
		{ttt, "game nim\nstart 20\n3\n", `a game of "nim", not tictactoe`},
		{ttt, "game tictactoe\nstart ---------\nb2\nb2\n", "move 2"},
		{ttt, "game tictactoe\nstart xxx------\na3\n", ""},
		{ttt, long, "at most 10000"},
		{chess, "[Event \"x\"]\n1. e4 e4 *\n", "e4"},
	} {
		_, _, _, err := games.ReadSaved(c.g, []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want an error with %q", c.data, err, c.want)
		}
	}
}

// FuzzSavedGame: the saved-game reader never panics, and what it accepts
// replays to the position it returns.
func FuzzSavedGame(f *testing.F) {
	f.Add("tictactoe", "game tictactoe\nstart ---------\nb2\na1\n")
	f.Add("nim", "game nim\nstart 20\n3\n")
	f.Add("othello", "game othello\nstart start\nd3\n")
	f.Add("chess", "game chess\nstart rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ne4\ne5\nNf3\n")
	f.Add("checkers", "game checkers\nstart start\n11-15\n")
	f.Add("tictactoe", "game tictactoe\nstart xxx------\na3\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		g, err := all.Find(name)
		if err != nil {
			return
		}
		start, p, played, err := games.ReadSaved(g, []byte(data))
		if err != nil {
			return
		}
		q, err := g.ParsePosition(start)
		if err != nil {
			t.Fatalf("accepted start %q does not parse: %v", start, err)
		}
		for _, m := range played {
			q.Play(m)
		}
		if q.String() != p.String() {
			t.Fatalf("replayed %q, returned %q", q, p)
		}
	})
}
