package othello

import (
	"math/bits"

	"github.com/gametune/gametune/games"
)

// frontierOrder groups the squares by the ordering hint the engine gives
// them one ply above the horizon (squareHints: corners first, X-squares
// last), best group first; Frontier tries the moves group by group.
var frontierOrder = func() []Bitboard {
	var hints []int32
	groups := map[int32]Bitboard{}
	for sq := 0; sq < 64; sq++ {
		h := squareHints[sq+1]
		if _, ok := groups[h]; !ok {
			hints = append(hints, h)
		}
		groups[h] |= 1 << sq
	}
	for i := 1; i < len(hints); i++ { // insertion sort, highest hint first
		for j := i; j > 0 && hints[j] > hints[j-1]; j-- {
			hints[j], hints[j-1] = hints[j-1], hints[j]
		}
	}
	order := make([]Bitboard, len(hints))
	for i, h := range hints {
		order[i] = groups[h]
	}
	return order
}()

// Frontier searches the node one ply above the horizon (games.Frontier):
// each move is made on the discs alone, without the hash, the undo record
// or the engine's calls, the position after it evaluated, and the discs put
// back.
func (p *Position) Frontier(ev *games.Evaluator, w []float64, beta, win int32, killers [2]games.Move) games.FrontierResult {
	turn, legal := p.turn, p.legal
	me, them := p.discs[turn], p.discs[turn^1]
	if legal == 0 {
		reply := legalMoves(them, me)
		if reply == 0 {
			return games.FrontierResult{Outcome: p.final()}
		}
		p.turn, p.legal = turn^1, reply
		sc := -clampEval(ev.Evaluate(p, w))
		p.turn, p.legal = turn, legal
		return games.FrontierResult{Score: sc, Move: PassMove, Leaves: 1, Evals: 1}
	}
	r := games.FrontierResult{Score: -games.MaxEval - win - 1}
	p.turn = turn ^ 1
	// The corners first, then the killers, then the other groups.
	var first Bitboard
	for _, k := range killers {
		if k != games.NoMove && k != PassMove {
			first |= 1 << (k - 1)
		}
	}
	first &= legal &^ cornerMask
	order := [...]Bitboard{legal & frontierOrder[0], first}
search:
	for i := 0; i < len(frontierOrder)+1; i++ {
		var b Bitboard
		switch {
		case i < 2:
			b = order[i]
		default:
			b = legal & frontierOrder[i-1] &^ first
		}
		for ; b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b)
			f := flips(me, them, sq)
			mine, theirs := me|f|1<<sq, them&^f
			reply := legalMoves(theirs, mine)
			r.Leaves++
			var sc int32
			if reply == 0 && legalMoves(mine, theirs) == 0 {
				switch n, m := popcount(mine), popcount(theirs); {
				case n > m:
					sc = win
				case n < m:
					sc = -win
				}
			} else {
				p.discs[turn], p.discs[turn^1], p.legal = mine, theirs, reply
				sc = -clampEval(ev.Evaluate(p, w))
				r.Evals++
			}
			if sc > r.Score {
				r.Score, r.Move = sc, games.Move(sq+1)
				if sc >= beta {
					break search
				}
			}
		}
	}
	p.discs[turn], p.discs[turn^1], p.turn, p.legal = me, them, turn, legal
	return r
}

// clampEval is the engine's bound on a static evaluation.
func clampEval(v int) int32 {
	return int32(min(max(v, -games.MaxEval), games.MaxEval))
}
