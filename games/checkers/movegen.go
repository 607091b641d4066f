package checkers

import (
	"math/bits"

	"github.com/gametune/gametune/games"
)

// Move generation on whole bitboards: a step in one direction is two
// masked rotations, one for the squares of the even rows (columns 1, 3, 5,
// 7) and one for the odd rows (columns 0, 2, 4, 6), since a diagonal step
// moves a square's index by 3, 4 or 5 depending on the row's parity. The
// masks drop the squares with no neighbour in that direction, so nothing
// wraps round. The squares that can move (or jump) in a direction are
// found at once by stepping the empty squares (and the opponent's pieces)
// the opposite way; only the pieces found so are visited one by one.

const (
	evenRows Bitboard = 0x0f0f0f0f // rows 0, 2, 4, 6: columns 1, 3, 5, 7
	oddRows  Bitboard = 0xf0f0f0f0 // rows 1, 3, 5, 7: columns 0, 2, 4, 6
	column0  Bitboard = 0x10101010 // the left edge, on the odd rows
	column7  Bitboard = 0x08080808 // the right edge, on the even rows
	row0     Bitboard = 0x0000000f
	row1     Bitboard = 0x000000f0
	row6     Bitboard = 0x0f000000
	row7     Bitboard = 0xf0000000
)

// stepMask[d] and stepRotate[d] give the step in direction d: the even-row
// squares (index 0) and the odd-row squares (index 1) that have a
// neighbour in d, and the rotation (a signed shift) taking each to it.
var (
	stepMask = [4][2]Bitboard{
		downLeft:  {evenRows, oddRows &^ column0 &^ row7},
		downRight: {evenRows &^ column7, oddRows &^ row7},
		upLeft:    {evenRows &^ row0, oddRows &^ column0},
		upRight:   {evenRows &^ column7 &^ row0, oddRows},
	}
	stepRotate = [4][2]int{
		downLeft:  {4, 3},
		downRight: {5, 4},
		upLeft:    {-4, -5},
		upRight:   {-3, -4},
	}
)

// shift moves every square of b one step in direction d, dropping those
// that would leave the board.
func shift(b Bitboard, d int) Bitboard {
	m, r := &stepMask[d&3], &stepRotate[d&3]
	return bits.RotateLeft32(b&m[0], r[0]) | bits.RotateLeft32(b&m[1], r[1])
}

// The four steps of shift with their masks and shifts written out, for
// code whose direction is fixed (shift loads them from tables).
func stepDownLeft(b Bitboard) Bitboard  { return (b&evenRows)<<4 | (b&(oddRows&^column0&^row7))<<3 }
func stepDownRight(b Bitboard) Bitboard { return (b&(evenRows&^column7))<<5 | (b&(oddRows&^row7))<<4 }
func stepUpLeft(b Bitboard) Bitboard    { return (b&(evenRows&^row0))>>4 | (b&(oddRows&^column0))>>5 }
func stepUpRight(b Bitboard) Bitboard   { return (b&(evenRows&^column7&^row0))>>3 | (b&oddRows)>>4 }

// jumpersDown returns the squares from which a jump down-left (left) or
// down-right (right) takes a piece of them and lands on an empty square;
// jumpersUp the same upwards.
func jumpersDown(empty, them Bitboard) (left, right Bitboard) {
	return stepUpRight(stepUpRight(empty) & them), stepUpLeft(stepUpLeft(empty) & them)
}

func jumpersUp(empty, them Bitboard) (left, right Bitboard) {
	return stepDownRight(stepDownRight(empty) & them), stepDownLeft(stepDownLeft(empty) & them)
}

// opposite is the direction opposite d: down-left and up-right, down-right
// and up-left.
func opposite(d int) int { return 3 - d }

// movers returns the squares of b from which a step in direction d reaches
// a square of empty.
func movers(b, empty Bitboard, d int) Bitboard {
	return b & shift(empty, opposite(d))
}

// firstForward is the first of the two directions a man of side moves in
// (the second is the next one): down for Black, up for White.
func firstForward(side games.Side) int { return 2 * int(side) }

