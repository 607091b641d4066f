package chess

import "github.com/gametune/gametune/games"

// generate appends the legal moves (only captures and promotions when
// noisy). Legality comes from check and pin masks, not from trying moves:
// in double check only the king moves; in single check the other pieces
// must take the checker or block; a pinned piece moves along its pin line;
// en passant, which can uncover the king along a rank, is checked by
// looking at the sliders after the capture.
func (p *Position) generate(dst []games.Move, noisy bool) []games.Move {
	us, them := p.turn, p.turn^1
	occ := p.occupied()
	own, enemy := p.colors[us], p.colors[them]
	ksq := p.kingSquare(us)
	checkers := p.attackersTo(ksq, occ) & enemy

	// King moves: to squares not attacked once the king has left its square.
	targets := kingAttacks[ksq] &^ own
	if noisy {
		targets &= enemy
	}
	for b := targets; b != 0; b &= b - 1 {
		t := lsb(b)
		if !p.attacked(t, them, occ&^(1<<ksq)) {
			dst = append(dst, newMove(ksq, t, 0, flagNone))
		}
	}
	if popcount(checkers) > 1 {
		return dst
	}

	mask := ^Bitboard(0) // squares the other pieces may move to
	if checkers != 0 {
		mask = checkers | between[ksq][lsb(checkers)]
	}

	pinned := p.pinned(ksq, them, occ, own)
	allowed := func(from int) Bitboard {
		if pinned&(1<<from) != 0 {
			return mask & line[ksq][from]
		}
		return mask
	}

	pieceTargets := ^own
	if noisy {
		pieceTargets = enemy
	}
	for b := p.pieces[us][Knight] &^ pinned; b != 0; b &= b - 1 {
		s := lsb(b)
		dst = addMoves(dst, s, knightAttacks[s]&pieceTargets&mask)
	}
	for b := p.pieces[us][Bishop] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		s := lsb(b)
		dst = addMoves(dst, s, bishopAttacks(s, occ)&pieceTargets&allowed(s))
	}
	for b := p.pieces[us][Rook] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		s := lsb(b)
		dst = addMoves(dst, s, rookAttacks(s, occ)&pieceTargets&allowed(s))
	}

	dst = p.pawnMoves(dst, us, occ, enemy, mask, pinned, ksq, noisy)

	// Castling: not out of, through or into check, the squares between empty.
	if checkers == 0 && !noisy {
		if us == white {
			if p.castling&castleWK != 0 && occ&0x60 == 0 && !p.attacked(5, them, occ) && !p.attacked(6, them, occ) {
				dst = append(dst, newMove(4, 6, 0, flagCastle))
			}
			if p.castling&castleWQ != 0 && occ&0x0e == 0 && !p.attacked(3, them, occ) && !p.attacked(2, them, occ) {
				dst = append(dst, newMove(4, 2, 0, flagCastle))
			}
		} else {
			if p.castling&castleBK != 0 && occ&(0x60<<56) == 0 && !p.attacked(61, them, occ) && !p.attacked(62, them, occ) {
				dst = append(dst, newMove(60, 62, 0, flagCastle))
			}
			if p.castling&castleBQ != 0 && occ&(0x0e<<56) == 0 && !p.attacked(59, them, occ) && !p.attacked(58, them, occ) {
				dst = append(dst, newMove(60, 58, 0, flagCastle))
			}
		}
	}
	return dst
}

func addMoves(dst []games.Move, from int, targets Bitboard) []games.Move {
	for ; targets != 0; targets &= targets - 1 {
		dst = append(dst, newMove(from, lsb(targets), 0, flagNone))
	}
	return dst
}

func addPawnMove(dst []games.Move, from, to int, promote bool, flag int) []games.Move {
	if promote {
		return append(dst, newMove(from, to, Queen, flag), newMove(from, to, Knight, flag),
			newMove(from, to, Rook, flag), newMove(from, to, Bishop, flag))
	}
	return append(dst, newMove(from, to, 0, flag))
}

