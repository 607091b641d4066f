package checkers

import (
	"math/rand/v2"

	"github.com/gametune/gametune/games"
)

// Move encoding (games.Move): bits 0-5 the origin square plus one (so the
// zero Move is never legal), bits 6-10 the number of jumps (0 for a simple
// move), then two bits of direction per step from bit 11: the direction of
// the simple move, or of each jump in order. Up to 26 jumps fit, more than
// a side has pieces to capture. A king capturing the same pieces in another
// order is another move, as the published perft tables count.
func encodeMove(from int, dirs []int) games.Move {
	m := games.Move(from+1) | games.Move(len(dirs))<<6
	for i, d := range dirs {
		m |= games.Move(d) << (11 + 2*i)
	}
	return m
}

func simpleMove(from, dir int) games.Move {
	return games.Move(from+1) | games.Move(dir)<<11
}

func moveFrom(m games.Move) int  { return int(m&63) - 1 }
func moveJumps(m games.Move) int { return int(m >> 6 & 31) }
func moveDir(m games.Move, i int) int {
	return int(m >> (11 + 2*i) & 3)
}

// NoProgressPlies is the no-progress rule: a game is drawn after this many
// plies (40 moves each) without a capture or a man's move.
const NoProgressPlies = 80

// maxHistory bounds a game's length; a longer game grows the history.
const maxHistory = 512

// zobrist keys: [piece kind: black man, black king, white man, white king][square].
var zobrist [4][32]uint64
var zobristSide uint64

func init() {
	rng := rand.New(rand.NewPCG(0xc4ec, 0x4e25))
	for k := range zobrist {
		for s := range zobrist[k] {
			zobrist[k][s] = rng.Uint64()
		}
	}
	zobristSide = rng.Uint64()
}

// undo is what Undo needs to take a move back.
type undo struct {
	from, to   Bitboard // the moving piece's square before and after
	capMen     Bitboard
	capKings   Bitboard
	king       bool // the moving piece was a king before the move
	crowned    bool
	reversible int // plies since the last capture or man's move, before the move
	hash       uint64
}

// Position is an English draughts position. Black is games.First, White
// games.Second.
type Position struct {
	men, kings [2]Bitboard
	turn       games.Side
	reversible int // plies since the last capture or man's move
	hash       uint64
	history    []undo
}

func (p *Position) occupied() Bitboard {
	return p.men[0] | p.men[1] | p.kings[0] | p.kings[1]
}

func (p *Position) pieces(s games.Side) Bitboard { return p.men[s] | p.kings[s] }

func (p *Position) computeHash() uint64 {
	var h uint64
	for side := 0; side < 2; side++ {
		for b := p.men[side]; b != 0; b &= b - 1 {
			h ^= zobrist[2*side][lowest(b)]
		}
		for b := p.kings[side]; b != 0; b &= b - 1 {
			h ^= zobrist[2*side+1][lowest(b)]
		}
	}
	if p.turn == games.Second {
		h ^= zobristSide
	}
	return h
}

// repetitions counts earlier occurrences of the current position since the
// last irreversible move.
func (p *Position) repetitions() int {
	n := 0
	for i := len(p.history) - 2; i >= 0 && i >= len(p.history)-p.reversible; i -= 2 {
		if p.history[i].hash == p.hash {
			n++
		}
	}
	return n
}

// drawn reports a draw by repetition or by the no-progress rule.
func (p *Position) drawn() bool {
	return p.reversible >= NoProgressPlies || (p.reversible >= 8 && p.repetitions() >= 2)
}

// Moves lists the legal moves: the captures when there are any (capture is
// mandatory; each is a whole sequence), the simple moves otherwise. A side
// with no move has lost; threefold repetition and the no-progress rule draw.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	if p.drawn() {
		return dst, games.Draw
	}
	dst = p.captures(dst)
	if len(dst) == 0 {
		dst = p.simpleMoves(dst)
	}
	if len(dst) == 0 {
		return dst, games.WinFor(p.turn.Other())
	}
	return dst, games.Ongoing
}

// Noisy returns the captures: quiescence follows exchanges to the end.
func (p *Position) Noisy(dst []games.Move) []games.Move {
	return p.captures(dst[:0])
}

// moveSquares returns the square move m starts from, the one it ends on
// (the same for a king's capture round a loop), both 0-31, and the squares
// of the pieces it captures. The path is followed through the step and
// jump tables.
func moveSquares(m games.Move) (from, to int, captured Bitboard) {
	from = moveFrom(m)
	n := moveJumps(m)
	if n == 0 {
		return from, int(step[moveDir(m, 0)][from]), 0
	}
	to = from
	for i := 0; i < n; i++ {
		d := moveDir(m, i)
		captured |= 1 << step[d][to]
		to = int(jump[d][to])
	}
	return from, to, captured
}

