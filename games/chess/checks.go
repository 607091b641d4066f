package chess

import "github.com/gametune/gametune/games"

// QuietChecks appends the legal moves that give check and are neither
// captures nor promotions (games.QuietChecker): a move whose piece lands
// on a square that attacks the enemy king, a move of a piece that stood
// between the enemy king and a slider of its side, or castling, each tried
// on the board to keep only real checks; a check by the moved piece alone
// is left out where the enemy can take it for less than it is worth
// (losesChecker).
func (p *Position) QuietChecks(dst []games.Move) []games.Move {
	us, them := p.turn, p.turn^1
	occ := p.occupied()
	ek := p.kingSquare(them)
	var from [6]Bitboard // squares from which kind k attacks the enemy king
	from[Pawn] = pawnAttackSet(them, 1<<ek)
	from[Knight] = knightAttacks[ek]
	from[Bishop] = bishopAttacks(ek, occ)
	from[Rook] = rookAttacks(ek, occ)
	from[Queen] = from[Bishop] | from[Rook]
	discoverers := p.pinned(ek, us, occ, p.colors[us])
	n := len(dst)
	dst = p.generate(dst, false)
	moves := dst[n:]
	kept := n
	for _, m := range moves {
		f, t := mFrom(m), mTo(m)
		if p.kind[t] != noPiece || mPromo(m) != 0 || mFlag(m) == flagEnPassant {
			continue
		}
		castle, discoverer := mFlag(m) == flagCastle, discoverers&(1<<f) != 0
		direct := from[p.kind[f]]&(1<<t) != 0
		if !castle && !discoverer && !direct {
			continue
		}
		loses := !castle && direct && p.losesChecker(f, t, int(p.kind[f]))
		if loses && !discoverer {
			continue
		}
		p.Play(m)
		check := p.InCheck()
		if check && loses {
			// Kept only when another piece checks too: a discovered check.
			check = p.attackersTo(p.kingSquare(them), p.occupied())&p.colors[us]&^(1<<t) != 0
		}
		p.Undo()
		if check {
			dst[kept] = m
			kept++
		}
	}
	return dst[:kept]
}

// checkerValue is the worth of a piece by kind, for losesChecker.
var checkerValue = [6]int{Pawn: 1, Knight: 3, Bishop: 3, Rook: 5, Queen: 9, King: 100}

// losesChecker reports whether a piece of kind k of the side to move,
// moved from f to the empty square t, can be taken there for less than it
// is worth: t is attacked by an enemy piece worth less, or attacked and
// defended by no other piece of the side.
func (p *Position) losesChecker(f, t, k int) bool {
	us, them := p.turn, p.turn^1
	att := p.attackersTo(t, p.occupied()&^(1<<f))
	enemy := att & p.colors[them]
	if enemy == 0 {
		return false
	}
	if att&p.colors[us]&^(1<<f) == 0 {
		return true
	}
	for a := Pawn; a < King; a++ {
		if enemy&p.pieces[them][a] != 0 && checkerValue[a] < checkerValue[k] {
			return true
		}
	}
	return false
}

// Extend tells whether the engine searches a ply deeper after the last
// move (games.Extender): an even recapture (Recaptured) or a pawn's move to
// its seventh rank (PushedToSeventh).
func (p *Position) Extend() bool {
	return p.Recaptured() || p.PushedToSeventh()
}

// PushedToSeventh tells whether the last move took a pawn to its seventh
// rank, a move from promoting (a capture onto it too).
func (p *Position) PushedToSeventh() bool {
	n := len(p.history)
	if n == 0 {
		return false
	}
	to := mTo(p.history[n-1].move)
	return p.kind[to] == Pawn && relativeRank(p.turn^1, to) == 6
}

// Recaptured tells whether the last move took back, on the square where
// the move before it captured, a piece of the same worth (a knight and a
// bishop alike) as that move took.
func (p *Position) Recaptured() bool {
	n := len(p.history)
	if n < 2 {
		return false
	}
	last, prev := &p.history[n-1], &p.history[n-2]
	if last.captured == noPiece || prev.captured == noPiece || mTo(last.move) != mTo(prev.move) {
		return false
	}
	return checkerValue[last.captured] == checkerValue[prev.captured]
}
