package othello

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gametune/gametune/games"
)

// The exact endgame solver: the final disc difference of a position with
// best play, as strong Othello programs find it for the last 20 to 30
// empty squares. Null-window searches do most of the work; a principal
// variation search drives them from the root. By the number of empty
// squares left:
//
//   - more than shallowEmpties: moves sorted fastest-first (fewest replies
//     left to the opponent, then corner stability and potential mobility,
//     parity and the square's class), the table's move first, a
//     transposition table of exact bounds, and a stability cutoff (the
//     opponent's stable discs bound the score from above);
//   - five to shallowEmpties: shallow, parity and square-class order, no
//     table;
//   - four, three, two and one: solve4 down to solve1, the last by
//     counting the discs the last move turns.

// shallowEmpties is the most empty squares searched without the table.
var shallowEmpties = 5

// inf is above every score.
const inf = 65

// ErrSolveStopped is returned when a solve stops at its node limit before
// the score is known.
var ErrSolveStopped = errors.New("othello: the solve reached its node limit")

// Solver finds exact final scores. Its table carries over from one solve to
// the next (a position's bounds stay true); it is not safe for concurrent
// use.
type Solver struct {
	table   endTable
	near    endTable // for nodes with fewer than nearEmpties empty squares
	nodes   int64
	limit   int64 // stop at this many nodes; 0: none
	poll    int64 // the node count at which to look at done and limit next
	done    <-chan struct{}
	stopped bool
	// progress, when set, is kept at nodes (roughly: at each poll).
	progress *atomic.Int64
	ev       *endEval
}

// nearEmpties and nearMiB: nodes with fewer than nearEmpties empty
// squares keep their bounds in a table of nearMiB MiB of their own, which
// stays in the processor's cache; the others in the large table.
var nearEmpties, nearMiB = 11, 4

// DefaultSolveTableMiB is the table size NewSolver takes for 0.
const DefaultSolveTableMiB = 64

// NewSolver returns a solver whose table takes about tableMiB MiB
// (DefaultSolveTableMiB when 0).
func NewSolver(tableMiB int) (*Solver, error) {
	if tableMiB < 0 || tableMiB > 1<<16 {
		return nil, fmt.Errorf("othello: solver table of %d MiB: want 0 (default %d) to 65536", tableMiB, DefaultSolveTableMiB)
	}
	if tableMiB == 0 {
		tableMiB = DefaultSolveTableMiB
	}
	return &Solver{table: newEndTable(tableMiB), near: newEndTable(nearMiB), ev: newEndEval()}, nil
}

// Solution is an exact solve's result.
type Solution struct {
	// Score is the final disc difference with best play from the side to
	// move's point of view, the empty squares of a game that ends early
	// counted for the winner (the rules of tournaments and of the FFO
	// test suite).
	Score int
	// Move is a best move, PassMove when the side to move must pass,
	// games.NoMove when the game is over.
	Move  games.Move
	Nodes int64 // moves played, passes included
}

// SolveOptions bound a solve. The zero value solves without bound.
type SolveOptions struct {
	Nodes int64 // stop after about this many nodes (0: no limit)
	// Progress, when not nil, is kept at the nodes searched so far, so
	// that another goroutine can show it.
	Progress *atomic.Int64
}

// Solve returns the exact score of p and a best move. It stops with
// ctx's error when ctx is done, and with ErrSolveStopped at the node limit;
// the Solution then holds the nodes searched and nothing else.
func (s *Solver) Solve(ctx context.Context, p *Position, o SolveOptions) (Solution, error) {
	if o.Nodes < 0 {
		return Solution{}, fmt.Errorf("othello: solve node limit %d is negative (0 for none)", o.Nodes)
	}
	s.nodes, s.limit, s.poll, s.done, s.stopped, s.progress = 0, o.Nodes, pollEvery, ctx.Done(), false, o.Progress
	defer func() { s.done, s.progress = nil, nil }()
	me, them := p.mine(), p.theirs()
	score, move := s.root(me, them)
	if s.progress != nil {
		s.progress.Store(s.nodes)
	}
	if s.stopped {
		if err := ctx.Err(); err != nil {
			return Solution{Nodes: s.nodes}, err
		}
		return Solution{Nodes: s.nodes}, ErrSolveStopped
	}
	return Solution{Score: score, Move: move, Nodes: s.nodes}, nil
}

