package othello

// flips returns the discs of o that a disc of p placed on the empty square
// sq turns. Each of the four lines through sq (its rank, its file, its
// diagonal and its antidiagonal) is gathered into a byte by a mask and a
// multiplication, and two lookups give the run it turns: lineEnds holds,
// on each side of sq, the first square beyond the run of o's discs that
// starts next to sq, kept where p has a disc (the outflanks); lineFlips
// the squares between sq and them. A second multiplication puts the byte
// back on the line (shifts do it for the rank). No branch.
func flips(p, o Bitboard, sq int) Bitboard {
	l := &squareLines[sq]
	f, r := sq&7, (sq>>3)&7
	return rankFlipsOf(p, o, sq) |
		lineFlipsOf(p, o, l.file, l.fileGather, l.fileScatter, r) |
		lineFlipsOf(p, o, l.diagonal, fileA, fileA, f) |
		lineFlipsOf(p, o, l.antidiagonal, fileA, fileA, f)
}

// rankFlipsOf is lineFlipsOf for the rank of sq, whose squares are already
// the bits of a byte: shifts gather it and put it back, no multiplication
// (perft from the start 10% faster with the flips written out in it).
func rankFlipsOf(p, o Bitboard, sq int) Bitboard {
	f, at := sq&7, uint(sq)&56
	out := Bitboard(lineEnds[f][o>>at>>1&127]) & (p >> at) & 255
	return Bitboard(lineFlips[f][out]) << at
}

// lines are the four lines through a square, as flips reads them: the
// squares of each, and the multipliers of the file. A rank or a diagonal
// holds a square a rank: multiplied by fileA its ranks add up, without
// carries, in the top one, which holds the square on file i in bit i; the
// product of a byte by fileA copies it to every rank, and the line's mask
// keeps the line's squares. The file's multipliers are those of fileByte
// and fileBits, shifted to its file.
type lines struct {
	rank, file, diagonal, antidiagonal Bitboard
	fileGather, fileScatter            Bitboard
}

// lineFlipsOf returns the discs of o on the line of squares mask that a
// disc of p on the line's square x (its place in the byte) turns, the line
// gathered into a byte by (b&mask)*gather>>56 and put back by
// x*scatter&mask. The top seven bits of the gathered o (the line's squares
// 1-7) index lineEnds.
func lineFlipsOf(p, o, mask, gather, scatter Bitboard, x int) Bitboard {
	out := Bitboard(lineEnds[x][(o&mask)*gather>>57]) & ((p & mask) * gather >> 56)
	return Bitboard(lineFlips[x][out&255]) * scatter & mask
}

var (
	// lineEnds[x][i]: on a line of eight squares whose squares 1-7 hold
	// o's discs as the bits of i, the first square on each side of square
	// x that the run of o's discs next to x does not cover, as a byte:
	// where p has a disc there, it outflanks the run. A run that reaches
	// the end of the line has none.
	lineEnds [8][128]uint8
	// lineFlips[x][out]: the squares strictly between x and each square of
	// out.
	lineFlips [8][256]uint8
	// squareLines[sq]: the rank, the file, the diagonal (a1-h8 direction)
	// and the antidiagonal (h1-a8) through sq. The place of sq in the byte
	// of its rank and diagonals is its file, in that of its file its rank.
	squareLines [64]lines
)

func init() {
	for x := range 8 {
		for i := range 128 {
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
		var diagonal, antidiagonal Bitboard
		for s := range 64 {
			if s%8-s/8 == f-r {
				diagonal |= 1 << s
			}
			if s%8+s/8 == f+r {
				antidiagonal |= 1 << s
			}
		}
		squareLines[sq] = lines{
			rank: rank1 << (8 * r), file: fileA << f, diagonal: diagonal, antidiagonal: antidiagonal,
			fileGather: fileGather >> f, fileScatter: fileScatter << f,
		}
	}
}

// fileGather moves square 8k of the a-file to bit 56+k; shifted right by f
// it does the same from file f, as its bit 7j-f meets square 8k+f at bit
// 8k+7j. No two of its partial products meet, so nothing carries.
const fileGather = 0x0102040810204080

// fileScatter spreads a byte over the a-file, bit k to square 8k: it
// shifts bit k by 7j for every j, and only j = k lands on the a-file;
// without bits 0 and 7 (the squares a run turns are never at the ends of
// a line) no two shifted bits meet, so nothing carries.
const fileScatter = 0x0002040810204081