func (p *Position) pawnMoves(dst []games.Move, us int, occ, enemy, mask, pinned Bitboard, ksq int, noisy bool) []games.Move {
	forward, start, last := 8, rank2, rank8
	if us == black {
		forward, start, last = -8, rank7, rank1
	}
	for b := p.pieces[us][Pawn]; b != 0; b &= b - 1 {
		s := lsb(b)
		allowed := mask
		if pinned&(1<<s) != 0 {
			allowed &= line[ksq][s]
		}
		one := s + forward
		if occ&(1<<one) == 0 {
			promote := last&(1<<one) != 0
			if allowed&(1<<one) != 0 && (!noisy || promote) {
				dst = addPawnMove(dst, s, one, promote, flagNone)
			}
			if !noisy && start&(1<<s) != 0 {
				two := one + forward
				if occ&(1<<two) == 0 && allowed&(1<<two) != 0 {
					dst = append(dst, newMove(s, two, 0, flagDouble))
				}
			}
		}
		for c := pawnAttacks[us][s] & enemy & allowed; c != 0; c &= c - 1 {
			t := lsb(c)
			dst = addPawnMove(dst, s, t, last&(1<<t) != 0, flagNone)
		}
		if p.ep >= 0 && pawnAttacks[us][s]&(1<<p.ep) != 0 {
			dst = p.enPassant(dst, s, int(p.ep), us, occ, ksq)
		}
	}
	return dst
}

// enPassant adds the capture from s to ep if it leaves the king safe: the
// two pawns leave their squares at once, which can open a rank, and the
// taken pawn may be the checker.
func (p *Position) enPassant(dst []games.Move, s, ep, us int, occ Bitboard, ksq int) []games.Move {
	capSq := ep - 8
	if us == black {
		capSq = ep + 8
	}
	if !p.enPassantLegal(s, ep, capSq, us, occ, ksq) {
		return dst
	}
	return append(dst, newMove(s, ep, 0, flagEnPassant))
}

// enPassantLegal reports whether the capture from s to ep, taking the pawn
// on capSq, leaves the king on ksq safe.
func (p *Position) enPassantLegal(s, ep, capSq, us int, occ Bitboard, ksq int) bool {
	after := occ&^(1<<s)&^(1<<capSq) | 1<<ep
	them := p.pieces[us^1]
	return bishopAttacks(ksq, after)&(them[Bishop]|them[Queen]) == 0 &&
		rookAttacks(ksq, after)&(them[Rook]|them[Queen]) == 0 &&
		knightAttacks[ksq]&them[Knight] == 0 &&
		pawnAttacks[us][ksq]&them[Pawn]&^(1<<capSq) == 0
}

// pinned returns the pieces of own alone between the king on ksq and a
// slider of them: they may move only along that line.
func (p *Position) pinned(ksq int, them int, occ, own Bitboard) Bitboard {
	var pinned Bitboard
	snipers := rookAttacks(ksq, 0)&(p.pieces[them][Rook]|p.pieces[them][Queen]) |
		bishopAttacks(ksq, 0)&(p.pieces[them][Bishop]|p.pieces[them][Queen])
	for b := snipers; b != 0; b &= b - 1 {
		if blockers := between[ksq][lsb(b)] & occ; blockers != 0 && blockers&(blockers-1) == 0 && blockers&own != 0 {
			pinned |= blockers
		}
	}
	return pinned
}

