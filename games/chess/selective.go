package chess

import "github.com/gametune/gametune/games"

// What chess gives the engine's selective search: the null move
// (games.NullMover), the static exchange evaluation of captures
// (games.Exchanger) and its own defaults for the search parameters
// (games.SearchDefaulter), in centipawns.

// NullSafe tells whether the side to move may pass for the search's sake
// (games.NullMover): not in check, and with a piece besides its king and
// pawns, without which zugzwang is common.
func (p *Position) NullSafe() bool {
	us := &p.pieces[p.turn]
	return us[Knight]|us[Bishop]|us[Rook]|us[Queen] != 0 && !p.InCheck()
}

// PlayNull gives the move to the opponent (games.NullMover). The
// en-passant square goes, and the plies since the last irreversible move
// start again: no repetition reaches across a null move.
func (p *Position) PlayNull() {
	p.history = append(p.history, undo{captured: noPiece, castling: p.castling, ep: p.ep, halfmove: p.halfmove, hash: p.hash})
	p.hash ^= p.epHash()
	p.ep = -1
	p.halfmove = 0
	if p.turn == black {
		p.fullmove++
	}
	p.turn ^= 1
	p.hash ^= zobristSide
}

// UndoNull takes back the null move PlayNull made.
func (p *Position) UndoNull() {
	u := p.history[len(p.history)-1]
	p.history = p.history[:len(p.history)-1]
	p.turn ^= 1
	if p.turn == black {
		p.fullmove--
	}
	p.castling, p.ep, p.halfmove, p.hash = u.castling, u.ep, u.halfmove, u.hash
}

// exchangeValue is a piece's worth in the static exchange evaluation, in
// centipawns; a king is worth more than everything else together, so
// that it takes last and never into a defended square.
var exchangeValue = [7]int32{Pawn: 100, Knight: 320, Bishop: 330, Rook: 500, Queen: 950, King: 20000, noPiece: 0}

// Exchange is the static exchange evaluation of move m (games.Exchanger):
// the material the side to move wins, in centipawns, when after m both
// sides take on its target square, each with its least valuable piece
// first (through the sliders behind), each free to stop. A promotion
// counts the promoted piece; pins are not seen. It allocates nothing.
func (p *Position) Exchange(m games.Move) int32 {
	from, to := mFrom(m), mTo(m)
	occ := p.occupied() &^ (1 << from)
	var gain [32]int32
	gain[0] = exchangeValue[p.kind[to]]
	on := exchangeValue[p.kind[from]] // the worth of the piece on the square, to be taken next
	if mFlag(m) == flagEnPassant {
		gain[0] = exchangeValue[Pawn]
		if p.turn == white {
			occ &^= 1 << (to - 8)
		} else {
			occ &^= 1 << (to + 8)
		}
	}
	if pr := mPromo(m); pr != 0 {
		gain[0] += exchangeValue[pr] - exchangeValue[Pawn]
		on = exchangeValue[pr]
	}
	side := p.turn ^ 1
	d := 0
	for d < len(gain)-1 {
		attackers := p.attackersTo(to, occ) & occ & p.colors[side]
		if attackers == 0 {
			break
		}
		k := Pawn
		for ; k < King && attackers&p.pieces[side][k] == 0; k++ {
		}
		d++
		gain[d] = on - gain[d-1] // the balance for side if the exchange stops after its capture
		occ &^= 1 << lsb(attackers&p.pieces[side][k])
		on = exchangeValue[k]
		side ^= 1
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// searchDefaults are chess's defaults for the selective search's
// parameters, in centipawns (games.SearchDefaulter): SPSA's values from
// the engine's (tune run --algo spsa on tune engine through UCI, 20
// parameters at 10,000 nodes a move, seed 5341, its generation 298 after
// 10,024 games: cmd/tune's TestExperimentSearchSPSA), which beat the
// engine's at 10+0.1 by +25.2 Elo [+0.6, +50.1] over 200 pairs (docs/experiments.md). Those
// it left where they were are the engine's.
var searchDefaults = map[string]int{
	"null-divisor": 5, "null-verify-from": 13,
	"lmr-min-depth": 2, "lmr-base": 87, "lmr-divisor": 179,
	"lmp-base": 6, "lmp-scale": 114,
	"futility-max-depth": 4, "futility-base": 41, "futility-margin": 89,
	"rfp-margin": 39, "razor-base": 285, "razor-margin": 193, "see-margin": 1,
}

// SearchDefaults returns chess's defaults for the engine's search
// parameters (games.SearchDefaulter).
func (p *Position) SearchDefaults() map[string]int { return searchDefaults }
