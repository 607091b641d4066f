package othello

import (
	"math/rand/v2"
	"testing"
)

// plainMidSearch is midSearch without its table or move ordering: plain
// alpha-beta over the moves in square order, the evaluation at the leaves.
func plainMidSearch(w *worker, p, o Bitboard, depth, alpha, beta int) int {
	if depth == 0 {
		return w.ev.eval(p, o)
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return 10 * finalScore(p, o)
		}
		return -plainMidSearch(w, o, p, depth, -beta, -alpha)
	}
	best := -1 << 20
	for ; moves != 0; moves &= moves - 1 {
		sq := trailingZeros(moves)
		f := flips(p, o, sq)
		if sc := -plainMidSearch(w, o&^f, p|f|1<<sq, depth-1, -beta, -max(alpha, best)); sc > best {
			if best = sc; sc >= beta {
				break
			}
		}
	}
	return best
}

// TestMidTableKeepsScores: with the table kept across searches of many
// windows, midSearch's scores are plain alpha-beta's: equal inside the
// window, on the same side of it outside, and the full window's exact.
func TestMidTableKeepsScores(t *testing.T) {
	s, err := NewSolver(SolverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := s.workers[0]
	rng := rand.New(rand.NewPCG(56, 7))
	for range 40 {
		pos, ok := randomEndgame(rng, 20+rng.IntN(20))
		if !ok {
			continue
		}
		p, o := pos.mine(), pos.theirs()
		for depth := 1; depth <= 5; depth++ {
			exact := plainMidSearch(w, p, o, depth, -1<<20, 1<<20)
			if got := w.midSearch(p, o, depth, -1<<20, 1<<20); got != exact {
				t.Fatalf("%v depth %d: %d with the table, %d without", pos, depth, got, exact)
			}
			// Bounds true but loose, and windows just beside them.
			for range 6 {
				lo, hi := exact-rng.IntN(30), exact+rng.IntN(30)
				*w.mid.slot(p, o) = midEntry{p: p, o: o, lower: int32(lo), upper: int32(hi), depth: int8(depth), move: -1}
				alpha := []int{lo - 1, lo, hi - 1, hi}[rng.IntN(4)]
				checkMidWindow(t, w, pos, depth, alpha, alpha+1+rng.IntN(3))
			}
			// Windows about the last score found, so that a bound kept in
			// the table is asked about just beside it.
			last := exact + rng.IntN(121) - 60
			for range 12 {
				alpha := last + rng.IntN(5) - 3
				beta := alpha + 1 + rng.IntN(2)*rng.IntN(40)
				last = checkMidWindow(t, w, pos, depth, alpha, beta)
			}
		}
	}
}

// checkMidWindow fails t unless midSearch's score of pos in the window
// (alpha, beta) is plain alpha-beta's inside it, and on the same side of
// it outside. It returns the score.
func checkMidWindow(t *testing.T, w *worker, pos *Position, depth, alpha, beta int) int {
	t.Helper()
	p, o := pos.mine(), pos.theirs()
	got := w.midSearch(p, o, depth, alpha, beta)
	want := plainMidSearch(w, p, o, depth, alpha, beta)
	switch {
	case want <= alpha && got > alpha, want >= beta && got < beta, want > alpha && want < beta && got != want:
		t.Fatalf("%v depth %d window (%d, %d): %d with the table, %d without", pos, depth, alpha, beta, got, want)
	}
	return got
}
