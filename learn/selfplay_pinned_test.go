package learn

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/gametune/gametune/tournament"
)

// TestSelfPlayGamesPinned pins the games of 'tune learn's self-play: the
// patterns evaluator (the shipped tables and weights) against itself on a
// pool with 'tune learn's table size (2 MiB), at depth 2 and 4, from a fixed
// seed. The shipped tables were rebuilt by this pipeline from a command and
// a seed, so a change that speeds self-play up must play the same games,
// move for move: the known hashes of the games' moves, results and scores
// were computed before the exact endgame's solver was made faster.
func TestSelfPlayGamesPinned(t *testing.T) {
	g := findGame(t, "othello")
	cases := []struct {
		depth, games int
		want         uint64
	}{
		{2, 160, 0x761ad6e7fd5b3fa7},
		{4, 48, 0xfd3bf0bdf0b134ae},
	}
	if testing.Short() {
		cases = []struct {
			depth, games int
			want         uint64
		}{
			{2, 24, 0xf1b8481f89ece49b},
			{4, 8, 0xbc609edfbfeddeff},
		}
	}
	for _, c := range cases {
		p := builtin(t, g, "patterns", c.depth)
		pool, err := tournament.NewPool(2, 2)
		if err != nil {
			t.Fatal(err)
		}
		played, err := SelfPlay(context.Background(), pool, g, p, SelfPlayOptions{Games: c.games, Seed: 56})
		pool.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := gamesHash(played); got != c.want {
			t.Errorf("depth %d, %d games: hash %#x, want %#x", c.depth, c.games, got, c.want)
		}
	}
}

// gamesHash is an FNV-1a hash of the games' moves, results and scores.
func gamesHash(played []Game) uint64 {
	h := fnv.New64a()
	var b [8]byte
	word := func(x uint64) {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	for _, game := range played {
		word(uint64(len(game.Moves)))
		for _, m := range game.Moves {
			word(uint64(m))
		}
		word(math.Float64bits(game.Result))
		word(uint64(len(game.Scores)))
		for _, s := range game.Scores {
			word(uint64(uint32(s)))
		}
	}
	return h.Sum64()
}

// TestSelfPlayGamesPinnedSolver pins the games of self-play with the end
// solver's moves (EndPlaySolver, the default of new 'tune learn' runs), as
// TestSelfPlayGamesPinned pins those of the engine's: the same players,
// pool and seed, on one worker and on two.
func TestSelfPlayGamesPinnedSolver(t *testing.T) {
	g := findGame(t, "othello")
	cases := []struct {
		depth, games int
		want         uint64
	}{
		{2, 160, 0x7d88e988e561b941},
		{4, 48, 0xda907d692669e7e5},
	}
	if testing.Short() {
		cases = []struct {
			depth, games int
			want         uint64
		}{
			{2, 24, 0x6bec11bba724e342},
			{4, 8, 0x56ed6c68ebc4f7bf},
		}
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			p := EndPlaySolver.Player(g, builtin(t, g, "patterns", c.depth))
			pool, err := tournament.NewPool(workers, 2)
			if err != nil {
				t.Fatal(err)
			}
			played, err := SelfPlay(context.Background(), pool, g, p, SelfPlayOptions{Games: c.games, Seed: 56})
			pool.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := gamesHash(played); got != c.want {
				t.Errorf("depth %d, %d games, %d workers: hash %#x, want %#x", c.depth, c.games, workers, got, c.want)
			}
		}
	}
}
