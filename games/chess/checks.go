package chess

import "github.com/gametune/gametune/games"

// QuietChecks appends the legal moves that give check and are neither
// captures nor promotions (games.QuietChecker): a move whose piece lands
// on a square that attacks the enemy king, a move of a piece that stood
// between the enemy king and a slider of its side, or castling, each
// tried on the board to keep only real checks.
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
		if mFlag(m) != flagCastle && from[p.kind[f]]&(1<<t) == 0 && discoverers&(1<<f) == 0 {
			continue
		}
		p.Play(m)
		check := p.InCheck()
		p.Undo()
		if check {
			dst[kept] = m
			kept++
		}
	}
	return dst[:kept]
}