// simpleMoves appends the simple moves: the men in square order, each
// forward direction in order, then the kings the same way.
func (p *Position) simpleMoves(dst []games.Move) []games.Move {
	me := p.turn
	empty := ^p.occupied()
	lo := firstForward(me)
	// m0 and m1 hold the men that step into an empty square in their first
	// and second forward direction (movers, with fixed directions).
	men := p.men[me]
	var m0, m1 Bitboard
	if me == games.First {
		m0, m1 = men&stepUpRight(empty), men&stepUpLeft(empty)
	} else {
		m0, m1 = men&stepDownRight(empty), men&stepDownLeft(empty)
	}
	for b := m0 | m1; b != 0; b &= b - 1 {
		s := lowest(b)
		if m0&(1<<s) != 0 {
			dst = append(dst, simpleMove(s, lo))
		}
		if m1&(1<<s) != 0 {
			dst = append(dst, simpleMove(s, lo+1))
		}
	}
	kings := p.kings[me]
	if kings == 0 {
		return dst
	}
	k := [4]Bitboard{
		downLeft:  kings & stepUpRight(empty),
		downRight: kings & stepUpLeft(empty),
		upLeft:    kings & stepDownRight(empty),
		upRight:   kings & stepDownLeft(empty),
	}
	for b := k[0] | k[1] | k[2] | k[3]; b != 0; b &= b - 1 {
		s := lowest(b)
		for d := range k {
			if k[d]&(1<<s) != 0 {
				dst = append(dst, simpleMove(s, d))
			}
		}
	}
	return dst
}

// countSimpleMoves is len(simpleMoves).
func (p *Position) countSimpleMoves() int {
	me := p.turn
	empty := ^p.occupied()
	lo := firstForward(me)
	n := popcount(movers(p.men[me], empty, lo)) + popcount(movers(p.men[me], empty, lo+1))
	if kings := p.kings[me]; kings != 0 {
		for d := 0; d < 4; d++ {
			n += popcount(movers(kings, empty, d))
		}
	}
	return n
}

// captures appends every complete capture sequence: the men's in square
// order, then the kings', each piece's sequences in depth-first order of
// the directions.
//
// The squares a jump in direction d starts from are the empty squares
// stepped twice the opposite way, the opponent's pieces kept after the
// first step (jumpersDown, jumpersUp). A man only jumps forward, so the
// pieces it has taken and the square it left are behind it, and whether
// it can jump on from a square is known from the board before the move: a
// man whose first jump lands where no further jump starts (most of them)
// gets its one-jump move without a walk.
func (p *Position) captures(dst []games.Move) []games.Move {
	me := p.turn
	them := p.pieces(me.Other())
	empty := ^p.occupied()
	d0 := firstForward(me)
	d1 := d0 + 1
	// from0 and from1 hold the squares from which a jump in d0 and d1 (a
	// man's) takes a piece and lands on an empty square, back0 and back1
	// those of the other two directions (a king's).
	var from0, from1 Bitboard
	if me == games.First {
		from0, from1 = jumpersDown(empty, them)
	} else {
		from0, from1 = jumpersUp(empty, them)
	}
	men := p.men[me] & (from0 | from1)
	var kings Bitboard
	if k := p.kings[me]; k != 0 {
		var back0, back1 Bitboard
		if me == games.First {
			back0, back1 = jumpersUp(empty, them)
		} else {
			back0, back1 = jumpersDown(empty, them)
		}
		kings = k & (from0 | from1 | back0 | back1)
	}
	if men|kings == 0 {
		return dst
	}
	crown := lastRow[me]
	goOn := (from0 | from1) &^ crown
	for b := men; b != 0; b &= b - 1 {
		at := b & -b
		m := games.Move(lowest(b) + 1)
		if at&from0 != 0 {
			dst = manJump(dst, m, at, d0, d0, crown, goOn, them, empty)
		}
		if at&from1 != 0 {
			dst = manJump(dst, m, at, d1, d0, crown, goOn, them, empty)
		}
	}
	for b := kings; b != 0; b &= b - 1 {
		s := lowest(b)
		dst = jumps(dst, games.Move(s+1), 1<<s, 0, 3, 0, them, empty|1<<s, 0)
	}
	return dst
}

// manJump appends the capture sequences of the man on at (move m so far)
// that start with a jump in direction d, which it can make; d0 is the
// first of its forward directions and goOn the squares off the crowning
// row from which it could jump again. The rest of the walk is jumps'.
func manJump(dst []games.Move, m games.Move, at Bitboard, d, d0 int, crown, goOn, them, empty Bitboard) []games.Move {
	over := shift(at, d)
	to := shift(over, d)
	m |= games.Move(d) << 11
	if to&goOn == 0 {
		return append(dst, m|1<<6)
	}
	return jumps(dst, m, to, d0, d0+1, crown, them&^over, empty|at, 1)
}

