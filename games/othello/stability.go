package othello

import "sync"

// Stable discs are discs no sequence of moves can turn: the endgame solver
// counts the opponent's to bound the score from above (a side can end with
// at most the squares the opponent's stable discs leave it). The count is
// a lower bound of the stable discs, found as strong programs find it:
//
//   - on the edges, exactly, from a table of every edge (edgeStable);
//   - inside, a disc whose four lines (rank, file, both diagonals) are full
//     of discs, since a move needs an empty square on a line to turn it;
//   - then, repeatedly, an inner disc that has, on each of its four lines,
//     a stable disc of its colour beside it or a full line.

// edgeStable[p<<8|o] holds the discs of p (a byte: one edge, squares in
// order) that no sequence of moves on the edge can turn, o the opponent's
// discs. A move may fill any empty square of the edge, turning discs or
// not (a disc lands there through other lines), and either side may move:
// p's stable discs are those of p that stay stable after every such move
// (a fill of 3^8 edges, each from the edges with one empty square fewer).
var edgeStable = sync.OnceValue(func() *[1 << 16]uint8 {
	t := new([1 << 16]uint8)
	var done [1 << 16]bool
	var stable func(p, o uint8) uint8
	stable = func(p, o uint8) uint8 {
		i := int(p)<<8 | int(o)
		if done[i] {
			return t[i]
		}
		s := p
		for x := range 8 {
			if (p|o)&(1<<x) != 0 {
				continue
			}
			np, no := edgePlay(p, o, x)
			s &= stable(np, no)
			no, np = edgePlay(o, p, x)
			s &= stable(np, no)
		}
		t[i], done[i] = s, true
		return s
	}
	for p := range 256 {
		for o := range 256 {
			if p&o == 0 {
				stable(uint8(p), uint8(o))
			}
		}
	}
	return t
})

// edgePlay places a disc of p on square x of an edge and turns the runs of
// o it outflanks along the edge.
func edgePlay(p, o uint8, x int) (uint8, uint8) {
	p |= 1 << x
	for _, d := range [2]int{-1, 1} {
		var run uint8
		j := x + d
		for j >= 0 && j < 8 && o&(1<<j) != 0 {
			run |= 1 << j
			j += d
		}
		if j >= 0 && j < 8 && p&(1<<j) != 0 {
			p, o = p|run, o&^run
		}
	}
	return p, o
}

// fullLines returns the squares whose rank, file, diagonal and
// antidiagonal are, each, full of discs (as four boards).
func fullLines(disc Bitboard) (rank, file, diagonal, antidiagonal Bitboard) {
	h := disc & (disc >> 1) & 0x7f7f7f7f7f7f7f7f
	h &= h >> 2
	h &= h >> 4
	rank = (h & fileA) * 0xff
	v := disc & (disc >> 8)
	v &= v >> 16
	v &= v >> 32
	file = (v & 0xff) * fileA
	// Diagonals: a square's run towards each end is full when it is
	// occupied and so is the next square's, up to the edge (e marks the
	// squares with no next square in that direction).
	const up9, down9 Bitboard = 0xff80808080808080, 0x01010101010101ff
	const up7, down7 Bitboard = 0xff01010101010101, 0x80808080808080ff
	u9, d9, u7, d7 := disc, disc, disc, disc
	for range 6 { // six steps reach the edge from any inner square
		u9 = disc & (u9>>9 | up9)
		d9 = disc & (d9<<9 | down9)
		u7 = disc & (u7>>7 | up7)
		d7 = disc & (d7<<7 | down7)
	}
	return rank, file, u9 & d9, u7 & d7
}

// stableDiscs returns a lower bound of p's stable discs against o.
func stableDiscs(p, o Bitboard) Bitboard {
	t := edgeStable()
	stable := Bitboard(t[int(uint8(p))<<8|int(uint8(o))]) |
		Bitboard(t[int(uint8(p>>56))<<8|int(uint8(o>>56))])<<56 |
		fileBits(t[int(fileByte(p))<<8|int(fileByte(o))]) |
		fileBits(t[int(fileByte(p>>7))<<8|int(fileByte(o>>7))])<<7
	rank, file, diagonal, antidiagonal := fullLines(p | o)
	central := p & inner & 0x00ffffffffffff00
	stable |= rank & file & diagonal & antidiagonal & central
	for {
		more := stable |
			central&(stable>>1|stable<<1|rank)&(stable>>8|stable<<8|file)&
				(stable>>9|stable<<9|diagonal)&(stable>>7|stable<<7|antidiagonal)
		if more == stable {
			return stable
		}
		stable = more
	}
}

// fileBits spreads a byte over the a-file, bit k to square 8k: the inner
// bits by fileScatter's multiplication, the ends by shifts.
func fileBits(b uint8) Bitboard {
	return Bitboard(b&0x7e)*fileScatter&fileA | Bitboard(b&1) | Bitboard(b>>7)<<56
}
