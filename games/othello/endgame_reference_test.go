package othello

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

// referenceEnder is SolveEnd as it was before its last empty squares were
// written out (plain alpha-beta over the empty squares in frontierOrder's
// order): the engine stores SolveEnd's scores outside the window and
// counts its moves, so a faster SolveEnd must return the same score, move
// and moves, not only the same value, or self-play's games change.
func referenceSolveEnd(p *Position, alpha, beta, win int32, budget int64) games.EndResult {
	e := referenceEnder{budget: budget}
	me, them := p.discs[p.turn], p.discs[p.turn^1]
	for _, group := range frontierOrder {
		for b := ^(me | them) & group; b != 0; b &= b - 1 {
			e.order[e.empties] = int8(bits.TrailingZeros64(b))
			e.empties++
		}
	}
	sc, m := e.solve(me, them, alpha, beta, win)
	return games.EndResult{Score: sc, Move: m, Nodes: e.nodes, Stopped: e.stopped}
}

type referenceEnder struct {
	nodes, budget int64
	stopped       bool
	order         [64]int8
	empties       int
}

func (e *referenceEnder) solve(me, them Bitboard, alpha, beta, win int32) (int32, games.Move) {
	empty := ^(me | them)
	if empty != 0 && empty&(empty-1) == 0 {
		return e.last(me, them, win, bits.TrailingZeros64(empty))
	}
	best, bestMove := int32(math.MinInt32), games.NoMove
	for _, x := range e.order[:e.empties&63] {
		sq := int(x) & 63
		if empty&(1<<sq) == 0 {
			continue
		}
		f := flipsNear(me, them, sq)
		if f == 0 {
			continue
		}
		if !e.play() {
			return 0, games.NoMove
		}
		sc, _ := e.solve(them&^f, me|f|1<<sq, -beta, -max(alpha, best), win-1)
		if e.stopped {
			return 0, games.NoMove
		}
		if sc = -sc; sc > best {
			best, bestMove = sc, games.Move(sq+1)
			if sc >= beta {
				return best, bestMove
			}
		}
	}
	if bestMove != games.NoMove {
		return best, bestMove
	}
	if empty != 0 && legalMoves(them, me) != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, _ := e.solve(them, me, -beta, -alpha, win-1)
		return -sc, PassMove
	}
	switch n, m := popcount(me), popcount(them); {
	case n > m:
		return win, games.NoMove
	case n < m:
		return -win, games.NoMove
	}
	return 0, games.NoMove
}

func (e *referenceEnder) last(me, them Bitboard, win int32, sq int) (int32, games.Move) {
	n := popcount(me)
	if f := lastFlipCount(me, sq); f > 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		return endScore(n+f+1, 63-n-f, win-1), games.Move(sq + 1)
	}
	if f := lastFlipCount(them, sq); f > 0 {
		if !e.play() || !e.play() {
			return 0, games.NoMove
		}
		return endScore(n-f, 64-n+f, win-2), PassMove
	}
	return endScore(n, 63-n, win), games.NoMove
}

func (e *referenceEnder) play() bool {
	if e.nodes == e.budget {
		e.stopped = true
		return false
	}
	e.nodes++
	return true
}

