package chess

import (
	"math/rand/v2"

	"github.com/gametune/gametune/games"
)

// Move encoding (games.Move): bits 0-5 the origin square, 6-11 the
// destination, 12-14 the promotion piece (Knight..Queen, 0 for none), 15-16
// a flag: 1 en passant, 2 castling (the king's move), 3 a pawn's double
// push. a1a1, the zero Move, is never legal.
const (
	flagNone = iota
	flagEnPassant
	flagCastle
	flagDouble
)

func newMove(from, to, promo, flag int) games.Move {
	return games.Move(from | to<<6 | promo<<12 | flag<<15)
}

func mFrom(m games.Move) int  { return int(m & 63) }
func mTo(m games.Move) int    { return int(m >> 6 & 63) }
func mPromo(m games.Move) int { return int(m >> 12 & 7) }
func mFlag(m games.Move) int  { return int(m >> 15 & 3) }

// Castling rights bits.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// castleMask[s] keeps the rights that survive a move from or to s.
var castleMask [64]uint8

var (
	zobristPiece  [2][6][64]uint64
	zobristCastle [16]uint64
	zobristEP     [8]uint64
	zobristSide   uint64
)

func init() {
	for s := range castleMask {
		castleMask[s] = 15
	}
	castleMask[4] &^= castleWK | castleWQ
	castleMask[7] &^= castleWK
	castleMask[0] &^= castleWQ
	castleMask[60] &^= castleBK | castleBQ
	castleMask[63] &^= castleBK
	castleMask[56] &^= castleBQ
	rng := rand.New(rand.NewPCG(0xc4e55, 0xb0a7d))
	for c := range zobristPiece {
		for k := range zobristPiece[c] {
			for s := range zobristPiece[c][k] {
				zobristPiece[c][k][s] = rng.Uint64()
			}
		}
	}
	for i := range zobristCastle {
		zobristCastle[i] = rng.Uint64()
	}
	for i := range zobristEP {
		zobristEP[i] = rng.Uint64()
	}
	zobristSide = rng.Uint64()
}

type undo struct {
	move     games.Move
	captured uint8 // piece kind taken, noPiece if none
	castling uint8
	ep       int8
	halfmove int
	hash     uint64
}

// Position is a chess position. White is games.First, Black games.Second.
type Position struct {
	pieces   [2][6]Bitboard
	colors   [2]Bitboard
	kind     [64]uint8 // piece kind on each square, noPiece when empty
	turn     int
	castling uint8
	ep       int8 // en-passant target square after a double push, or -1
	halfmove int
	fullmove int
	hash     uint64
	history  []undo
}

func (p *Position) occupied() Bitboard { return p.colors[0] | p.colors[1] }

func (p *Position) kingSquare(c int) int { return lsb(p.pieces[c][King]) }

func (p *Position) colorAt(s int) int {
	if p.colors[white]&(1<<s) != 0 {
		return white
	}
	return black
}

func (p *Position) put(c, k, s int) {
	p.pieces[c][k] |= 1 << s
	p.colors[c] |= 1 << s
	p.kind[s] = uint8(k)
	p.hash ^= zobristPiece[c][k][s]
}

func (p *Position) remove(c, k, s int) {
	p.pieces[c][k] &^= 1 << s
	p.colors[c] &^= 1 << s
	p.kind[s] = noPiece
	p.hash ^= zobristPiece[c][k][s]
}

// epHash is the hash of the en-passant square: counted only when a pawn of
// the side to move could take there, so that positions that play alike
// hash alike.
func (p *Position) epHash() uint64 {
	if p.ep < 0 || pawnAttacks[p.turn^1][p.ep]&p.pieces[p.turn][Pawn] == 0 {
		return 0
	}
	return zobristEP[p.ep%8]
}

func (p *Position) computeHash() uint64 {
	var h uint64
	for c := 0; c < 2; c++ {
		for k := 0; k < 6; k++ {
			for b := p.pieces[c][k]; b != 0; b &= b - 1 {
				h ^= zobristPiece[c][k][lsb(b)]
			}
		}
	}
	h ^= zobristCastle[p.castling]
	if p.turn == black {
		h ^= zobristSide
	}
	return h ^ p.epHash()
}

