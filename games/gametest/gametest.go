// Package gametest holds the checks every game's tests run: random games
// through the whole contract (notation round trips, hashes, undo) and the
// body of the position fuzzers. It imports only games, like the games
// themselves; the checks that search live in engine/enginetest.
package gametest

import (
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// RandomGames plays n games of random legal moves from g's start position
// (seeded with seed) and checks at every ply that each move played formats
// and parses back to itself, that the position's notation reads back with
// the same hash (the incremental hash equals a fresh one), that Undo
// restores the notation and the hash, and that a games.Outcomer's Outcome
// agrees with Moves. It returns how the games ended.
func RandomGames(t *testing.T, g games.Game, n int, seed uint64) map[games.Outcome]int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x9a3e))
	outcomes := map[games.Outcome]int{}
	var buf []games.Move
	for i := 0; i < n; i++ {
		p := g.Start()
		for ply := 0; ; ply++ {
			moves, o := p.Moves(buf)
			buf = moves
			if oc, ok := p.(games.Outcomer); ok && oc.Outcome() != o {
				t.Fatalf("%s %s: Outcome() is %v, Moves gives %v", g.Name(), p, oc.Outcome(), o)
			}
			if o != games.Ongoing {
				outcomes[o]++
				break
			}
			if ply > 2000 {
				t.Fatalf("%s: a random game passed 2000 plies without ending: %s", g.Name(), p)
			}
			m := moves[rng.IntN(len(moves))]
			text := p.FormatMove(m)
			if back, err := p.ParseMove(text); err != nil || back != m {
				t.Fatalf("%s %s: move %s reads back as %v (%v)", g.Name(), p, text, back, err)
			}
			before, hash := p.String(), p.Hash()
			p.Play(m)
			q, err := g.ParsePosition(p.String())
			if err != nil {
				t.Fatalf("%s: after %s, %q does not read back: %v", g.Name(), text, p.String(), err)
			}
			if q.Hash() != p.Hash() {
				t.Fatalf("%s: after %s the incremental hash %x differs from a fresh one %x (%s)", g.Name(), text, p.Hash(), q.Hash(), p)
			}
			p.Undo()
			if p.String() != before || p.Hash() != hash {
				t.Fatalf("%s: undo of %s gives %s, want %s", g.Name(), text, p, before)
			}
			p.Play(m)
		}
	}
	return outcomes
}

// ParsedRoundTrip is the body of every position fuzzer: when g reads s, the
// position's notation reads back to the same notation and hash, and every
// legal move plays, formats and undoes without harm.
func ParsedRoundTrip(t *testing.T, g games.Game, s string) {
	t.Helper()
	p, err := g.ParsePosition(s)
	if err != nil {
		return
	}
	q, err := g.ParsePosition(p.String())
	if err != nil || q.String() != p.String() || q.Hash() != p.Hash() {
		t.Fatalf("%s: %q reads as %q, which reads back as %v (%v)", g.Name(), s, p, q, err)
	}
	moves, _ := p.Moves(nil)
	before := p.String()
	for _, m := range moves {
		p.FormatMove(m)
		p.Play(m)
		p.Undo()
	}
	if p.String() != before {
		t.Fatalf("%s: playing and undoing the moves of %q changed it to %q", g.Name(), before, p)
	}
}
