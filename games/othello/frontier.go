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

// FrontierDepth: Othello searches the last two plies above the horizon.
func (p *Position) FrontierDepth() int { return 2 }

// Frontier searches a node one or two plies above the horizon
// (games.Frontier): moves are made on the discs alone, without the hash,
// the undo record or the engine's calls, and the discs put back.
func (p *Position) Frontier(ev *games.Evaluator, w []float64, depth int, alpha, beta, win int32, first games.Move, killers [2][2]games.Move) games.FrontierResult {
	turn, legal := p.turn, p.legal
	me, them := p.discs[turn], p.discs[turn^1]
	if legal == 0 && legalMoves(them, me) == 0 {
		return games.FrontierResult{Outcome: p.final()}
	}
	f := frontier{p: p, ev: ev, w: w}
	if t, ok := ev.Impl.(*patternTables); ok {
		f.patterns = t.expanded()
	}
	var r games.FrontierResult
	if depth >= 2 {
		r.Score, r.Move, r.Reply = f.two(me, them, legal, turn, alpha, beta, win, first, killers)
	} else {
		r.Score, r.Move = f.one(me, them, legal, turn, beta, win, first, killers[0], nil)
	}
	p.discs[turn], p.discs[turn^1], p.turn, p.legal = me, them, turn, legal
	r.Leaves, r.Evals, r.Cutoffs, r.FirstCutoffs = f.leaves, f.evals, f.cutoffs, f.firstCutoffs
	return r
}

// frontier is one Frontier search: the position it evaluates through, and
// its counts.
type frontier struct {
	p                                    *Position
	ev                                   *games.Evaluator
	w                                    []float64
	leaves, evals, cutoffs, firstCutoffs int
	// patterns are ev's tables when it is a patterns evaluator: Frontier
	// then scores a move's position from readings updated by the move.
	patterns *[PatternStages]patternStageTable
}

// squares lists a node's moves in the order Frontier tries them: first (the
// table's move), the corners, the killers, then the other groups of
// frontierOrder, each group from a1 up.
type squares struct {
	head [3]Bitboard
	rest Bitboard
	b    Bitboard // what is left of the group being listed
	i    int      // the next group: head, then frontierOrder
}

// next returns the next square, or false when none is left.
func (s *squares) next() (int, bool) {
	for s.b == 0 {
		switch {
		case s.i < len(s.head):
			s.b = s.head[s.i]
		case s.i < len(s.head)+len(frontierOrder):
			s.b = s.rest & frontierOrder[s.i-len(s.head)]
		default:
			return 0, false
		}
		s.i++
	}
	sq := bits.TrailingZeros64(s.b)
	s.b &= s.b - 1
	return sq, true
}

// moveOrder returns the squares of a node's moves legal in Frontier's
// order.
func moveOrder(legal Bitboard, first games.Move, killers [2]games.Move) squares {
	var f, k Bitboard
	if first != games.NoMove && first != PassMove {
		f = legal & (1 << (first - 1))
	}
	for _, m := range killers {
		if m != games.NoMove && m != PassMove {
			k |= 1 << (m - 1)
		}
	}
	corners := legal & cornerMask &^ f
	k &= legal &^ cornerMask &^ f
	return squares{head: [3]Bitboard{f, corners, k}, rest: legal &^ (f | corners | k)}
}

// evaluate scores the position with side to move, its discs and its
// moves, for the side to move.
func (f *frontier) evaluate(mine, theirs, legal Bitboard, side games.Side) int32 {
	p := f.p
	p.discs[side], p.discs[side^1], p.turn, p.legal = mine, theirs, side, legal
	f.evals++
	return clampEval(f.ev.Evaluate(p, f.w))
}

// final scores a finished game for the side holding mine.
func final(mine, theirs Bitboard, win int32) int32 {
	switch n, m := popcount(mine), popcount(theirs); {
	case n > m:
		return win
	case n < m:
		return -win
	}
	return 0
}

