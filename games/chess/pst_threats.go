package chess

import "github.com/gametune/gametune/games"

// The pst evaluator's threat tables: each piece but the king that the
// other side attacks reads an entry chosen by the kind of its least
// valuable attacker, its own kind and whether a piece of its side defends
// it. Two tables, because a threat weighs differently by whose move it is:
// threats-by-mover holds the side to move's threats on the opponent's
// pieces (added), threats-on-mover the opponent's on the side to move's
// (subtracted). Quiescence stops where no capture pays for the side to
// move, so the threats it leaves are the opponent's, and those the side to
// move cannot cash at once.

// Entry threatEntry(a, v, hanging) of a threat table: attacker kind a
// (Pawn ... King), victim kind v (Pawn ... Queen), hanging when no piece of
// the victim's side attacks its square. Entries 0 to 59 are used.
func threatEntry(a, v int, hanging bool) int {
	e := a*10 + v*2
	if hanging {
		e++
	}
	return e
}

// threatEntries is how many entries a threat table uses.
const threatEntries = 60

// threatColumns names a threat table's entries: "PxN" a pawn attacking a
// defended knight, "PxN!" an undefended one.
func threatColumns() []string {
	cols := make([]string, threatEntries)
	for a := Pawn; a <= King; a++ {
		for v := Pawn; v <= Queen; v++ {
			name := string("PNBRQK"[a]) + "x" + string("PNBRQK"[v])
			cols[threatEntry(a, v, false)], cols[threatEntry(a, v, true)] = name, name+"!"
		}
	}
	return cols
}

// attackSet is a side's attacked squares by the kind of the attacking
// piece (Pawn ... King), and at [allKinds] all of them.
type attackSet [7]Bitboard

const allKinds = 6

// attackSetOf returns side c's attackSet; pstSums.add fills the same one
// piece by piece on its pass.
func attackSetOf(p *Position, c int) attackSet {
	var s attackSet
	occ := p.occupied()
	s[Pawn] = pawnAttackSet(c, p.pieces[c][Pawn])
	for k := Knight; k <= Queen; k++ {
		for b := p.pieces[c][k]; b != 0; b &= b - 1 {
			s[k] |= attacks(k, lsb(b), occ)
		}
	}
	s[King] = kingAttacks[p.kingSquare(c)]
	for k := Pawn; k <= King; k++ {
		s[allKinds] |= s[k]
	}
	return s
}

// addThreats adds to table t, with sign, the entries of side a's threats:
// side a attacking with att, the other side defending with def.
func (s *pstSums) addThreats(p *Position, a int, att, def *attackSet, t int, data *[pstSize]float32, sign float64) {
	row := (*[pstTableSize]float32)(data[t*pstTableSize:])
	d := a ^ 1
	victims := p.colors[d] &^ p.pieces[d][King]
	var mg, eg float32
	for k := Pawn; k <= King && victims != 0; k++ {
		hit := victims & att[k]
		victims &^= hit
		for v := Pawn; hit != 0 && v <= Queen; v++ {
			x := hit & p.pieces[d][v]
			hit &^= x
			if x == 0 {
				continue
			}
			e := threatEntry(k, v, false) // its hanging entry is e+1
			if n := float32(popcount(x & def[allKinds])); n != 0 {
				mg += n * row[e]
				eg += n * row[64+e]
			}
			if n := float32(popcount(x &^ def[allKinds])); n != 0 {
				mg += n * row[e+1]
				eg += n * row[64+e+1]
			}
		}
	}
	s.mg[t] += sign * float64(mg)
	s.eg[t] += sign * float64(eg)
}

// appendThreatTerms appends side a's threat entries in table t, one pair
// per attacked piece, as pstSums.addThreats reads them.
func appendThreatTerms(dst []games.TableTerm, p *Position, a, t int, cm, ce float32) []games.TableTerm {
	att, def := attackSetOf(p, a), attackSetOf(p, a^1)
	d := a ^ 1
	for b := p.colors[d] &^ p.pieces[d][King]; b != 0; b &= b - 1 {
		sq := lsb(b)
		k := Pawn
		for att[k]&(1<<sq) == 0 && k < King {
			k++
		}
		if att[k]&(1<<sq) == 0 {
			continue
		}
		dst = appendPST(dst, t, threatEntry(k, int(p.kind[sq]), def[allKinds]&(1<<sq) == 0), cm, ce)
	}
	return dst
}
