package checkers

import "math/bits"

// Squares are numbered 0-31 inside (1-32 in notation): square 1 is in the
// top row of the usual diagram, Black's side; Black moves down the board
// (towards 32), White up. Row r holds squares 4r+1 to 4r+4, on columns
// 1, 3, 5, 7 when r is even and 0, 2, 4, 6 when r is odd.
type Bitboard = uint32

// Directions: 0 down-left, 1 down-right (Black's forward moves), 2 up-left,
// 3 up-right (White's forward moves). A king uses all four.
const (
	downLeft = iota
	downRight
	upLeft
	upRight
)

var (
	// step[d][s] is the square next to s in direction d, or -1.
	step [4][32]int8
	// jump[d][s] is the square two steps from s in direction d, or -1.
	jump [4][32]int8
	// lastRow[side] is the row where that side's men are crowned.
	lastRow = [2]Bitboard{0xf0000000, 0x0000000f}
	// beforeCrown[side] is the row before the side's crowning row: a man's
	// simple move from there crowns, from anywhere else it does not.
	beforeCrown = [2]Bitboard{row6, row1}
)

func rowCol(s int) (int, int) {
	r := s / 4
	c := 2 * (s % 4)
	if r%2 == 0 {
		c++
	}
	return r, c
}

func square(r, c int) int {
	if r < 0 || r > 7 || c < 0 || c > 7 || (r+c)%2 == 0 {
		return -1
	}
	return r*4 + c/2
}

func init() {
	dr := [4]int{1, 1, -1, -1}
	dc := [4]int{-1, 1, -1, 1}
	for s := 0; s < 32; s++ {
		r, c := rowCol(s)
		for d := 0; d < 4; d++ {
			step[d][s] = int8(square(r+dr[d], c+dc[d]))
			jump[d][s] = int8(square(r+2*dr[d], c+2*dc[d]))
		}
	}
}

func popcount(b Bitboard) int { return bits.OnesCount32(b) }

func lowest(b Bitboard) int { return bits.TrailingZeros32(b) }