// pollEvery is how many nodes pass between two looks at the context and
// the node limit.
const pollEvery = 1 << 16

// root searches the root with the full window and returns the score and
// a best move.
func (s *Solver) root(p, o Bitboard) (int, games.Move) {
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o), games.NoMove
		}
		s.nodes++
		return -s.pvs(o, p, -inf, inf, empties(p, o)), PassMove
	}
	n := empties(p, o)
	var list moveList
	s.order(&list, p, o, moves, s.tableMove(p, o), n, -inf)
	best, bestSq := -inf, -1
	alpha, beta := -inf, inf
	for i := range list.n {
		m := &list.moves[i]
		np, no := o&^m.flips, p|m.flips|1<<m.sq
		s.nodes++
		var sc int
		if i == 0 {
			sc = -s.pvs(np, no, -beta, -alpha, n-1)
		} else if sc = -s.nws(np, no, -alpha-1, n-1); sc > alpha && sc < beta {
			sc = -s.pvs(np, no, -beta, -sc+1, n-1)
		}
		if s.stopped {
			return 0, games.NoMove
		}
		if sc > best {
			best, bestSq = sc, int(m.sq)
			alpha = max(alpha, sc)
		}
	}
	s.table.store(p, o, n, -inf, inf, best, bestSq)
	return best, games.Move(bestSq + 1)
}

// empties counts the empty squares.
func empties(p, o Bitboard) int { return 64 - popcount(p|o) }

// tableMove returns the table's best move for p, o, or -1.
func (s *Solver) tableMove(p, o Bitboard) int {
	if e := s.table.probe(p, o); e != nil {
		return int(e.move)
	}
	return -1
}

// pvs is the score of p, o (n empty squares) in the window (alpha, beta):
// its first move with the window, the others with a null window first.
func (s *Solver) pvs(p, o Bitboard, alpha, beta, n int) int {
	if n == 0 {
		return finalScore(p, o)
	}
	if s.pollNow() {
		return 0
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		s.nodes++
		return -s.pvs(o, p, -beta, -alpha, n)
	}
	var list moveList
	s.order(&list, p, o, moves, s.tableMove(p, o), n, alpha)
	best, bestSq := -inf, -1
	a := alpha
	for i := range list.n {
		m := &list.moves[i]
		np, no := o&^m.flips, p|m.flips|1<<m.sq
		s.nodes++
		var sc int
		if i == 0 {
			sc = -s.pvs(np, no, -beta, -a, n-1)
		} else if sc = -s.nws(np, no, -a-1, n-1); sc > a && sc < beta {
			sc = -s.pvs(np, no, -beta, -sc+1, n-1)
		}
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestSq = sc, int(m.sq)
			if sc >= beta {
				break
			}
			a = max(a, sc)
		}
	}
	s.table.store(p, o, n, alpha, beta, best, bestSq)
	return best
}

// pollNow counts towards the next look at the context and the node limit,
// and tells whether the search must stop.
func (s *Solver) pollNow() bool {
	if s.stopped {
		return true
	}
	if s.nodes < s.poll {
		return false
	}
	s.poll = s.nodes + pollEvery
	if s.progress != nil {
		s.progress.Store(s.nodes)
	}
	if s.limit > 0 && s.nodes >= s.limit {
		s.stopped = true
		return true
	}
	select {
	case <-s.done:
		s.stopped = true
		return true
	default:
		return false
	}
}

