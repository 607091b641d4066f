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
// flips a disc. The position remembers the results (endmemo.go): asked
// again, it answers with the search's score, move and moves without the
// search.
func (p *Position) SolveEnd(alpha, beta, win int32, budget int64) games.EndResult {
	me, them := p.discs[p.turn], p.discs[p.turn^1]
	r, slot, ok := p.solveEndMemo(me, them, alpha, beta, win, budget)
	if ok {
		return r
	}
	r = searchEnd(me, them, alpha, beta, win, budget)
	if slot != nil {
		slot.keep(me, them, alpha, beta, win, r)
	}
	return r
}

// searchEnd is SolveEnd's search of the position with me to move.
func searchEnd(me, them Bitboard, alpha, beta, win int32, budget int64) games.EndResult {
	e := ender{budget: budget}
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
// move. The last four empty squares are written out (solve4 to solve2,
// last), in the same order, with the same windows and the same counts: the
// engine keeps the scores SolveEnd returns outside its window, so they must
// not change with the way they are computed.
func (e *ender) solve(me, them Bitboard, alpha, beta, win int32) (int32, games.Move) {
	empty := ^(me | them)
	switch popcount(empty) {
	case 1:
		return e.last(me, them, win, bits.TrailingZeros64(empty))
	case 2, 3, 4:
		var sq [4]int
		n := 0
		for _, x := range e.order[:e.empties&63] {
			if empty&(1<<(x&63)) != 0 {
				sq[n&3] = int(x) & 63
				n++
			}
		}
		switch n {
		case 2:
			return e.solve2(me, them, alpha, beta, win, sq[0], sq[1])
		case 3:
			return e.solve3(me, them, alpha, beta, win, sq[0], sq[1], sq[2])
		}
		return e.solve4(me, them, alpha, beta, win, sq)
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
	return endScore(popcount(me), popcount(them), win), games.NoMove
}

// solve4 is solve with the four empty squares of sq, in that order.
func (e *ender) solve4(me, them Bitboard, alpha, beta, win int32, sq [4]int) (int32, games.Move) {
	best, bestMove := int32(math.MinInt32), games.NoMove
	for i, x := range sq {
		f := flipsNear(me, them, x)
		if f == 0 {
			continue
		}
		if !e.play() {
			return 0, games.NoMove
		}
		o := &others4[i]
		sc, _ := e.solve3(them&^f, me|f|1<<x, -beta, -max(alpha, best), win-1, sq[o[0]], sq[o[1]], sq[o[2]])
		if e.stopped {
			return 0, games.NoMove
		}
		if sc = -sc; sc > best {
			best, bestMove = sc, games.Move(x+1)
			if sc >= beta {
				return best, bestMove
			}
		}
	}
	if bestMove != games.NoMove {
		return best, bestMove
	}
	if flipsNear(them, me, sq[0])|flipsNear(them, me, sq[1])|flipsNear(them, me, sq[2])|flipsNear(them, me, sq[3]) != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, _ := e.solve4(them, me, -beta, -alpha, win-1, sq)
		return -sc, PassMove
	}
	return endScore(popcount(me), popcount(them), win), games.NoMove
}

// others4[i] are the places of the squares left in order after the i-th of
// four is played.
var others4 = [4][3]uint8{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}

// solve3 is solve with the three empty squares x, y and z, in that order.
func (e *ender) solve3(me, them Bitboard, alpha, beta, win int32, x, y, z int) (int32, games.Move) {
	best, bestMove := int32(math.MinInt32), games.NoMove
	for i, sq := range [3]int{x, y, z} {
		f := flipsNear(me, them, sq)
		if f == 0 {
			continue
		}
		if !e.play() {
			return 0, games.NoMove
		}
		a, b := y, z // the other two, in order
		switch i {
		case 1:
			a = x
		case 2:
			a, b = x, y
		}
		sc, _ := e.solve2(them&^f, me|f|1<<sq, -beta, -max(alpha, best), win-1, a, b)
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
	if flipsNear(them, me, x)|flipsNear(them, me, y)|flipsNear(them, me, z) != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, _ := e.solve3(them, me, -beta, -alpha, win-1, x, y, z)
		return -sc, PassMove
	}
	return endScore(popcount(me), popcount(them), win), games.NoMove
}

// solve2 is solve with the two empty squares x and y, in that order. The
// window matters only after x: a move on y is the last tried.
func (e *ender) solve2(me, them Bitboard, alpha, beta, win int32, x, y int) (int32, games.Move) {
	best, bestMove := int32(math.MinInt32), games.NoMove
	if f := flipsNear(me, them, x); f != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, plies := lastScore(them&^f, win-1, y)
		if !e.playN(plies) {
			return 0, games.NoMove
		}
		if best, bestMove = -sc, games.Move(x+1); best >= beta {
			return best, bestMove
		}
	}
	if f := flipsNear(me, them, y); f != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, plies := lastScore(them&^f, win-1, x)
		if !e.playN(plies) {
			return 0, games.NoMove
		}
		if sc = -sc; sc > best {
			best, bestMove = sc, games.Move(y+1)
		}
	}
	if bestMove != games.NoMove {
		return best, bestMove
	}
	if flipsNear(them, me, x)|flipsNear(them, me, y) != 0 {
		if !e.play() {
			return 0, games.NoMove
		}
		sc, _ := e.solve2(them, me, -beta, -alpha, win-1, x, y)
		return -sc, PassMove
	}
	return endScore(popcount(me), popcount(them), win), games.NoMove
}

// last is solve with one empty square, sq: the discs a move there turns
// are counted (lastFlipCount) rather than flipped; the moves are counted as
// solve counts them, and the scores are its.
func (e *ender) last(me, them Bitboard, win int32, sq int) (int32, games.Move) {
	sc, plies := lastScore(me, win, sq)
	if !e.playN(plies) {
		return 0, games.NoMove
	}
	return sc, [3]games.Move{games.NoMove, games.Move(sq + 1), PassMove}[plies]
}

// lastScore is the score of the position with me to move and sq the one
// empty square, and the plies to its end: 1 when me moves there, 2 when
// me passes and the opponent moves there, 0 when neither can.
func lastScore(me Bitboard, win int32, sq int) (int32, int) {
	n := popcount(me)
	if f := lastFlipCount(me, sq); f > 0 {
		return endScore(n+f+1, 63-n-f, win-1), 1
	}
	if f := lastFlipCount(^me&^(1<<sq), sq); f > 0 {
		return endScore(n-f, 64-n+f, win-2), 2
	}
	return endScore(n, 63-n, win), 0
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

// playN counts n moves as n calls of play would.
func (e *ender) playN(n int) bool {
	if e.nodes+int64(n) > e.budget {
		e.nodes, e.stopped = e.budget, true
		return false
	}
	e.nodes += int64(n)
	return true
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
