package learn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// storeGames returns a few games of tic-tac-toe: every result, games cut
// short (of two moves and of one: a store holds no game of none). Squares
// are moves 0-8 (a1 b1 c1 a2 ...).
func storeGames(t *testing.T, g games.Game) []Game {
	t.Helper()
	lines := []struct {
		moves  string
		result float64
	}{
		{"a1 a2 b1 b2 c1", 1},               // first wins the bottom row
		{"a1 b2 a2 a3 c3 c1", 0},            // second wins the a3-c1 diagonal
		{"a1 b2 c3 b1 b3 a3 c1 c2 a2", 0.5}, // a full board
		{"b2 a1", 0.5},
		{"c3", 1},
	}
	var out []Game
	for _, l := range lines {
		p := g.Start()
		var moves []games.Move
		for _, s := range strings.Fields(l.moves) {
			m, err := p.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
			moves = append(moves, m)
		}
		out = append(out, Game{Moves: moves, Result: l.result})
	}
	return out
}

func TestStoreRoundTrip(t *testing.T) {
	g := findGame(t, "tictactoe")
	gs := storeGames(t, g)
	var b bytes.Buffer
	if err := WriteGames(&b, g, gs[:2]); err != nil {
		t.Fatal(err)
	}
	if err := WriteGames(&b, g, gs[2:]); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "gametune-games 1 tictactoe 2\n") {
		t.Errorf("the store starts %q", b.String()[:30])
	}
	set, err := ReadSet(bytes.NewReader(b.Bytes()), g, int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(set.Games, gs) || set.Game != g {
		t.Errorf("read back %+v, wrote %+v", set.Games, gs)
	}
	if set.Positions() != 5+6+9+2+1 {
		t.Errorf("%d positions, want 23", set.Positions())
	}
	if _, err := ReadSet(bytes.NewReader(b.Bytes()), g, int64(b.Len()-1)); err == nil || !strings.Contains(err.Error(), "larger than the limit") {
		t.Errorf("a store over the limit: %v", err)
	}
}

func TestStoreAppend(t *testing.T) {
	g := findGame(t, "tictactoe")
	gs := storeGames(t, g)
	path := filepath.Join(t.TempDir(), "positions")
	for _, part := range [][]Game{gs[:1], gs[1:4], nil, gs[4:]} {
		if err := AppendStore(path, g, part); err != nil {
			t.Fatal(err)
		}
	}
	set, err := ReadStore(path, g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(set.Games, gs) {
		t.Errorf("read back %+v, appended %+v", set.Games, gs)
	}
	if err := AppendStore(path, findGame(t, "othello"), nil); err == nil || !strings.Contains(err.Error(), `games of "tictactoe", not of othello`) {
		t.Errorf("appending othello games to a tic-tac-toe store: %v", err)
	}
	if _, err := ReadStore(path, findGame(t, "othello")); !errors.Is(err, ErrBadStore) {
		t.Errorf("reading a tic-tac-toe store as othello: %v", err)
	}
	if err := AppendStore(path, g, []Game{{Moves: gs[4].Moves, Result: 0.25}}); err == nil {
		t.Error("a result of 0.25 was stored")
	}
	if err := AppendStore(path, g, []Game{{Result: 1}}); err == nil || !strings.Contains(err.Error(), "game 0 has no move") {
		t.Errorf("a game of no moves: %v", err)
	}
	if _, err := ReadStore(filepath.Join(t.TempDir(), "none"), g); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing store: %v", err)
	}
}