// attackersTo returns the pieces of both colours attacking s with occupancy occ.
func (p *Position) attackersTo(s int, occ Bitboard) Bitboard {
	return pawnAttacks[white][s]&p.pieces[black][Pawn] |
		pawnAttacks[black][s]&p.pieces[white][Pawn] |
		knightAttacks[s]&(p.pieces[0][Knight]|p.pieces[1][Knight]) |
		kingAttacks[s]&(p.pieces[0][King]|p.pieces[1][King]) |
		bishopAttacks(s, occ)&(p.pieces[0][Bishop]|p.pieces[1][Bishop]|p.pieces[0][Queen]|p.pieces[1][Queen]) |
		rookAttacks(s, occ)&(p.pieces[0][Rook]|p.pieces[1][Rook]|p.pieces[0][Queen]|p.pieces[1][Queen])
}

// attacked reports whether colour by attacks s with occupancy occ.
func (p *Position) attacked(s, by int, occ Bitboard) bool {
	them := &p.pieces[by]
	return pawnAttacks[by^1][s]&them[Pawn] != 0 ||
		knightAttacks[s]&them[Knight] != 0 ||
		kingAttacks[s]&them[King] != 0 ||
		bishopAttacks(s, occ)&(them[Bishop]|them[Queen]) != 0 ||
		rookAttacks(s, occ)&(them[Rook]|them[Queen]) != 0
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attacked(p.kingSquare(p.turn), p.turn^1, p.occupied())
}

// Play makes move m.
func (p *Position) Play(m games.Move) {
	from, to, promo, flag := mFrom(m), mTo(m), mPromo(m), mFlag(m)
	us, them := p.turn, p.turn^1
	k := int(p.kind[from])
	u := undo{move: m, captured: p.kind[to], castling: p.castling, ep: p.ep, halfmove: p.halfmove, hash: p.hash}
	p.hash ^= p.epHash()
	p.ep = -1
	p.halfmove++
	if flag == flagEnPassant {
		capSq := to - 8
		if us == black {
			capSq = to + 8
		}
		p.remove(them, Pawn, capSq)
		u.captured = Pawn
	} else if u.captured != noPiece {
		p.remove(them, int(u.captured), to)
	}
	if u.captured != noPiece || k == Pawn {
		p.halfmove = 0
	}
	p.remove(us, k, from)
	if promo != 0 {
		p.put(us, promo, to)
	} else {
		p.put(us, k, to)
	}
	if flag == flagCastle {
		if to > from { // king side
			p.remove(us, Rook, from+3)
			p.put(us, Rook, from+1)
		} else {
			p.remove(us, Rook, from-4)
			p.put(us, Rook, from-1)
		}
	}
	p.hash ^= zobristCastle[p.castling]
	p.castling &= castleMask[from] & castleMask[to]
	p.hash ^= zobristCastle[p.castling]
	if flag == flagDouble {
		p.ep = int8((from + to) / 2)
	}
	if us == black {
		p.fullmove++
	}
	p.turn = them
	p.hash ^= zobristSide
	p.hash ^= p.epHash()
	p.history = append(p.history, u)
}

// Undo takes back the last move.
func (p *Position) Undo() {
	u := p.history[len(p.history)-1]
	p.history = p.history[:len(p.history)-1]
	m := u.move
	from, to, promo, flag := mFrom(m), mTo(m), mPromo(m), mFlag(m)
	p.turn ^= 1
	us, them := p.turn, p.turn^1
	if us == black {
		p.fullmove--
	}
	k := int(p.kind[to])
	p.remove(us, k, to)
	if promo != 0 {
		k = Pawn
	}
	p.put(us, k, from)
	if flag == flagCastle {
		if to > from {
			p.remove(us, Rook, from+1)
			p.put(us, Rook, from+3)
		} else {
			p.remove(us, Rook, from-1)
			p.put(us, Rook, from-4)
		}
	}
	if flag == flagEnPassant {
		capSq := to - 8
		if us == black {
			capSq = to + 8
		}
		p.put(them, Pawn, capSq)
	} else if u.captured != noPiece {
		p.put(them, int(u.captured), to)
	}
	p.castling, p.ep, p.halfmove, p.hash = u.castling, u.ep, u.halfmove, u.hash
}

