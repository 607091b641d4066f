package othello

import "github.com/gametune/gametune/games"

// SolveEnd's results are remembered by the position it is called on (the
// game's position, which the engine plays its moves on), in a small table
// of its own: the engine asks for the same position at EndEmpties again and
// again, from the next move's search, from the opponent's, from a search
// again with a wider window, and SolveEnd's search is the same each time,
// a function of the discs and the window alone. The table answers with the
// score, move and count of moves the search found, which are the ones it
// would find again: nothing the engine sees changes, the games neither.
//
// A search given win scores a finished game win-k, 0 or -(win-k), k the
// plies below its root (at most 2*EndEmpties here), and compares the
// window's bounds with those scores alone: a bound is kept as its place
// among them (endClass), and a search with another win but its bounds in
// the same places plays the same moves and returns the score in the same
// place. So the position found again a ply further from the engine's root,
// with the window moved along, is answered too.

// endMemoBits sizes a position's table: 2,048 entries of 32 bytes, 64 KiB,
// allocated at the position's first SolveEnd (a self-play game's
// position). Self-play at depth 2 asks for about 1,250 positions a game.
const endMemoBits = 11

// endMemoMinWin is the least win for which the table is used: the classes
// need the scores of wins above 64 plies from them.
const endMemoMinWin = 1 << 10

// endMemo is a position's table of SolveEnd's results, an entry a slot.
type endMemo [1 << endMemoBits]endMemoEntry

// endMemoEntry is a search's result: the discs of the side to move and
// of the other side, the window's classes, the score's class, the move and
// the moves played.
type endMemoEntry struct {
	me, them    Bitboard
	alpha, beta int16
	score       int16
	move        uint8
	nodes       uint32
}

// Classes of endClass: above every score, and the place of each win.
const (
	classAbove = 1 << 14
	classWin   = 1 << 13 // the class of win itself; win-k is classWin-k
)

// endClass is the place of v among the scores a search with win can
// return: 0 for 0, classWin-k for win-k (k < 64), between them 1 for the
// values between 0 and the wins, classAbove above win, and the negatives
// of those for the negative values. endClass is odd and strictly
// increasing on the scores.
func endClass(v, win int32) int16 {
	switch {
	case v == 0:
		return 0
	case v < 0:
		if v < -win {
			return -classAbove
		}
		return -endClass(-v, win)
	case v > win:
		return classAbove
	case v > win-64:
		return int16(classWin - (win - v))
	}
	return 1
}

// endScoreOfClass is the score of class c, one of a win, a loss or 0.
func endScoreOfClass(c int16, win int32) int32 {
	switch {
	case c > 0:
		return win - (classWin - int32(c))
	case c < 0:
		return -(win - (classWin + int32(c)))
	}
	return 0
}

// slot is the entry of the search of me, them in the window of classes a, b.
func (m *endMemo) slot(me, them Bitboard, a, b int16) *endMemoEntry {
	h := me*0x9e3779b97f4a7c15 ^ them*0xc2b2ae3d27d4eb4f ^ uint64(uint16(a))<<16 ^ uint64(uint16(b))
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return &m[h>>(64-endMemoBits)]
}

// solveEndMemo is SolveEnd through p's table: true when the table
// answered (an entry of the discs and the window's classes whose search
// played no more moves than budget); otherwise the search is to be made,
// and kept in the entry returned, if any, with keep. An entry of zeros
// holds no discs and matches no position it is asked for: those have at
// most EndEmpties empty squares.
func (p *Position) solveEndMemo(me, them Bitboard, alpha, beta, win int32, budget int64) (games.EndResult, *endMemoEntry, bool) {
	if win < endMemoMinWin || popcount(^(me|them)) > EndEmpties {
		return games.EndResult{}, nil, false
	}
	if p.memo == nil {
		p.memo = new(endMemo)
	}
	a, b := endClass(alpha, win), endClass(beta, win)
	e := p.memo.slot(me, them, a, b)
	if e.me == me && e.them == them && e.alpha == a && e.beta == b && int64(e.nodes) <= budget {
		return games.EndResult{Score: endScoreOfClass(e.score, win), Move: games.Move(e.move), Nodes: int64(e.nodes)}, nil, true
	}
	return games.EndResult{}, e, false
}

// keep stores a finished search's result in e.
func (e *endMemoEntry) keep(me, them Bitboard, alpha, beta, win int32, r games.EndResult) {
	if r.Stopped || r.Nodes > 1<<31 {
		return
	}
	*e = endMemoEntry{me: me, them: them, alpha: endClass(alpha, win), beta: endClass(beta, win),
		score: endClass(r.Score, win), move: uint8(r.Move), nodes: uint32(r.Nodes)}
}