// Play makes move m, keeping the squares Undo needs in the history.
func (p *Position) Play(m games.Move) {
	me, them := p.turn, p.turn.Other()
	fromSq, toSq, captured := moveSquares(m)
	from, to := Bitboard(1)<<fromSq, Bitboard(1)<<toSq
	n := moveJumps(m)
	u := undo{from: from, to: to, reversible: p.reversible, hash: p.hash}
	kind := 2 * int(me)
	if p.kings[me]&from != 0 {
		u.king = true
		// A king's capture may end where it started (a loop): clear, then set.
		p.kings[me] = p.kings[me]&^from | to
		p.hash ^= zobrist[kind+1][fromSq] ^ zobrist[kind+1][toSq]
	} else {
		p.men[me] &^= from
		p.hash ^= zobrist[kind][fromSq]
		if lastRow[me]&to != 0 {
			p.kings[me] |= to
			p.hash ^= zobrist[kind+1][toSq]
			u.crowned = true
		} else {
			p.men[me] |= to
			p.hash ^= zobrist[kind][toSq]
		}
	}
	if captured != 0 {
		u.capKings = captured & p.kings[them]
		u.capMen = captured &^ u.capKings
		p.men[them] &^= u.capMen
		p.kings[them] &^= u.capKings
		okind := 2 * int(them)
		for b := u.capMen; b != 0; b &= b - 1 {
			p.hash ^= zobrist[okind][lowest(b)]
		}
		for b := u.capKings; b != 0; b &= b - 1 {
			p.hash ^= zobrist[okind+1][lowest(b)]
		}
	}
	if u.king && n == 0 {
		p.reversible++
	} else {
		p.reversible = 0
	}
	p.turn = them
	p.hash ^= zobristSide
	p.history = append(p.history, u)
}

// Undo takes back the last move.
func (p *Position) Undo() {
	u := &p.history[len(p.history)-1]
	p.turn = p.turn.Other()
	me, them := p.turn, p.turn.Other()
	switch {
	case u.crowned:
		p.kings[me] &^= u.to
		p.men[me] |= u.from
	case u.king:
		p.kings[me] = p.kings[me]&^u.to | u.from
	default:
		p.men[me] = p.men[me]&^u.to | u.from
	}
	p.men[them] |= u.capMen
	p.kings[them] |= u.capKings
	p.reversible = u.reversible
	p.hash = u.hash
	p.history = p.history[:len(p.history)-1]
}

func (p *Position) Hash() uint64     { return p.hash }
func (p *Position) Turn() games.Side { return p.turn }
func (p *Position) Ply() int         { return len(p.history) }

func (p *Position) Clone() games.Position {
	c := *p
	c.history = append(make([]undo, 0, max(maxHistory, cap(p.history))), p.history...)
	return &c
}

// OrderHint puts captures first, longer ones earlier, and crowning moves.
func (p *Position) OrderHint(m games.Move, depth int) int32 {
	if n := moveJumps(m); n > 0 {
		return 100 * int32(n)
	}
	if p.men[p.turn]&beforeCrown[p.turn]&(1<<moveFrom(m)) != 0 {
		return 50
	}
	return 0
}

// Perft counts the leaves depth plies ahead, the last ply in bulk: the
// count of games.PerftGeneric, through concrete calls, with the moves of
// the last ply counted on whole bitboards (countMoves) rather than listed.
//
// The move lists, one a ply, are borrowed from a pool: games.PerftContext
// calls Perft for every subtree below its walk, often at depth 1 or 2, and
// those calls then allocate nothing.
func (p *Position) Perft(depth int) uint64 {
	switch depth {
	case 0:
		return 1
	case 1:
		return uint64(p.countMoves())
	}
	lists := perftLists.Get(depth)
	n := p.perft(depth, *lists)
	perftLists.Put(lists)
	return n
}

// perftLists holds the move lists Perft borrows.
var perftLists = games.NewMoveLists(64)

// perft counts for depth >= 1.
func (p *Position) perft(depth int, bufs [][]games.Move) uint64 {
	if depth == 1 {
		return uint64(p.countMoves())
	}
	moves, _ := p.Moves(bufs[depth])
	bufs[depth] = moves[:0]
	var n uint64
	for _, m := range moves {
		// Below a move that cannot draw by the rules (the plies since the
		// last capture or man's move stay under 8, so neither repetition
		// nor the no-progress rule), the last ply is counted on the
		// pieces alone, without Play's hash and history.
		if depth == 2 && (p.reversible < 7 || moveJumps(m) > 0 || p.kings[p.turn]&(1<<moveFrom(m)) == 0) {
			n += uint64(p.countAfter(m))
			continue
		}
		p.Play(m)
		n += p.perft(depth-1, bufs)
		p.Undo()
	}
	return n
}

// countAfter is the countMoves of the position after move m, for a move
// after which the game cannot be drawn by the rules.
func (p *Position) countAfter(m games.Move) int {
	me, them := p.turn, p.turn.Other()
	fromSq, toSq, captured := moveSquares(m)
	from, to := Bitboard(1)<<fromSq, Bitboard(1)<<toSq
	c := Position{men: p.men, kings: p.kings, turn: them}
	if c.kings[me]&from != 0 {
		c.kings[me] = c.kings[me]&^from | to
	} else if c.men[me] &^= from; lastRow[me]&to != 0 {
		c.kings[me] |= to
	} else {
		c.men[me] |= to
	}
	c.men[them] &^= captured
	c.kings[them] &^= captured
	if n := c.countCaptures(); n > 0 {
		return n
	}
	return c.countSimpleMoves()
}

// countMoves is len(Moves(...)): 0 when the game has ended.
func (p *Position) countMoves() int {
	if p.drawn() {
		return 0
	}
	if n := p.countCaptures(); n > 0 {
		return n
	}
	return p.countSimpleMoves()
}
