package learn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// gamesBlock is a block of n tic-tac-toe games of the same body (one
// game's bytes after the header).
func gamesBlock(n int, body string) []byte {
	return append(fmt.Appendf(nil, "gametune-games 1 tictactoe %d\n", n), bytes.Repeat([]byte(body), n)...)
}

// TestStoreRefusesEmptyGames: a file of millions of games of no moves (2
// bytes each) is refused at its first game, before it costs memory; a
// header counting more games than MaxStoreGames is refused before any.
func TestStoreRefusesEmptyGames(t *testing.T) {
	g := findGame(t, "tictactoe")
	for _, n := range []int{2_000_000, 10_000_000} {
		data := gamesBlock(n, "\x00\x02")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadSet(bytes.NewReader(data), g, MaxStoreFile)
		runtime.ReadMemStats(&after)
		want := "game 1 of 2000000: learn: bad positions file: a game of no moves"
		if n > MaxStoreGames {
			want = "brings the games to 10000000, more than 4194304, the most read"
		}
		if !errors.Is(err, ErrBadStore) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d games of no moves: %v; want %q", n, err, want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%d games of no moves: %d bytes allocated before the refusal", n, grew)
		}
	}
}

// TestStoreMemoryPerGame: the games of a store take the memory its doc
// states: 56 bytes a game plus 8 a move, up to a quarter more for the
// slice of games; a million games of one move (3 bytes of file each) load
// within 100 bytes a game. A store of MaxStoreGames of them holds then
// under 600 MB at its peak (old and new slice of games while it grows).
func TestStoreMemoryPerGame(t *testing.T) {
	g := findGame(t, "tictactoe")
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	data := gamesBlock(n, "\x01\x04\x02")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set, err := ReadSet(bytes.NewReader(data), g, MaxStoreFile)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil || len(set.Games) != n {
		t.Fatalf("%d games of one move: %v", n, err)
	}
	perGame := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
	if perGame > 100 {
		t.Errorf("%d games of one move hold %.0f bytes a game, want at most 100 (56 + 8 + the slice's slack)", n, perGame)
	}
	t.Logf("%d games of one move: %.1f bytes a game", n, perGame)
	runtime.KeepAlive(set)
}

// TestStoreReadChecksContext: a cancelled read of a long store stops with
// the context's error.
func TestStoreReadChecksContext(t *testing.T) {
	g := findGame(t, "tictactoe")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadSetContext(ctx, bytes.NewReader(gamesBlock(2*checkEvery, "\x01\x04\x02")), g, MaxStoreFile)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled read: %v, want context.Canceled", err)
	}
}
