package othello

import (
	"context"
	"errors"
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
	s, err := NewSolver(SolverOptions{TableMiB: 1})
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
			sc := s.workers[0].nws(p.mine(), p.theirs(), a, n)
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

// TestSolveWorkers: several workers find the score and the move one finds
// (the root's moves are searched in order), on endgames of 18 empty
// squares, where the workers split nodes.
func TestSolveWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 2))
	one, err := NewSolver(SolverOptions{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	three, err := NewSolver(SolverOptions{TableMiB: 4, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		p, ok := randomEndgame(rng, 18)
		if !ok {
			continue
		}
		a, err1 := one.Solve(context.Background(), p, SolveOptions{})
		b, err2 := three.Solve(context.Background(), p, SolveOptions{})
		if err1 != nil || err2 != nil || a.Score != b.Score || a.Move != b.Move {
			t.Fatalf("%s: one worker %+d %s (%v), three %+d %s (%v)", p, a.Score, p.FormatMove(a.Move), err1, b.Score, p.FormatMove(b.Move), err2)
		}
	}
}

// TestSolveStops: a node limit stops a solve with ErrSolveStopped, a
// cancelled context with its error, with one worker or three, and the
// solver solves again afterwards.
func TestSolveStops(t *testing.T) {
	p, err := Parse("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		s, err := NewSolver(SolverOptions{TableMiB: 4, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(context.Background(), p, SolveOptions{Nodes: 100000})
		if !errors.Is(err, ErrSolveStopped) || sol.Nodes < 100000 {
			t.Fatalf("%d workers, node limit: %v after %d nodes", workers, err, sol.Nodes)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Solve(ctx, p, SolveOptions{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("%d workers, cancelled: %v", workers, err)
		}
		q, _ := randomEndgame(rand.New(rand.NewPCG(1, 1)), 9)
		if sol, err := s.Solve(context.Background(), q, SolveOptions{}); err != nil || sol.Score != exactMinimax(q.mine(), q.theirs(), false) {
			t.Fatalf("%d workers, after the stops: %+v %v", workers, sol, err)
		}
	}
	if _, err := NewSolver(SolverOptions{Workers: -1}); err == nil {
		t.Error("NewSolver takes -1 workers")
	}
}

// TestSolveDoesNotAllocate: a solve with one worker allocates nothing.
func TestSolveDoesNotAllocate(t *testing.T) {
	s, err := NewSolver(SolverOptions{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := randomEndgame(rand.New(rand.NewPCG(3, 3)), 16)
	ctx := context.Background()
	if a := testing.AllocsPerRun(5, func() { s.Solve(ctx, p, SolveOptions{}) }); a != 0 {
		t.Errorf("a solve allocates %v times", a)
	}
}
