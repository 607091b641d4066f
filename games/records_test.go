package games_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestRecordsRoundTrip: for every game with a record format (PGN, PDN,
// GGF), random games written by its Recorder read back through its
// RecordReader to the same moves and final position.
func TestRecordsRoundTrip(t *testing.T) {
	for _, name := range []string{"chess", "checkers", "othello"} {
		g, _ := all.Find(name)
		rec, ok1 := g.(games.Recorder)
		reader, ok2 := g.(games.RecordReader)
		if !ok1 || !ok2 {
			t.Fatalf("%s: no record writer and reader", name)
		}
		rng := rand.New(rand.NewPCG(7, 11))
		var b bytes.Buffer
		var finals []string
		var lengths []int
		for i := 0; i < 20; i++ {
			p := g.Start()
			start := p.String()
			var texts []string
			outcome := games.Ongoing
			for ply := 0; ply < 150; ply++ {
				moves, o := p.Moves(nil)
				if o != games.Ongoing {
					outcome = o
					break
				}
				m := moves[rng.IntN(len(moves))]
				texts = append(texts, p.FormatMove(m))
				p.Play(m)
			}
			if err := rec.WriteGame(&b, games.GameText{Tags: [][2]string{{"Event", "test"}}, Start: start, Moves: texts, Result: outcome}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			finals = append(finals, p.String())
			lengths = append(lengths, len(texts))
		}
		got, err := reader.ReadGames(b.Bytes())
		if err != nil || len(got) != len(finals) {
			t.Fatalf("%s: read %d games (%v), wrote %d", name, len(got), err, len(finals))
		}
		for i, r := range got {
			p, played, err := r.Replay(g)
			if err != nil || len(played) != lengths[i] || p.String() != finals[i] {
				t.Fatalf("%s game %d: replayed %d moves to %v (%v), want %d to %s", name, i, len(played), p, err, lengths[i], finals[i])
			}
		}
	}
}

func TestParseTagged(t *testing.T) {
	pgn := `[Event "x"]
[White "a \"quoted\""]

1. e4 {best by test} e5 2.Nf3 (2. f4 exf4) Nc6 $1 ; a comment
3... Bc5 1-0

[Event "y"]
1. d4 *`
	got, err := games.ParseTagged(pgn, []string{"1-0", "0-1", "1/2-1/2", "*"})
	if err != nil || len(got) != 2 {
		t.Fatalf("%d games, %v", len(got), err)
	}
	if m := got[0].Moves; len(m) != 5 || m[0] != "e4" || m[2] != "Nf3" || m[4] != "Bc5" || got[0].Result != "1-0" || got[0].Tags[1][1] != `a "quoted"` {
		t.Fatalf("game 1: %+v", got[0])
	}
	for _, bad := range []string{"[Event x]", "[Event \"x\"", "1. e4 {open", "1. e4 (e5"} {
		if _, err := games.ParseTagged(bad, []string{"*"}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzParseTagged(f *testing.F) {
	f.Add("[Event \"x\"]\n1. e4 e5 {c} (1... c5) 1-0\n")
	f.Add("[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 25x18 2-0")
	f.Fuzz(func(t *testing.T, data string) {
		for _, name := range []string{"chess", "checkers"} {
			g, _ := all.Find(name)
			recs, err := g.(games.RecordReader).ReadGames([]byte(data))
			if err != nil {
				continue
			}
			for _, r := range recs {
				r.Replay(g) // must not panic
			}
		}
	})
}