// one searches a node one ply above the horizon, me (side) to move with
// moves legal, in a game that goes on.
//
// With the patterns evaluator, base are the readings of the node from the
// opponent's side (nil: read here), which each move updates.
func (f *frontier) one(me, them, legal Bitboard, side games.Side, beta, win int32, first games.Move, killers [2]games.Move, base *halfReadings) (int32, games.Move) {
	if legal == 0 { // a pass: the opponent can move
		f.leaves++
		return -f.evaluate(them, me, legalMoves(them, me), side^1), PassMove
	}
	best, bestMove := below(win), games.NoMove
	order := moveOrder(legal, first, killers)
	if f.patterns != nil && base == nil { // new here, not a variable: full's nodes clear no readings
		base = new(halfReadings)
		base.read(uint64(them), uint64(me))
	}
	for tried := 1; ; tried++ {
		sq, ok := order.next()
		if !ok {
			break
		}
		fl := flips(me, them, sq)
		mine, theirs := me|fl|1<<sq, them&^fl
		reply := legalMoves(theirs, mine)
		f.leaves++
		var sc int32
		switch {
		case reply == 0 && legalMoves(mine, theirs) == 0:
			sc = final(mine, theirs, win)
		case f.patterns != nil:
			var r halfReadings
			moveReadings(base, fl, sq, &r)
			f.evals++
			sc = -clampEval(evaluateReadings(theirs, mine, reply, &r, f.patterns, f.w))
		default:
			sc = -f.evaluate(theirs, mine, reply, side^1)
		}
		if sc > best {
			best, bestMove = sc, games.Move(sq+1)
			if sc >= beta {
				f.cut(tried)
				return best, bestMove
			}
		}
	}
	return best, bestMove
}

// two searches a node two plies above the horizon, me (side) to move with
// moves legal, in a game that goes on. It returns the score, the best move
// and the best answer to it.
func (f *frontier) two(me, them, legal Bitboard, side games.Side, alpha, beta, win int32, first games.Move, killers [2][2]games.Move) (int32, games.Move, games.Move) {
	var node, child *halfReadings // with patterns: the node's readings, and a move's node's from its opponent's side
	if f.patterns != nil {
		node, child = new(halfReadings), new(halfReadings)
		node.read(uint64(me), uint64(them))
	}
	if legal == 0 { // a pass: the opponent can move
		f.leaves++
		sc, reply := f.one(them, me, legalMoves(them, me), side^1, -alpha, win-1, games.NoMove, killers[1], node)
		return -sc, PassMove, reply
	}
	best, bestMove, bestReply := below(win), games.NoMove, games.NoMove
	order := moveOrder(legal, first, killers[0])
	for tried := 1; ; tried++ {
		sq, ok := order.next()
		if !ok {
			break
		}
		fl := flips(me, them, sq)
		mine, theirs := me|fl|1<<sq, them&^fl
		moves := legalMoves(theirs, mine)
		f.leaves++
		var sc int32
		reply := games.NoMove
		if moves == 0 && legalMoves(mine, theirs) == 0 {
			sc = final(mine, theirs, win)
		} else {
			var s int32
			if node != nil {
				undoReadings(node, fl, sq, child)
			}
			s, reply = f.one(theirs, mine, moves, side^1, -max(alpha, best), win-1, games.NoMove, killers[1], child)
			sc = -s
			if s >= -max(alpha, best) && reply != killers[1][0] { // the answer that refuted the move: a killer for its siblings
				killers[1][0], killers[1][1] = reply, killers[1][0]
			}
		}
		if sc > best {
			best, bestMove, bestReply = sc, games.Move(sq+1), reply
			if sc >= beta {
				f.cut(tried)
				return best, bestMove, bestReply
			}
		}
	}
	return best, bestMove, bestReply
}

// cut counts a node that stopped at the tried-th move.
func (f *frontier) cut(tried int) {
	f.cutoffs++
	if tried == 1 {
		f.firstCutoffs++
	}
}

// below is less than any score of a node whose finished games score at
// most win: less than -win and than any evaluation.
func below(win int32) int32 { return -games.MaxEval - win - 1 }

// clampEval is the engine's bound on a static evaluation.
func clampEval(v int) int32 {
	return int32(min(max(v, -games.MaxEval), games.MaxEval))
}