// endgamePositions returns positions of random games with 0 to maxEmpties
// empty squares, passes and finished games included: n of each count.
func endgamePositions(rng *rand.Rand, n, maxEmpties int) []*Position {
	var out []*Position
	count := make([]int, maxEmpties+1)
	for len(out) < n*(maxEmpties+1) {
		p := Start()
		for {
			moves, o := p.Moves(nil)
			if e := p.Empties(); e <= maxEmpties && count[e] < n {
				count[e]++
				out = append(out, p.Clone().(*Position))
			}
			if o != games.Ongoing {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// endWindows returns windows as the engine asks them of SolveEnd near
// win: full, null windows on each side of a win, a draw and a loss at
// every distance, and windows of the evaluation's scale.
func endWindows(rng *rand.Rand, win int32) [][2]int32 {
	w := [][2]int32{{-win - 1, win + 1}, {math.MinInt32 + 1, math.MaxInt32}, {-50, 50}, {-835, -735}, {200, 300}}
	for k := int32(-1); k <= 16; k++ {
		for _, v := range []int32{win - k, 0, -(win - k)} {
			w = append(w, [2]int32{v - 1, v}, [2]int32{v, v + 1}, [2]int32{v - 1, v + 1})
		}
	}
	for range 8 {
		a := rng.Int32N(2*win+3) - win - 1
		w = append(w, [2]int32{a, a + 1 + rng.Int32N(win)})
	}
	return w
}

// TestSolveEndMatchesReference: SolveEnd returns the reference's score,
// move, moves and stop, for every window, at 0-8 empty squares, with
// budgets that stop it at every move of the searches of four empty
// squares or fewer and at a few of five, and again (its
// table answers, endmemo.go) with the same window and with the window
// moved along with win by a few plies.
func TestSolveEndMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 2))
	n := 40
	if testing.Short() {
		n = 10
	}
	for _, p := range endgamePositions(rng, n, 8) {
		before := *p
		for _, win := range []int32{1<<24 - 7, 1<<24 - 9, 1<<24 - 7, 1 << 23, 40} {
			for _, w := range endWindows(rng, win) {
				want := referenceSolveEnd(p, w[0], w[1], win, math.MaxInt64)
				for range 2 {
					if got := p.SolveEnd(w[0], w[1], win, math.MaxInt64); got != want {
						t.Fatalf("%s in (%d, %d), win %d: SolveEnd %+v, the reference %+v", p, w[0], w[1], win, got, want)
					}
				}
				budgets := []int64{0, 1, 2, 3, want.Nodes / 2, want.Nodes - 1, want.Nodes}
				if p.Empties() <= 4 && want.Nodes <= 200 {
					budgets = budgets[:0]
					for b := range want.Nodes + 1 {
						budgets = append(budgets, b) // every move of the search
					}
				}
				for _, budget := range budgets {
					if budget < 0 || budget > want.Nodes || (p.Empties() > 5 && budget != want.Nodes-1) {
						continue
					}
					want := referenceSolveEnd(p, w[0], w[1], win, budget)
					if got := p.SolveEnd(w[0], w[1], win, budget); got != want {
						t.Fatalf("%s in (%d, %d), budget %d: SolveEnd %+v, the reference %+v", p, w[0], w[1], budget, got, want)
					}
				}
			}
		}
		after := *p
		after.memo = before.memo
		if after != before {
			t.Fatalf("SolveEnd changed %s", &before)
		}
	}
}

// TestEndClass: the classes of the scores are odd and strictly
// increasing, and give the scores back.
func TestEndClass(t *testing.T) {
	const win = 1 << 20
	var scores []int32
	for k := int32(63); k >= 0; k-- {
		scores = append(scores, -(win - k))
	}
	scores = append(scores, 0)
	for k := int32(0); k < 64; k++ {
		scores = append(scores, win-k)
	}
	slices.Sort(scores)
	for i, v := range scores {
		c := endClass(v, win)
		if endScoreOfClass(c, win) != v || endClass(-v, win) != -c {
			t.Fatalf("score %d: class %d gives %d back, -score class %d", v, c, endScoreOfClass(c, win), endClass(-v, win))
		}
		if i > 0 && endClass(scores[i-1], win) >= c {
			t.Fatalf("scores %d and %d: classes %d and %d", scores[i-1], v, endClass(scores[i-1], win), c)
		}
	}
	for _, v := range []int32{win + 1, math.MaxInt32, 1, win - 64, 17} {
		above, below := endClass(v, win), endClass(-v, win)
		if above != -below || above <= 0 {
			t.Fatalf("%d: class %d, of %d %d", v, above, -v, below)
		}
	}
}

// BenchmarkSolveEnd: SolveEnd's search (without the position's table)
// and the reference on positions of random games at EndEmpties (5) empty
// squares, as the engine calls it: a full window and null windows on each
// side of a win, a draw and a loss. Each op solves every position in every
// window; the moves per second are reported. "again" is SolveEnd asked
// the same again, answered by the positions' tables.
func BenchmarkSolveEnd(b *testing.B) {
	rng := rand.New(rand.NewPCG(56, 3))
	var positions []*Position
	for _, p := range endgamePositions(rng, 300, EndEmpties) {
		if p.Empties() == EndEmpties {
			positions = append(positions, p)
		}
	}
	const win = 1<<24 - 40
	windows := [][2]int32{{-win - 1, win + 1}}
	for _, v := range []int32{win - 5, win - 6, 0, -(win - 6), -(win - 5)} {
		windows = append(windows, [2]int32{v - 1, v}, [2]int32{v, v + 1})
	}
	for _, which := range []string{"search", "reference", "again"} {
		b.Run(which, func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				for _, p := range positions {
					for _, w := range windows {
						var r games.EndResult
						switch which {
						case "search":
							r = searchEnd(p.mine(), p.theirs(), w[0], w[1], win, math.MaxInt64)
						case "reference":
							r = referenceSolveEnd(p, w[0], w[1], win, math.MaxInt64)
						default:
							r = p.SolveEnd(w[0], w[1], win, math.MaxInt64)
						}
						nodes += r.Nodes
					}
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
