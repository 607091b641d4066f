package othello

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// endScorer finds the score the engine's exact search gives a position of
// ExactEmpties or fewer empty squares, in the engine's scale (games.Ender):
// win-k for a win in k plies with the winner hastening and the loser
// delaying the end, -(win-k) for such a loss, 0 for a draw; and a move
// that keeps it (best). It is the engine's search to the end without the
// engine: null-window searches (MTD(f)) on the bitboards, the nodes of
// endScoreShallow empty squares or fewer by SolveEnd's search, the others
// here, fewest replies first, the table's move before them, with a small
// table of bounds. The bounds are facts about the positions, kept through
// a game's searches (forget starts another): the scores and moves found do
// not depend on what the table held, only the nodes. No allocation after
// newEndScorer.
//
// The strong Solver finds the final disc difference, a finer value, but
// its best moves need not be the engine scale's and the score must be
// found on that scale all the same; and its moves depend on its tables
// (the root's first move is the table's), which a game's moves must not:
// cleared for each game (1.5 MiB a side), self-play at depth 2 took 0.85 s
// of CPU with the Solver's moves and this score, against 0.48 with this
// search's moves and score (before endScoreShallow, this table kept from
// game to game; 0.88 with the engine's own search).
type endScorer struct {
	table []endScoreEntry
	nodes int64
	// The last root's score, as its place, and its empty squares: the
	// first guess of the next root's (guess).
	last        int16
	lastEmpties int
	game        uint8 // counts the games (forget), from 1: the table's entries of this one count
}

// endScoreShallow is the most empty squares of the nodes an endScorer
// leaves to SolveEnd's search (no table, squares in a fixed order): at 6
// rather than EndEmpties (5), self-play at depth 2 took a quarter less
// time (0.33 s of CPU against 0.45, 4 and 7 no better than 5 and 6:
// 'BenchmarkSelfPlay/depth=2/end=solver' 10x, on a shared core, the table
// then kept from one game to the next, which the benchmark's repeated
// games favoured); the table's bounds at 6 as well took as long.
const endScoreShallow = 6

// endScoreBits sizes an endScorer's table: 8,192 entries of 24 bytes.
const endScoreBits = 13

// endScoreEntry holds bounds of a position's score, each as its place
// (endScorePlace), and its best move's square (-1: none).
type endScoreEntry struct {
	me, them     Bitboard
	lower, upper int16
	move         int8
	game         uint8 // the endScorer's game when stored: entries of other games do not count
}

func newEndScorer() *endScorer {
	return &endScorer{table: make([]endScoreEntry, 1<<endScoreBits), game: 1}
}

// endScoreNone are the places of the bounds of a position not yet
// bounded: below and above every score.
const endScoreNone = 1 << 10

// endScorePlace is the place of v, a score of a node with win: 0 for a
// draw, endScoreNone-k for a win in k plies, the negative for a loss; the
// same at every distance from the root.
func endScorePlace(v, win int32) int16 {
	switch {
	case v > 0:
		return int16(endScoreNone - (win - v))
	case v < 0:
		return -int16(endScoreNone - (win + v))
	}
	return 0
}

// endScoreAt is the score at a node with win of the place c.
func endScoreAt(c int16, win int32) int32 {
	switch {
	case c >= endScoreNone:
		return math.MaxInt32
	case c <= -endScoreNone:
		return math.MinInt32
	case c > 0:
		return win - (endScoreNone - int32(c))
	case c < 0:
		return -(win - (endScoreNone + int32(c)))
	}
	return 0
}

// search is the fail-soft score of the position with me to move in the
// window (alpha, beta), a finished game at it scoring ±win.
func (e *endScorer) search(me, them Bitboard, alpha, beta, win int32) int32 {
	n := popcount(^(me | them))
	if n <= endScoreShallow {
		r := searchEnd(me, them, alpha, beta, win, math.MaxInt64)
		e.nodes += r.Nodes
		return r.Score
	}
	moves := legalMoves(me, them)
	if moves == 0 {
		if legalMoves(them, me) == 0 {
			return endScore(popcount(me), popcount(them), win)
		}
		e.nodes++
		return -e.search(them, me, -beta, -alpha, win-1)
	}
	slot := &e.table[(me*0x9e3779b97f4a7c15^them*0xc2b2ae3d27d4eb4f)>>(64-endScoreBits)]
	first := -1
	if slot.me == me && slot.them == them && slot.game == e.game {
		if lo := endScoreAt(slot.lower, win); lo >= beta {
			return lo
		}
		if hi := endScoreAt(slot.upper, win); hi <= alpha {
			return hi
		}
		first = int(slot.move)
	}
	var list [32]endScoreMove
	k := orderEndScore(&list, me, them, moves, first)
	best, bestSq := int32(math.MinInt32), -1
	for _, m := range list[:k] {
		e.nodes++
		sc := -e.search(them&^m.flips, me|m.flips|1<<m.sq, -beta, -max(alpha, best), win-1)
		if sc > best {
			best, bestSq = sc, int(m.sq)
			if sc >= beta {
				break
			}
		}
	}
	lower, upper := int16(-endScoreNone), int16(endScoreNone)
	switch {
	case best >= beta:
		lower = endScorePlace(best, win)
	case best <= alpha:
		upper = endScorePlace(best, win)
	default:
		lower, upper = endScorePlace(best, win), endScorePlace(best, win)
	}
	*slot = endScoreEntry{me: me, them: them, lower: lower, upper: upper, move: int8(bestSq), game: e.game}
	return best
}