// stabilityThreshold[n] is the least alpha at which a node with n empty
// squares counts the opponent's stable discs: below it the bound rarely
// cuts and the count costs more than it saves.
var stabilityThreshold = [61]int{
	99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48,
	48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
}

// nws is the null-window score of p, o (n empty squares) against alpha
// (beta = alpha+1), fail-soft.
func (s *Solver) nws(p, o Bitboard, alpha, n int) int {
	switch {
	case n <= 4:
		return s.small(p, o, alpha, n)
	case n <= shallowEmpties:
		return s.shallow(p, o, alpha, n)
	}
	if s.pollNow() {
		return 0
	}
	if alpha >= stabilityThreshold[n] {
		if bound := 64 - 2*popcount(stableDiscs(o, p)); bound <= alpha {
			return bound
		}
	}
	first := -1
	t := &s.table
	if n < nearEmpties {
		t = &s.near
	}
	if e := t.probe(p, o); e != nil {
		switch {
		case int(e.lower) > alpha:
			return int(e.lower)
		case int(e.upper) <= alpha:
			return int(e.upper)
		}
		first = int(e.move)
	}
	moves := legalMoves(p, o)
	if moves == 0 {
		if legalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		s.nodes++
		return -s.nws(o, p, -alpha-1, n)
	}
	if n >= etcEmpties {
		if sc, ok := s.etc(p, o, moves, alpha, n); ok {
			return sc
		}
	}
	var list moveList
	s.order(&list, p, o, moves, first, n, alpha)
	best, bestSq := -inf, -1
	for i := range list.n {
		m := &list.moves[i]
		s.nodes++
		sc := -s.nws(o&^m.flips, p|m.flips|1<<m.sq, -alpha-1, n-1)
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestSq = sc, int(m.sq)
			if sc > alpha {
				break
			}
		}
	}
	t.store(p, o, n, alpha, alpha+1, best, bestSq)
	return best
}

// etcEmpties is the least number of empty squares at which a null-window
// node looks its moves' positions up in the table before searching them.
var etcEmpties = 12

// etc looks the positions after each move up in the table (enhanced
// transposition cutoff): when one of them is bounded low enough that the
// move scores above alpha, the node is cut without a search.
func (s *Solver) etc(p, o, moves Bitboard, alpha, n int) (int, bool) {
	t := &s.table
	if n-1 < nearEmpties {
		t = &s.near
	}
	for m := moves; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p, o, sq)
		if e := t.probe(o&^f, p|f|1<<sq); e != nil && -int(e.upper) > alpha {
			s.nodes++
			return -int(e.upper), true
		}
	}
	return 0, false
}

// small is nws for 1 to 4 empty squares.
func (s *Solver) small(p, o Bitboard, alpha, n int) int {
	empty := ^(p | o)
	switch n {
	case 4:
		return s.solve4(p, o, alpha, empty)
	case 3:
		return s.solve3(p, o, alpha, empty)
	case 2:
		x := bits.TrailingZeros64(empty)
		return s.solve2(p, o, alpha, x, bits.TrailingZeros64(empty&(empty-1)))
	case 1:
		return s.solve1(p, bits.TrailingZeros64(empty))
	}
	return finalScore(p, o)
}

// moveList holds a node's moves, sorted best first.
type moveList struct {
	moves [32]sortedMove
	n     int
}

// sortedMove is a move, what it flips and its ordering key.
type sortedMove struct {
	flips Bitboard
	key   int32
	sq    int8
}

// Ordering weights: the opponent's mobility after the move dominates
// (corners counting twice), then the mover's discs next to its corners,
// then the opponent's potential mobility (empty squares beside the mover's
// discs), then parity and the square's class.
const (
	orderFirst     = 1 << 30 // the table's move
	orderWipeout   = 1 << 29 // a move that takes the last disc of the opponent
	orderMobility  = 1 << 15
	orderCorner    = 1 << 11
	orderPotential = 1 << 6
	orderParity    = 1 << 4
)

