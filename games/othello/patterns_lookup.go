package othello

// The evaluation reads the edges, corners and inner lines by half boards:
// ranks 1-4 of the board, ranks 8-5 (the board mirrored), and the same of
// the transposed board (files a-d, files h-e). A half board holds, in its
// own frame (rank k, file i), the 8 instances of halfLanes, and a reading
// is linear in the discs: the sum over its squares of 3 to the square's
// place in the reading, twice that for an opponent's disc. So the readings
// of all 8 are packed in two words of four 16-bit lanes (no reading
// reaches 3^10), and each rank's byte of discs adds its share to both
// words from a table: seven table words a side for 8 readings, where
// gathering each instance's squares costs some ten operations. The four
// half boards use the same tables: the frames differ by board symmetries,
// which map each lane's squares onto an instance of its class, read in an
// order whose value the expanded tables hold (any symmetric reading gives
// the same value). In the transposed frames the corner3x3 lanes read the
// corners again and are left out.

// halfLanes are the lanes of the two words, their squares in reading
// order, in the frame of ranks 1-4.
var halfLanes = [2][4]string{
	{"a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", "a1 b1 c1 a2 b2 c2 a3 b3 c3", "h1 g1 f1 h2 g2 f2 h3 g3 f3", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"},
	{"h1 g1 f1 e1 d1 h2 g2 f2 e2 d2", "a2 b2 c2 d2 e2 f2 g2 h2", "a3 b3 c3 d3 e3 f3 g3 h3", "a4 b4 c4 d4 e4 f4 g4 h4"},
}

// halfBoardTables give the side to move's share of each lane for the
// discs x of a rank of the frame (the opponent's is twice it): w0 ranks
// 1-3 (rank 4 holds none of word 0's squares), w1 ranks 1-4.
type halfBoardTables struct {
	w0 [3][256]uint64
	w1 [4][256]uint64
}

var halfTables = buildHalfTables()

func buildHalfTables() *halfBoardTables {
	t := new(halfBoardTables)
	for w, lanes := range halfLanes {
		for lane, squares := range lanes {
			for place, sq := range parseSquares(squares) {
				k, bit := sq/8, uint(sq%8)
				share := uint64(pow3(place)) << (16 * lane)
				for x := range 256 {
					if x>>bit&1 == 0 {
						continue
					}
					if w == 0 {
						t.w0[k][x] += share
					} else {
						t.w1[k][x] += share
					}
				}
			}
		}
	}
	return t
}

// halfWords returns the two words of readings of a half board whose
// ranks 1-4 hold the side to move's discs o0-o3 and the opponent's p0-p3.
func halfWords(o0, o1, o2, o3, p0, p1, p2, p3 uint8) (w0, w1 uint64) {
	t := halfTables
	w0 = t.w0[0][o0] + t.w0[1][o1] + t.w0[2][o2] + 2*(t.w0[0][p0]+t.w0[1][p1]+t.w0[2][p2])
	w1 = t.w1[0][o0] + t.w1[1][o1] + t.w1[2][o2] + t.w1[3][o3] + 2*(t.w1[0][p0]+t.w1[1][p1]+t.w1[2][p2]+t.w1[3][p3])
	return w0, w1
}

// lane is lane k of w.
func lane(w uint64, k uint) uint16 { return uint16(w >> (16 * k)) }

// at is e's value of reading x of the class at offset off.
func at(e *patternStageTable, off int, x uint16) float32 { return e[off : off+1<<16][x] }

// patternLookup writes into sums, class by class, the sum of e's values
// over the instances' readings for own and opp (the discs of the side to
// move and of its opponent), in the order of oldPatternLookup's sums.
func patternLookup(own, opp Bitboard, e *patternStageTable, sums *[patternClassCount]float32) {
	edge, corner3, corner5, row2, row3, row4 := boardHalfSums(own, opp, e)
	edgeT, corner5T, row2, row3, row4 := transposedHalfSums(transpose(own), transpose(opp), e, row2, row3, row4)
	d8, d7, d6, d5, d4 := diagonalSums(own, opp, e)
	*sums = [...]float32{edge + edgeT, corner3, corner5 + corner5T, row2, row3, row4, d8, d7, d6, d5, d4}
}

// boardHalfSums sums the instances of the half boards of ranks 1-4 and
// 8-5: the edges, corners and lines along the ranks.
func boardHalfSums(own, opp Bitboard, e *patternStageTable) (edge, corner3, corner5, row2, row3, row4 float32) {
	l0, l1 := halfWords(uint8(own), uint8(own>>8), uint8(own>>16), uint8(own>>24), uint8(opp), uint8(opp>>8), uint8(opp>>16), uint8(opp>>24))
	h0, h1 := halfWords(uint8(own>>56), uint8(own>>48), uint8(own>>40), uint8(own>>32), uint8(opp>>56), uint8(opp>>48), uint8(opp>>40), uint8(opp>>32))
	edge = at(e, edgeOffset, lane(l0, 0)) + at(e, edgeOffset, lane(h0, 0))
	corner3 = (at(e, corner3x3Offset, lane(l0, 1)) + at(e, corner3x3Offset, lane(l0, 2))) + (at(e, corner3x3Offset, lane(h0, 1)) + at(e, corner3x3Offset, lane(h0, 2)))
	corner5 = (at(e, corner2x5Offset, lane(l0, 3)) + at(e, corner2x5Offset, lane(l1, 0))) + (at(e, corner2x5Offset, lane(h0, 3)) + at(e, corner2x5Offset, lane(h1, 0)))
	row2 = at(e, row2Offset, lane(l1, 1)) + at(e, row2Offset, lane(h1, 1))
	row3 = at(e, row3Offset, lane(l1, 2)) + at(e, row3Offset, lane(h1, 2))
	row4 = at(e, row4Offset, lane(l1, 3)) + at(e, row4Offset, lane(h1, 3))
	return edge, corner3, corner5, row2, row3, row4
}

// transposedHalfSums sums the instances of the transposed board's half
// boards (files a-d and h-e) but the corner3x3 ones, adding the lines to
// row2-row4 in turn.
func transposedHalfSums(own, opp Bitboard, e *patternStageTable, row2, row3, row4 float32) (edge, corner5, row2T, row3T, row4T float32) {
	l0, l1 := halfWords(uint8(own), uint8(own>>8), uint8(own>>16), uint8(own>>24), uint8(opp), uint8(opp>>8), uint8(opp>>16), uint8(opp>>24))
	h0, h1 := halfWords(uint8(own>>56), uint8(own>>48), uint8(own>>40), uint8(own>>32), uint8(opp>>56), uint8(opp>>48), uint8(opp>>40), uint8(opp>>32))
	edge = at(e, edgeOffset, lane(l0, 0)) + at(e, edgeOffset, lane(h0, 0))
	corner5 = (at(e, corner2x5Offset, lane(l0, 3)) + at(e, corner2x5Offset, lane(l1, 0))) + (at(e, corner2x5Offset, lane(h0, 3)) + at(e, corner2x5Offset, lane(h1, 0)))
	row2T = row2 + at(e, row2Offset, lane(l1, 1)) + at(e, row2Offset, lane(h1, 1))
	row3T = row3 + at(e, row3Offset, lane(l1, 2)) + at(e, row3Offset, lane(h1, 2))
	row4T = row4 + at(e, row4Offset, lane(l1, 3)) + at(e, row4Offset, lane(h1, 3))
	return edge, corner5, row2T, row3T, row4T
}

func diagonalSums(own, opp Bitboard, e *patternStageTable) (d8, d7, d6, d5, d4 float32) {
	d8 = look(e, diag8Offset+diagonalReading(own, opp, 0x8040201008040201, 56)) + look(e, diag8Offset+diagonalReading(own, opp, 0x0102040810204080, 56))
	d7 = look(e, diag7Offset+diagonalReading(own, opp, 0x0080402010080402, 57)) + look(e, diag7Offset+diagonalReading(own, opp, 0x4020100804020100, 56)) +
		look(e, diag7Offset+diagonalReading(own, opp, 0x0001020408102040, 56)) + look(e, diag7Offset+diagonalReading(own, opp, 0x0204081020408000, 57))
	d6 = look(e, diag6Offset+diagonalReading(own, opp, 0x0000804020100804, 58)) + look(e, diag6Offset+diagonalReading(own, opp, 0x2010080402010000, 56)) +
		look(e, diag6Offset+diagonalReading(own, opp, 0x0000010204081020, 56)) + look(e, diag6Offset+diagonalReading(own, opp, 0x0408102040800000, 58))
	d5 = look(e, diag5Offset+diagonalReading(own, opp, 0x0000008040201008, 59)) + look(e, diag5Offset+diagonalReading(own, opp, 0x1008040201000000, 56)) +
		look(e, diag5Offset+diagonalReading(own, opp, 0x0000000102040810, 56)) + look(e, diag5Offset+diagonalReading(own, opp, 0x0810204080000000, 59))
	d4 = look(e, diag4Offset+diagonalReading(own, opp, 0x0000000001020408, 56)) + look(e, diag4Offset+diagonalReading(own, opp, 0x0000000080402010, 60)) +
		look(e, diag4Offset+diagonalReading(own, opp, 0x0804020100000000, 56)) + look(e, diag4Offset+diagonalReading(own, opp, 0x1020408000000000, 60))
	return d8, d7, d6, d5, d4
}

// look is e's value of reading x.
func look(e *patternStageTable, x int32) float32 { return e[uint32(x)&(patternStageSize-1)] }
