package othello

import (
	"context"
	"math/rand/v2"
	"testing"
)

// exactMinimax is the final score of p, o with p to move by plain minimax.
func exactMinimax(p, o Bitboard, passed bool) int {
	moves := legalMoves(p, o)
	if moves == 0 {
		if passed || legalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -exactMinimax(o, p, true)
	}
	best := -inf
	for ; moves != 0; moves &= moves - 1 {
		sq := trailingZeros(moves)
		f := flips(p, o, sq)
		best = max(best, -exactMinimax(o&^f, p|f|1<<sq, false))
	}
	return best
}

// randomEndgame plays random moves from the start until empties squares
// are empty (or the game ends first: false).
func randomEndgame(rng *rand.Rand, empties int) (*Position, bool) {
	p := Start()
	for p.Empties() > empties {
		moves, _ := p.Moves(nil)
		if len(moves) == 0 {
			return nil, false
		}
		p.Play(moves[rng.IntN(len(moves))])
	}
	return p, true
}

func TestSolveAgreesWithMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 1))
	s, err := NewSolver(1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		e := 1 + i%10
		p, ok := randomEndgame(rng, e)
		if !ok {
			continue
		}
		want := exactMinimax(p.mine(), p.theirs(), false)
		got, err := s.Solve(context.Background(), p, SolveOptions{})
		if err != nil || got.Score != want {
			t.Fatalf("%s: solve %d (%v), minimax %d", p, got.Score, err, want)
		}
		// null windows around the value
		for _, a := range []int{want - 3, want - 1, want + 1, want + 3} {
			n := empties(p.mine(), p.theirs())
			sc := s.nws(p.mine(), p.theirs(), a, n)
			if (want > a) != (sc > a) {
				t.Fatalf("%s: nws(%d) = %d, value %d", p, a, sc, want)
			}
		}
		if got.Move != 0 && got.Move != PassMove {
			q := p.Clone().(*Position)
			q.Play(got.Move)
			if v := -exactMinimax(q.mine(), q.theirs(), false); v != want {
				t.Fatalf("%s: move %s scores %d, value %d", p, p.FormatMove(got.Move), v, want)
			}
		}
	}
}