// endScoreMove is a move of an endScorer's node: its square, the discs it
// turns and its rank (the opponent's replies; the table's move first).
type endScoreMove struct {
	flips Bitboard
	sq    int8
	key   int8
}

// orderEndScore lists the moves of me in list, first the square first
// (when it is one of them), then by the fewest replies left to them, ties
// from a1 up, and returns how many there are.
func orderEndScore(list *[32]endScoreMove, me, them, moves Bitboard, first int) int {
	n := 0
	for b := moves; b != 0 && n < len(list); b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		f := flips(me, them, sq)
		key := int8(popcount(legalMoves(them&^f, me|f|1<<sq)))
		if sq == first {
			key = -1
		}
		m := endScoreMove{flips: f, sq: int8(sq), key: key}
		i := n
		for ; i > 0 && list[i-1].key > key; i-- {
			list[i] = list[i-1]
		}
		list[i] = m
		n++
	}
	return n
}

// best is the engine's score of the position with me to move, a
// finished game at it scoring ±win, and the first of me's moves in the
// root's order (fewest replies first, from a1 up: not the table's, so that
// the move does not depend on earlier searches) that keeps that score:
// PassMove when me must pass, games.NoMove when the game is over. The
// root's null-window searches (MTD(f)) start from a guess: the last
// root's score, the plies played since taken off (in a game played on
// from it with this score, the score of the same side's next root), else
// a game filling the board without a pass. Whichever search sets the lower
// bound to the score stops at the first move of that score (the moves
// before it score below its window), which is the move returned.
func (e *endScorer) best(me, them Bitboard, win int32) (int32, games.Move) {
	n := popcount(^(me | them))
	moves := legalMoves(me, them)
	if moves == 0 {
		if legalMoves(them, me) == 0 {
			return endScore(popcount(me), popcount(them), win), games.NoMove
		}
		e.nodes++
		sc, _ := e.best(them, me, win-1)
		return -sc, PassMove
	}
	var list [32]endScoreMove
	k := orderEndScore(&list, me, them, moves, -1)
	lower, upper, f := -win, win, e.guess(n, win)
	move := games.NoMove
	for lower < upper {
		beta := max(f, lower+1)
		var sq int
		f, sq = e.root(list[:k], me, them, beta-1, beta, win)
		if f < beta {
			upper = f
		} else {
			lower, move = f, games.Move(sq+1)
		}
	}
	e.last, e.lastEmpties = endScorePlace(lower, win), n
	return lower, move
}

// guess is the first guess of the score of a root of n empty squares
// whose finished games score ±win (best).
func (e *endScorer) guess(n int, win int32) int32 {
	c := e.last
	if e.lastEmpties <= n {
		return win - int32(n)
	}
	played := int16(e.lastEmpties - n)
	switch {
	case c > 0:
		c = min(c+played, endScoreNone-1)
	case c < 0:
		c = max(c-played, -endScoreNone+1)
	}
	return endScoreAt(c, win)
}

// forget starts a game: the last root's score is dropped (the next guess
// is a full board's) and the table's entries no longer count, so that the
// nodes of a game's searches depend on that game alone (and a benchmark
// that plays the same games again finds none of them). The entries are
// cleared once every 255 games.
func (e *endScorer) forget() {
	e.last, e.lastEmpties = 0, 0
	if e.game++; e.game == 0 {
		clear(e.table)
		e.game = 1
	}
}

// root is search at a root with the moves of list, in their order: the
// fail-soft score and the square of the move that scored it.
func (e *endScorer) root(list []endScoreMove, me, them Bitboard, alpha, beta, win int32) (int32, int) {
	best, bestSq := int32(math.MinInt32), -1
	for _, m := range list {
		e.nodes++
		sc := -e.search(them&^m.flips, me|m.flips|1<<m.sq, -beta, -max(alpha, best), win-1)
		if sc > best {
			best, bestSq = sc, int(m.sq)
			if sc >= beta {
				break
			}
		}
	}
	return best, bestSq
}