// jumps extends a capture sequence, m so far after n jumps, of the piece
// now on the square at, jumping in directions lo to hi (a man's forward
// two or a king's four); crown is the last row for a man, 0 for a king.
// them holds the opponent's pieces not yet taken;
// the taken ones stay on the board until the move ends, so they block
// landing (empty does not change) and cannot be jumped again. A man
// reaching the last row is crowned and the move ends there.
func jumps(dst []games.Move, m games.Move, at Bitboard, lo, hi int, crown, them, empty Bitboard, n int) []games.Move {
	extended := false
	for d := lo; d <= hi; d++ {
		over := shift(at, d) & them
		to := shift(over, d) & empty
		if to == 0 {
			continue
		}
		extended = true
		next := m | games.Move(d)<<(11+2*n)
		if to&crown != 0 {
			dst = append(dst, next|games.Move(n+1)<<6)
			continue
		}
		dst = jumps(dst, next, to, lo, hi, crown, them&^over, empty, n+1)
	}
	if !extended && n > 0 {
		dst = append(dst, m|games.Move(n)<<6)
	}
	return dst
}

// countCaptures is len(captures). The men's sequences are counted on
// whole bitboards: a man only jumps forward, so the pieces it has taken
// and the square it left are behind it and a continuation depends only on
// the square it has reached; the men whose first jump lands where no
// further jump starts (most of them) count one each without a walk.
func (p *Position) countCaptures() int {
	me := p.turn
	them := p.pieces(me.Other())
	empty := ^p.occupied()
	n := 0
	if men := p.men[me]; men != 0 {
		d0 := firstForward(me)
		d1 := d0 + 1
		// from0 (from1) holds every square from which a jump in d0 (d1)
		// takes a piece and lands on an empty square.
		b0, b1 := opposite(d0), opposite(d1)
		from0 := shift(shift(empty, b0)&them, b0)
		from1 := shift(shift(empty, b1)&them, b1)
		if j0, j1 := men&from0, men&from1; j0|j1 != 0 {
			crown := lastRow[me]
			goOn := (from0 | from1) &^ crown
			land0 := shift(shift(j0, d0), d0)
			land1 := shift(shift(j1, d1), d1)
			n = popcount(land0&^goOn) + popcount(land1&^goOn)
			for b := (land0 | land1) & goOn; b != 0; b &= b - 1 {
				at := b & -b
				c := countManJumps(at, d0, from0, from1, goOn)
				if land0&land1&at != 0 {
					c *= 2 // two men land here
				}
				n += c
			}
		}
	}
	if kings := p.kings[me]; kings != 0 {
		from := shift(shift(empty, 3)&them, 3) | shift(shift(empty, 2)&them, 2) |
			shift(shift(empty, 1)&them, 1) | shift(shift(empty, 0)&them, 0)
		for b := kings & from; b != 0; b &= b - 1 {
			at := b & -b
			n += countJumps(at, 0, 3, 0, them, empty|at)
		}
	}
	return n
}

// countManJumps counts the sequences of a man that has jumped to at, from
// which a further jump starts: from0 and from1 are the squares a jump in
// direction d0 and the next one starts from, goOn those of them off the
// crowning row.
func countManJumps(at Bitboard, d0 int, from0, from1, goOn Bitboard) int {
	n := 0
	if at&from0 != 0 {
		to := shift(shift(at, d0), d0)
		if to&goOn != 0 {
			n += countManJumps(to, d0, from0, from1, goOn)
		} else {
			n++
		}
	}
	if at&from1 != 0 {
		to := shift(shift(at, d0+1), d0+1)
		if to&goOn != 0 {
			n += countManJumps(to, d0, from0, from1, goOn)
		} else {
			n++
		}
	}
	return n
}

// countJumps counts the complete sequences jumps would append from the
// piece on at, which has jumped at least once when it is called for a
// continuation (see countJumpsOn); crown is the last row for a man and 0
// for a king.
func countJumps(at Bitboard, lo, hi int, crown, them, empty Bitboard) int {
	n := 0
	for d := lo; d <= hi; d++ {
		over := shift(at, d) & them
		to := shift(over, d) & empty
		switch {
		case to == 0:
		case to&crown != 0:
			n++
		default:
			n += countJumpsOn(to, lo, hi, crown, them&^over, empty)
		}
	}
	return n
}

// countJumpsOn counts the sequences of a piece that has jumped to at: one
// when it cannot go on.
func countJumpsOn(at Bitboard, lo, hi int, crown, them, empty Bitboard) int {
	if n := countJumps(at, lo, hi, crown, them, empty); n > 0 {
		return n
	}
	return 1
}