// orderEval[d] weighs the score of a depth-d search of the move (tenths
// of a disc): a unit of mobility is worth 4 discs at depth 0, 2 at depth
// 1, 1 deeper.
var orderEval = [3]int32{orderMobility / 40, orderMobility / 20, orderMobility / 10}

// sortWindow is how far below alpha (in discs) the searches that order
// moves keep their scores exact.
const sortWindow = 8

// squareValue is the square-class part of the ordering key.
var squareValue = func() (v [64]int32) {
	for sq, w := range squareWeights {
		v[sq] = int32(w/10 + 5)
	}
	return v
}()

// order lists the moves of p, o and sorts them: first (the table's move,
// -1 for none) first, then by the ordering key.
func (s *Solver) order(list *moveList, p, o, moves Bitboard, first, n, alpha int) {
	empty := ^(p | o)
	odd := oddQuadrants(empty)
	list.n = 0
	for m := moves; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p, o, sq)
		np, no := p|f|1<<sq, o&^f
		var key int32
		switch {
		case sq == first:
			key = orderFirst
		case no == 0:
			key = orderWipeout
		case n >= evalOrderEmpties:
			replies := legalMoves(no, np)
			key = -int32(popcount(replies)+popcount(replies&cornerMask)) * orderMobility
			key += int32(cornerStability(np)) * orderCorner
			key -= int32(popcount(neighbours(np)&empty&^(1<<sq))) * orderPotential
			d := sortDepth(n)
			v := s.midSearch(no, np, d, -1<<20, -10*(alpha-sortWindow)+1)
			key -= int32(v) * orderEval[min(d, 2)]
		default:
			replies := legalMoves(no, np)
			key = -int32(popcount(replies)+popcount(replies&cornerMask)) * orderMobility
			key += int32(cornerStability(np)) * orderCorner
			key -= int32(popcount(neighbours(np)&empty&^(1<<sq))) * orderPotential
			if odd&(1<<sq) != 0 {
				key += orderParity
			}
			key += squareValue[sq]
		}
		list.moves[list.n] = sortedMove{flips: f, key: key, sq: int8(sq)}
		list.n++
	}
	// Insertion sort, best first: lists are short.
	for i := 1; i < list.n; i++ {
		for j := i; j > 0 && list.moves[j].key > list.moves[j-1].key; j-- {
			list.moves[j], list.moves[j-1] = list.moves[j-1], list.moves[j]
		}
	}
}

// cornerStability counts the discs of p on its corners and on the edge
// squares beside a corner it holds: a cheap part of stability.
func cornerStability(p Bitboard) int {
	c := p & cornerMask
	near := (c<<1|c>>1)&(rank1|rank8) | (c<<8 | c>>8)
	return popcount(c) + popcount(near&p)
}

// SolveEmpties is the most empty squares of a position that SolvesMargin
// takes: the FFO test positions, up to 34, take seconds to minutes; far
// beyond, a solve would take hours or more.
const SolveEmpties = 36

// SolvesMargin tells whether the position is near enough the end for
// SolveMargin ('tune solve' then gives its exact disc difference).
func (p *Position) SolvesMargin() bool { return p.Empties() <= SolveEmpties }

// SolveMargin solves the position with a new Solver (DefaultSolveTableMiB)
// and returns its final disc difference for the side to move (Solution's
// Score) and a best move; searched is kept at the nodes searched. done is
// false when the solve stopped at nodes (0: no limit) first.
func (p *Position) SolveMargin(ctx context.Context, nodes int64, searched *atomic.Int64) (margin int, move games.Move, done bool, err error) {
	s, err := NewSolver(0)
	if err != nil {
		return 0, games.NoMove, false, err
	}
	sol, err := s.Solve(ctx, p, SolveOptions{Nodes: nodes, Progress: searched})
	switch {
	case errors.Is(err, ErrSolveStopped):
		return 0, games.NoMove, false, nil
	case err != nil:
		return 0, games.NoMove, false, err
	}
	return sol.Score, sol.Move, true, nil
}
