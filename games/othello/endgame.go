package othello

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// EndEmpties is the most empty squares at which the position searches the
// rest of the game itself (games.Ender), without the engine's table, its
// move lists or its calls per move.
const EndEmpties = 5

// EndPlies bounds the plies left at the positions SolveEnd takes: two per
// empty square, a pass and a move.
func (p *Position) EndPlies() int { return 2 * EndEmpties }

// SolveEnd searches to the end of the game (games.Ender). A move is tried
// on each empty square, best group of squares first; it is legal when it
// flips a disc.
func (p *Position) SolveEnd(alpha, beta, win int32, budget int64) games.EndResult {
	e := ender{budget: budget}
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

// ender counts the moves a SolveEnd search plays, and lists the empty
// squares of its root in the order it tries them (by group, then from a1
// up), so that a node need not sort its own.
type ender struct {
	nodes, budget int64
	stopped       bool
	order         [64]int8
	empties       int
}

// solve returns the score of the position with me to move, and its best
// move.
func (e *ender) solve(me, them Bitboard, alpha, beta, win int32) (int32, games.Move) {
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

// last is solve with one empty square, sq: the discs a move there turns
// are counted (lastFlipCount) rather than flipped; the moves are counted as
// solve counts them, and the scores are its.
func (e *ender) last(me, them Bitboard, win int32, sq int) (int32, games.Move) {
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

// endScore is the score of a finished game for the side with mine discs
// against theirs: win, -win or 0.
func endScore(mine, theirs int, win int32) int32 {
	switch {
	case mine > theirs:
		return win
	case mine < theirs:
		return -win
	}
	return 0
}

// play counts a move, or stops the search when the budget is spent.
func (e *ender) play() bool {
	if e.nodes == e.budget {
		e.stopped = true
		return false
	}
	e.nodes++
	return true
}