// countMoves is len(generate(dst, false)) without writing the moves, for
// the last ply of perft: the same king moves, check and pin masks and
// castling, the other pieces' targets counted by popcount, and the pawns
// that are not pinned moved all at once by shifts (a promotion counts
// four).
func (p *Position) countMoves() int {
	us, them := p.turn, p.turn^1
	occ := p.occupied()
	own, enemy := p.colors[us], p.colors[them]
	ksq := p.kingSquare(us)
	checkers := p.attackersTo(ksq, occ) & enemy

	n := 0
	for b := kingAttacks[ksq] &^ own; b != 0; b &= b - 1 {
		if !p.attacked(lsb(b), them, occ&^(1<<ksq)) {
			n++
		}
	}
	if popcount(checkers) > 1 {
		return n
	}
	mask := ^Bitboard(0)
	if checkers != 0 {
		mask = checkers | between[ksq][lsb(checkers)]
	}
	pinned := p.pinned(ksq, them, occ, own)
	targets := ^own & mask
	for b := p.pieces[us][Knight] &^ pinned; b != 0; b &= b - 1 {
		n += popcount(knightAttacks[lsb(b)] & targets)
	}
	for b := p.pieces[us][Bishop] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		s := lsb(b)
		a := bishopAttacks(s, occ) & targets
		if pinned&(1<<s) != 0 {
			a &= line[ksq][s]
		}
		n += popcount(a)
	}
	for b := p.pieces[us][Rook] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		s := lsb(b)
		a := rookAttacks(s, occ) & targets
		if pinned&(1<<s) != 0 {
			a &= line[ksq][s]
		}
		n += popcount(a)
	}

	pawns := p.pieces[us][Pawn]
	free := pawns &^ pinned
	empty := ^occ
	var one, two, left, right, last Bitboard
	if us == white {
		one = free << 8 & empty
		two = (one & (rank2 << 8)) << 8 & empty
		left = (free &^ fileA) << 7 & enemy
		right = (free &^ fileH) << 9 & enemy
		last = rank8
	} else {
		one = free >> 8 & empty
		two = (one & (rank7 >> 8)) >> 8 & empty
		left = (free &^ fileA) >> 9 & enemy
		right = (free &^ fileH) >> 7 & enemy
		last = rank1
	}
	one, left, right = one&mask, left&mask, right&mask
	n += popcount(two&mask) +
		popcount(one&^last) + 4*popcount(one&last) +
		popcount(left&^last) + 4*popcount(left&last) +
		popcount(right&^last) + 4*popcount(right&last)
	forward, start := 8, rank2
	if us == black {
		forward, start = -8, rank7
	}
	for b := pawns & pinned; b != 0; b &= b - 1 {
		s := lsb(b)
		allowed := mask & line[ksq][s]
		promote := 1
		if last&(1<<(s+forward)) != 0 {
			promote = 4
		}
		if one := s + forward; occ&(1<<one) == 0 {
			if allowed&(1<<one) != 0 {
				n += promote
			}
			if two := one + forward; start&(1<<s) != 0 && occ&(1<<two) == 0 && allowed&(1<<two) != 0 {
				n++
			}
		}
		n += promote * popcount(pawnAttacks[us][s]&enemy&allowed)
	}
	if p.ep >= 0 {
		ep := int(p.ep)
		capSq := ep - forward
		for b := pawns & pawnAttacks[them][ep]; b != 0; b &= b - 1 {
			if p.enPassantLegal(lsb(b), ep, capSq, us, occ, ksq) {
				n++
			}
		}
	}

	if checkers == 0 {
		if us == white {
			if p.castling&castleWK != 0 && occ&0x60 == 0 && !p.attacked(5, them, occ) && !p.attacked(6, them, occ) {
				n++
			}
			if p.castling&castleWQ != 0 && occ&0x0e == 0 && !p.attacked(3, them, occ) && !p.attacked(2, them, occ) {
				n++
			}
		} else {
			if p.castling&castleBK != 0 && occ&(0x60<<56) == 0 && !p.attacked(61, them, occ) && !p.attacked(62, them, occ) {
				n++
			}
			if p.castling&castleBQ != 0 && occ&(0x0e<<56) == 0 && !p.attacked(59, them, occ) && !p.attacked(58, them, occ) {
				n++
			}
		}
	}
	return n
}