func TestStoreRefusesBadFiles(t *testing.T) {
	g := findGame(t, "tictactoe")
	var b bytes.Buffer
	if err := WriteGames(&b, g, storeGames(t, g)); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	header := "gametune-games 1 tictactoe 5\n"
	for name, tc := range map[string]struct{ data, want string }{
		"empty":          {"", "empty"},
		"not a store":    {"{\"game\": \"tictactoe\"}\n", "not a positions file"},
		"other version":  {"gametune-games 3 tictactoe 0\n", "version"},
		"scores byte":    {"gametune-games 2 tictactoe 1\n\x01\x04\x01\x02", "scores byte 2"},
		"huge score":     {"gametune-games 2 tictactoe 1\n\x01\x04\x01\x01\x80\x80\x80\x80\x10", "score 2147483648 of move 1"},
		"scores cut":     {"gametune-games 2 tictactoe 1\n\x02\x04\x08\x01\x01\x02", "truncated"},
		"other game":     {"gametune-games 1 othello 0\n", `games of "othello"`},
		"bad count":      {"gametune-games 1 tictactoe x\n", "count"},
		"no newline":     {"gametune-games 1 tictactoe 0", "truncated"},
		"long header":    {strings.Repeat("x", 300), "longer than"},
		"truncated":      {good[:len(good)-1], "truncated: block 1 (byte 0) ends in its game 5 of 5"},
		"truncated more": {good + "gametune-games 1 tictactoe 3\n\x01\x04", "truncated: block 2"},
		"illegal move":   {"gametune-games 1 tictactoe 1\n\x02\x04\x04\x01", "move 2 (4) is not legal"},
		"after the end":  {"gametune-games 1 tictactoe 1\n\x06\x01\x04\x02\x05\x03\x06\x01", "move 6 (6) is not legal"},
		"bad result":     {"gametune-games 1 tictactoe 1\n\x01\x04\x03", "result byte 3"},
		"no moves":       {"gametune-games 1 tictactoe 1\n\x00\x02", "a game of no moves"},
		"too many games": {"gametune-games 1 tictactoe 4194305\n\x01\x04\x02", "more than 4194304, the most read"},
		"too many moves": {"gametune-games 1 tictactoe 1\n\xff\xff\xff\x01", "moves (at most"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadSet(strings.NewReader(tc.data), g, 1<<20)
			if !errors.Is(err, ErrBadStore) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if !strings.HasPrefix(good, header) {
		t.Fatalf("store starts %q", good[:len(header)])
	}
}

// TestStoreScores: games with scores are written as a block of version 2
// and read back as written, NoScore and the extremes included, beside a
// game without scores; scores that do not match the moves are refused.
func TestStoreScores(t *testing.T) {
	g := findGame(t, "tictactoe")
	gs := storeGames(t, g)
	gs[0].Scores = []int32{12, -7, NoScore, MaxScore, -MaxScore}
	gs[2].Scores = make([]int32, len(gs[2].Moves))
	var b bytes.Buffer
	if err := WriteGames(&b, g, gs); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "gametune-games 2 tictactoe 5\n") {
		t.Errorf("a block with scores starts %q", b.String()[:30])
	}
	set, err := ReadSet(bytes.NewReader(b.Bytes()), g, int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(set.Games, gs) {
		t.Errorf("read back %+v, wrote %+v", set.Games, gs)
	}
	var got []float64
	set.Each(0, 1, func(_ games.Position, _, score float64) error {
		got = append(got, score)
		return nil
	})
	if len(got) != 5 || got[0] != 12 || got[1] != -7 || got[2] == got[2] || got[3] != MaxScore {
		t.Errorf("Each gave the scores %v, want 12 -7 NaN %d %d", got, MaxScore, -MaxScore)
	}
	for name, scores := range map[string][]int32{"short": {1, 2}, "huge": {0, 0, 0, 0, MaxScore + 1}} {
		bad := []Game{{Moves: gs[0].Moves, Result: 1, Scores: scores}}
		if err := WriteGames(io.Discard, g, bad); err == nil {
			t.Errorf("%s scores %v written", name, scores)
		}
	}
}

// FuzzReadSet: ReadSet never panics; what it reads writes back to a store
// that reads the same.
func FuzzReadSet(f *testing.F) {
	g, err := all.Find("tictactoe")
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	WriteGames(&b, g, []Game{{Moves: []games.Move{4, 0, 8}, Result: 0.5}, {Moves: []games.Move{8}, Result: 1}})
	f.Add(b.Bytes())
	f.Add([]byte("gametune-games 1 tictactoe 1\n\x02\x04\x04\x01"))
	f.Add([]byte("gametune-games 1 tictactoe 0\ngametune-games 1 tictactoe 1\n\x00\x02"))
	f.Add([]byte("gametune-games 2 tictactoe 2\n\x01\x04\x01\x01\x07\x00\x02\x00"))
	// Hostile files: a thousand games of no moves, a count past
	// MaxStoreGames, many one-move games.
	f.Add(gamesBlock(1000, "\x00\x02"))
	f.Add(gamesBlock(MaxStoreGames+1, "")[:40])
	f.Add(gamesBlock(5000, "\x01\x04\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ReadSet(bytes.NewReader(data), g, 1<<16)
		if err != nil {
			if !errors.Is(err, ErrBadStore) {
				t.Fatalf("error %v does not wrap ErrBadStore", err)
			}
			return
		}
		var again bytes.Buffer
		if err := WriteGames(&again, g, set.Games); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSet(&again, g, 1<<20)
		if err != nil || len(back.Games) != len(set.Games) || (len(set.Games) > 0 && !reflect.DeepEqual(back.Games, set.Games)) {
			t.Fatalf("read %d games, wrote them and read back %d (%v)", len(set.Games), len(back.Games), err)
		}
	})
}
