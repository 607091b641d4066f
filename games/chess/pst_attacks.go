package chess

import "github.com/gametune/gametune/games"

// The pst evaluator's count tables: each knight's, bishop's, rook's and
// queen's safe mobility, and the attack units of a side on the enemy
// king's zone (pst_eval.go's doc). One pass over a side's attacks reads
// them and counts textbook's mobility too.

// addAttacks adds side c's mobility entries and its king-attack entry to s
// with sign, and textbook's mobility features (textbookMobility) to f: one
// pass over the attacks serves both.
func (s *pstSums) addAttacks(p *Position, c int, data *[pstSize]float32, sign float64, f *[pstScalars]float64) {
	occ, own := p.occupied(), p.colors[c]
	area, zone := attackAreas(p, c)
	units := 0
	for k := Knight; k <= Queen; k++ {
		t := pstMobility + k - Knight
		row := (*[pstTableSize]float32)(data[t*pstTableSize:])
		var mg, eg float32
		moves := 0
		var all Bitboard
		for b := p.pieces[c][k]; b != 0; b &= b - 1 {
			sq := lsb(b) & 63
			var a Bitboard // attacks(k, sq, occ), without the call
			switch k {
			case Knight:
				a = knightAttacks[sq]
			case Bishop:
				a = bishopAttacks(sq, occ)
			case Rook:
				a = rookAttacks(sq, occ)
			default:
				a = bishopAttacks(sq, occ) | rookAttacks(sq, occ)
			}
			all |= a
			n := popcount(a&area) & 63
			mg += row[n]
			eg += row[64+n]
			units += attackUnits[k] * popcount(a&zone)
			moves += popcount(a &^ own)
		}
		s.mg[t] += sign * float64(mg)
		s.eg[t] += sign * float64(eg)
		f[7+k-Knight] += sign * float64(moves)
		s.att[c&1][k] = all
	}
	u := min(units, maxAttackUnits)
	row := (*[pstTableSize]float32)(data[pstKingAttack*pstTableSize:])
	s.mg[pstKingAttack] += sign * float64(row[u])
	s.eg[pstKingAttack] += sign * float64(row[64+u])
}

// attackAreas returns side c's mobility area (the squares neither held by
// its pieces nor attacked by an enemy pawn) and the enemy king's zone (its
// square and those next to it).
func attackAreas(p *Position, c int) (area, zone Bitboard) {
	ek := p.kingSquare(c ^ 1)
	return ^(p.colors[c] | pawnAttackSet(c^1, p.pieces[c^1][Pawn])), kingAttacks[ek] | 1<<ek
}

// pawnAttackSet is the squares side c's pawns attack.
func pawnAttackSet(c int, pawns Bitboard) Bitboard {
	if c == white {
		return (pawns&^fileA)<<7 | (pawns&^fileH)<<9
	}
	return (pawns&^fileA)>>9 | (pawns&^fileH)>>7
}

// appendAttackTerms appends side c's mobility entries, one pair per
// knight, bishop, rook and queen, and its king-attack pair, as
// pstSums.addAttacks reads them.
func appendAttackTerms(dst []games.TableTerm, p *Position, c int, cm, ce float32) []games.TableTerm {
	occ := p.occupied()
	area, zone := attackAreas(p, c)
	units := 0
	for k := Knight; k <= Queen; k++ {
		for b := p.pieces[c][k]; b != 0; b &= b - 1 {
			a := attacks(k, lsb(b), occ)
			dst = appendPST(dst, pstMobility+k-Knight, popcount(a&area), cm, ce)
			units += attackUnits[k] * popcount(a&zone)
		}
	}
	return appendPST(dst, pstKingAttack, min(units, maxAttackUnits), cm, ce)
}
