package othello

// Last-flip counting: with one empty square left the board is full
// elsewhere, so the opponent's discs are the complement of the mover's and
// only the number of discs a move there turns matters, not which. Each of
// the four lines through the square is gathered into a byte of the mover's
// discs, as flips gathers them, and a table gives the count on that line.

// lastFlips[x][b] counts the discs a disc placed on square x of a full
// line of eight turns when the mover holds the squares of b (bit x
// ignored) and the opponent the others. A short diagonal reads as zeros
// beyond its ends, as the opponent's discs: a run reaching there meets no
// disc of the mover and turns nothing, as a run reaching the edge.
var lastFlips [8][256]uint8

func init() {
	for x := range 8 {
		for b := range 256 {
			n := 0
			for _, d := range [2]int{-1, 1} {
				run := 0
				j := x + d
				for j >= 0 && j < 8 && b&(1<<j) == 0 {
					run++
					j += d
				}
				if j >= 0 && j < 8 {
					n += run
				}
			}
			lastFlips[x][b] = uint8(n)
		}
	}
}

// lastFlipCount returns the number of discs a disc of p placed on the empty
// square sq turns when every other square is occupied (the opponent holds
// the squares p does not): 0 when the move is illegal.
func lastFlipCount(p Bitboard, sq int) int {
	l := &squareLines[sq]
	f, r := sq&7, sq>>3&7
	rank := uint8(p >> (8 * r))
	file := uint8((p & l.file) * l.fileGather >> 56)
	diagonal := uint8((p & l.diagonal) * fileA >> 56)
	antidiagonal := uint8((p & l.antidiagonal) * fileA >> 56)
	return int(lastFlips[f][rank]) + int(lastFlips[r][file]) +
		int(lastFlips[f][diagonal]) + int(lastFlips[f][antidiagonal])
}
