package chess

import (
	"math/bits"
	"strconv"

	"github.com/gametune/gametune/games"
)

// The pst evaluator's king-safety tables, what the king-attack table
// (attack units on the king's zone) does not see: the pawns in front of a
// king and the checks the enemy can give without losing the checking piece.
//
// pawn-shelter reads, for each of the three files around a side's king (its
// file, moved to b..g when on a or h, and the two beside it), two entries
// chosen by the file's distance to the nearer edge (0 for a and h ... 3 for
// d and e) and a relative rank (1 to 6, counted from the side's first rank;
// 0 when there is no such pawn): the shelter entry, the side's own pawn on
// that file nearest its first rank among those level with or ahead of the
// king, and the storm entry, the enemy pawn on that file nearest the
// king's side among those level with or ahead of the king.
//
// safe-checks reads, for each of knight, bishop, rook and queen that the
// side has, one entry chosen by the kind and by how many squares (at most
// 15 counted) are safe checks: squares from which a piece of that kind
// checks the enemy king, attacked by one of the side's pieces of that
// kind, neither held by the side's pieces nor attacked by any enemy piece.

// shelterEntry is pawn-shelter's entry of a shelter pawn (storm false) or
// a storming one on a file edge files from the edge, at relative rank r.
func shelterEntry(storm bool, edge, r int) int {
	e := 8*edge + r
	if storm {
		e += 32
	}
	return e
}

// checkEntry is safe-checks' entry of n safe checks by kind k (Knight ...
// Queen).
func checkEntry(k, n int) int { return 16*(k-Knight) + min(n, 15) }

// shelterEntries returns side c's six pawn-shelter entries: the three
// files' shelter entries, then their storm entries.
func shelterEntries(p *Position, c int) (e [6]int) {
	ks := p.kingSquare(c) & 63
	kf, ahead := min(max(ks&7, 1), 6), aheadOf[c&1][ks>>3]
	own, enemy := p.pieces[c][Pawn]&ahead, p.pieces[c^1][Pawn]&ahead
	for i := range 3 {
		f := kf - 1 + i
		edge, file := min(f, 7-f), fileA<<f
		e[i] = shelterEntry(false, edge, nearestRank(own&file, c))
		e[3+i] = shelterEntry(true, edge, nearestRank(enemy&file, c))
	}
	return e
}

// nearestRank is the rank, counted from side c's first rank (0 to 7), of
// the square of b nearest that rank; 0 when b is empty.
func nearestRank(b Bitboard, c int) int {
	if b == 0 {
		return 0
	}
	if c == white {
		return lsb(b) >> 3
	}
	return 7 - (63-bits.LeadingZeros64(b))>>3
}

// checkEntries returns side c's safe-checks entries, one per kind of
// knight, bishop, rook and queen it has (n of them): c attacks with att,
// the enemy with def.
func checkEntries(p *Position, c int, att, def *attackSet) (e [4]int, n int) {
	ek, occ := p.kingSquare(c^1)&63, p.occupied()
	safe := ^(p.colors[c] | def[allKinds])
	diagonal, straight := bishopAttacks(ek, occ), rookAttacks(ek, occ)
	from := [4]Bitboard{knightAttacks[ek], diagonal, straight, diagonal | straight}
	for k := Knight; k <= Queen; k++ {
		if p.pieces[c][k] != 0 {
			e[n] = checkEntry(k, popcount(from[k-Knight]&att[k]&safe))
			n++
		}
	}
	return e, n
}

// addKing adds side c's pawn-shelter and safe-checks entries to s with
// sign: c attacks with att, the enemy with def. It reads the entries
// shelterEntries and checkEntries list, in one pass without the lists
// (sharing their steps through helpers measured slower, the helpers not
// inlined); appendKingTerms uses the lists, and TestPSTEvaluate holds the
// two to the same sums.
func (s *pstSums) addKing(p *Position, c int, att, def *attackSet, data *[pstSize]float32, sign float64) {
	c &= 1
	rows := (*[2 * pstTableSize]float32)(data[pstShelter*pstTableSize:]) // pawn-shelter, then safe-checks
	ks := p.kingSquare(c) & 63
	kf := min(max(ks&7, 1), 6)
	own, enemy := p.pieces[c][Pawn]&aheadOf[c][ks>>3], p.pieces[c^1][Pawn]&aheadOf[c][ks>>3]
	var mg, eg float32
	for f := kf - 1; f <= kf+1; f++ {
		file, edge := fileA<<f, 8*min(f, 7-f)
		a, b := (edge+nearestRank(own&file, c))&31, (32+edge+nearestRank(enemy&file, c))&63
		mg += rows[a] + rows[b]
		eg += rows[64+a] + rows[64+b]
	}
	s.mg[pstShelter] += sign * float64(mg)
	s.eg[pstShelter] += sign * float64(eg)
	ek, occ := p.kingSquare(c^1)&63, p.occupied()
	safe := ^(p.colors[c] | def[allKinds])
	diagonal, straight := bishopAttacks(ek, occ), rookAttacks(ek, occ)
	from := [4]Bitboard{knightAttacks[ek], diagonal, straight, diagonal | straight}
	mg, eg = 0, 0
	for k := Knight; k <= Queen; k++ {
		if p.pieces[c][k] != 0 {
			e := pstTableSize + checkEntry(k, popcount(from[k-Knight]&att[k]&safe))&63
			mg += rows[e]
			eg += rows[64+e]
		}
	}
	s.mg[pstChecks] += sign * float64(mg)
	s.eg[pstChecks] += sign * float64(eg)
}

// aheadOf[c][r] is the squares on rank r (0 to 7) and those ahead of it,
// seen from side c.
var aheadOf = func() (a [2][8]Bitboard) {
	for r := range 8 {
		a[white][r] = ^Bitboard(0) << (8 * r)
		a[black][r] = ^Bitboard(0) >> (8 * (7 - r))
	}
	return a
}()

// appendKingTerms appends side c's pawn-shelter and safe-checks entries,
// as pstSums.addKing reads them.
func appendKingTerms(dst []games.TableTerm, p *Position, c int, cm, ce float32) []games.TableTerm {
	for _, e := range shelterEntries(p, c) {
		dst = appendPST(dst, pstShelter, e, cm, ce)
	}
	att, def := attackSetOf(p, c), attackSetOf(p, c^1)
	e, n := checkEntries(p, c, &att, &def)
	for _, x := range e[:n] {
		dst = appendPST(dst, pstChecks, x, cm, ce)
	}
	return dst
}

// kingColumns names the entries of pawn-shelter (shelter false) or
// safe-checks: "shelter ah 2" the shelter entry of a pawn on rank 2 of the
// a or h file ("-" no pawn), "storm de 5" a storming pawn's; "Q3" three
// safe queen checks. Unused entries are "".
func kingColumns(checks bool) []string {
	cols := make([]string, 64)
	if checks {
		for k := Knight; k <= Queen; k++ {
			for n := range 16 {
				cols[checkEntry(k, n)] = string("PNBRQK"[k]) + strconv.Itoa(n)
			}
		}
		return cols
	}
	for _, storm := range []bool{false, true} {
		kind := "shelter "
		if storm {
			kind = "storm "
		}
		for edge, files := range [4]string{"ah", "bg", "cf", "de"} {
			cols[shelterEntry(storm, edge, 0)] = kind + files + " -"
			for r := 1; r < 7; r++ {
				cols[shelterEntry(storm, edge, r)] = kind + files + " " + strconv.Itoa(r+1)
			}
		}
	}
	return cols
}
