package othello

// flips returns the discs of o that a disc of p placed on the empty square
// sq turns. Each of the four lines through sq (its rank, its file, its
// diagonal and its antidiagonal) is gathered into a byte, bit i its i-th
// square from the a-file (from rank 1 for the file), and two lookups give
// the run it turns: lineEnds holds, on each side of sq, the first square
// beyond the run of o's discs that starts next to sq, kept where p has a
// disc (the outflanks); lineFlips the squares between sq and them. The
// byte returns to the board by the inverse of its gathering.
func flips(p, o Bitboard, sq int) Bitboard {
	// Masked, the shift counts are known to stay below 64, and the
	// compiler drops its code for longer shifts.
	f, r := sq&7, (sq>>3)&7
	row := uint(sq & 56)

	out := lineEnds[f][uint8(o>>(row|1))&63] & uint8(p>>row)
	flipped := Bitboard(lineFlips[f][out]) << row

	out = lineEnds[r][fileByte(o>>f)>>1&63] & fileByte(p>>f)
	flipped |= fileBits(lineFlips[r][out]) << f

	d := diagonals[sq]
	out = lineEnds[f][diagonalByte(o, d)>>1&63] & diagonalByte(p, d)
	flipped |= Bitboard(lineFlips[f][out]) * fileA & d

	d = antidiagonals[sq]
	out = lineEnds[f][diagonalByte(o, d)>>1&63] & diagonalByte(p, d)
	flipped |= Bitboard(lineFlips[f][out]) * fileA & d
	return flipped
}

var (
	// lineEnds[x][i]: on a line of eight squares whose inner six (1-6)
	// hold o's discs as the bits of i, the first square on each side of
	// square x that the run of o's discs next to x does not cover, as a
	// byte: where p has a disc there, it outflanks the run.
	lineEnds [8][64]uint8
	// lineFlips[x][out]: the squares strictly between x and each square of
	// out.
	lineFlips [8][256]uint8
	// diagonals[sq] and antidiagonals[sq] are the squares of the diagonal
	// (a1-h8 direction) and of the antidiagonal (h1-a8) through sq, sq
	// included.
	diagonals, antidiagonals [64]Bitboard
)

func init() {
	for x := range 8 {
		for i := range 64 {
			o := i << 1
			var ends uint8
			j := x + 1
			for j < 8 && o&(1<<j) != 0 {
				j++
			}
			if j < 8 {
				ends |= 1 << j
			}
			j = x - 1
			for j >= 0 && o&(1<<j) != 0 {
				j--
			}
			if j >= 0 {
				ends |= 1 << j
			}
			lineEnds[x][i] = ends
		}
		for out := range 256 {
			var between uint8
			for j := range 8 {
				if out&(1<<j) == 0 {
					continue
				}
				for k := min(j, x) + 1; k < max(j, x); k++ {
					between |= 1 << k
				}
			}
			lineFlips[x][out] = between
		}
	}
	for sq := range 64 {
		f, r := sq%8, sq/8
		for s := range 64 {
			g, q := s%8, s/8
			if g-q == f-r {
				diagonals[sq] |= 1 << s
			}
			if g+q == f+r {
				antidiagonals[sq] |= 1 << s
			}
		}
	}
}

// diagonalByte gathers the squares of b on the diagonal or antidiagonal d
// into a byte, bit i the square on file i: d holds a square a rank and a
// file, and the multiplication adds the eight ranks into the top one
// without carries.
func diagonalByte(b, d Bitboard) uint8 {
	return uint8((b & d) * fileA >> 56)
}

// fileBits spreads a byte over the a-file, bit k to rank k+1, the inverse
// of fileByte for bytes without their end bits 0 and 7 (the squares a run
// turns are never at the ends of a line): the multiplier shifts bit k by
// 7j for every j, and only j = k lands on the a-file; without bits 0 and 7
// no two shifted bits meet, so nothing carries.
func fileBits(x uint8) Bitboard {
	return Bitboard(x) * 0x0002040810204081 & fileA
}