func (p *Position) Hash() uint64 { return p.hash }

func (p *Position) Turn() games.Side { return games.Side(p.turn) }

func (p *Position) Ply() int { return len(p.history) }

func (p *Position) Clone() games.Position {
	c := *p
	c.history = append(make([]undo, 0, max(256, cap(p.history))), p.history...)
	return &c
}

// repetitions counts the earlier occurrences of the current position in
// the last plies moves since the last irreversible one, stopping at
// enough.
func (p *Position) repetitions(plies, enough int) int {
	n, h := 0, len(p.history)
	for k := 2; k <= plies && k <= p.halfmove && k <= h && n < enough; k += 2 {
		if p.history[h-k].hash == p.hash {
			n++
		}
	}
	return n
}

// Repeats tells whether the current position stood within the last plies
// moves (games.Repeater), none of them a capture, a pawn move or a loss of
// castling rights since: those the hash holds too.
func (p *Position) Repeats(plies int) bool { return p.repetitions(plies, 1) == 1 }

// insufficient reports a draw by insufficient material: kings alone, a
// single minor piece, or bishops all on squares of one colour.
func (p *Position) insufficient() bool {
	for c := 0; c < 2; c++ {
		if p.pieces[c][Pawn]|p.pieces[c][Rook]|p.pieces[c][Queen] != 0 {
			return false
		}
	}
	knights := p.pieces[0][Knight] | p.pieces[1][Knight]
	bishops := p.pieces[0][Bishop] | p.pieces[1][Bishop]
	minors := popcount(knights | bishops)
	if minors <= 1 {
		return true
	}
	const light Bitboard = 0x55aa55aa55aa55aa
	return knights == 0 && (bishops&light == 0 || bishops&^light == 0)
}

// Moves lists the legal moves and the outcome: checkmate, stalemate, the
// 50-move rule (100 plies without a capture or a pawn move; a mate on the
// last of them stands), threefold repetition and insufficient material.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	if p.insufficient() || (p.halfmove >= 8 && p.repetitions(p.halfmove, 2) == 2) {
		return dst, games.Draw
	}
	dst = p.generate(dst, false)
	if len(dst) == 0 {
		if p.InCheck() {
			return dst, games.WinFor(games.Side(p.turn ^ 1))
		}
		return dst, games.Draw
	}
	if p.halfmove >= 100 {
		return dst[:0], games.Draw
	}
	return dst, games.Ongoing
}

// Noisy lists the legal captures and promotions, most valuable victim
// first and least valuable attacker first among equals (MVV-LVA).
func (p *Position) Noisy(dst []games.Move) []games.Move {
	dst = p.generate(dst[:0], true)
	// Insertion sort by MVV-LVA: the lists are short.
	for i := 1; i < len(dst); i++ {
		m := dst[i]
		v := p.mvvLva(m)
		j := i
		for ; j > 0 && p.mvvLva(dst[j-1]) < v; j-- {
			dst[j] = dst[j-1]
		}
		dst[j] = m
	}
	return dst
}

var mvvValue = [7]int32{100, 300, 310, 500, 900, 10000, 0}

func (p *Position) mvvLva(m games.Move) int32 {
	victim := p.kind[mTo(m)]
	if mFlag(m) == flagEnPassant {
		victim = Pawn
	}
	v := 8*mvvValue[victim] + 7 - int32(p.kind[mFrom(m)])
	if pr := mPromo(m); pr != 0 {
		v += 8 * mvvValue[pr]
	}
	return v
}

// OrderHint ranks captures and promotions by MVV-LVA ahead of quiet moves.
func (p *Position) OrderHint(m games.Move, depth int) int32 {
	if p.kind[mTo(m)] == noPiece && mFlag(m) != flagEnPassant && mPromo(m) == 0 {
		return 0
	}
	return p.mvvLva(m)
}
