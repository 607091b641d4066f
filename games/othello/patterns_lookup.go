package othello

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The evaluation reads all 46 instances by half boards: ranks 1-4 of the
// board, ranks 8-5 (the board mirrored), and the same of the transposed
// board (files a-d, files h-e). A reading is linear in the discs: the sum
// over its squares of 3 to the square's place in the reading, twice that
// for an opponent's disc. So the readings a half board holds are packed in
// words of four 16-bit lanes (no reading reaches 3^10), and each rank's
// byte of discs adds its share to every word from a table (halfTables):
// six words, 24 readings, from 46 table words a side, where gathering
// each instance's squares and converting them to base 3 cost some twenty
// operations an instance (oldPatternLookup, in the tests). The four half
// boards use the same tables: their frames differ by board symmetries,
// which map each lane's squares onto an instance of its class, read in an
// order whose value the expanded tables hold (any symmetric reading gives
// the same value). The transposed half boards read only the edges,
// corners and lines along the files (words 0 and 1; their corner3x3 lanes
// read the board's corners again and are left out). Each class's values
// are added in the order they always were, so the evaluation is the same
// to the bit (TestPatternLookupMatchesOld).

// halfLanes are the lanes of the half boards' words, their squares in
// reading order in the frame of ranks 1-4. Words 0 and 1 hold the edges,
// corners and inner lines; words 2-5 the diagonals, which cross from one
// half board of ranks into the other: a half board adds the share of its
// squares of ranks 1-4 (in its frame), and lanes 0 and 1 of each diagonal
// word have their mirror images (in the ranks) in lanes 2 and 3, so that a
// diagonal's reading is its lane of ranks 1-4 plus the mirror lane of
// ranks 8-5. Word 5 ends with the short diagonals of ranks 1-4 alone
// (their mirror images lie in ranks 5-8): each is read from one half.
var halfLanes = [halfWordCount][4]string{
	{"a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", "a1 b1 c1 a2 b2 c2 a3 b3 c3", "h1 g1 f1 h2 g2 f2 h3 g3 f3", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"},
	{"h1 g1 f1 e1 d1 h2 g2 f2 e2 d2", "a2 b2 c2 d2 e2 f2 g2 h2", "a3 b3 c3 d3 e3 f3 g3 h3", "a4 b4 c4 d4 e4 f4 g4 h4"},
	{"a1 b2 c3 d4 e5 f6 g7 h8", "b1 c2 d3 e4 f5 g6 h7", "a8 b7 c6 d5 e4 f3 g2 h1", "b8 c7 d6 e5 f4 g3 h2"},
	{"a2 b3 c4 d5 e6 f7 g8", "c1 d2 e3 f4 g5 h6", "a7 b6 c5 d4 e3 f2 g1", "c8 d7 e6 f5 g4 h3"},
	{"a3 b4 c5 d6 e7 f8", "d1 e2 f3 g4 h5", "a6 b5 c4 d3 e2 f1", "d8 e7 f6 g5 h4"},
	{"a4 b5 c6 d7 e8", "e1 f2 g3 h4", "a5 b4 c3 d2 e1", "d1 c2 b3 a4"},
}

// halfWordCount is the number of words of a half board's readings.
const halfWordCount = 6

// halfTables[k][x][w] is the side to move's share of word w's lanes for
// the discs x of rank k+1 of a half board (the opponent's is twice it).
// A byte's six words lie in one cache line (two words of eight unused),
// and the tables are read through a pointer, their offsets folded into
// the loads.
var halfTables = func() *[4][256][8]uint64 {
	t := new([4][256][8]uint64)
	for w, lanes := range halfLanes {
		for lane, squares := range lanes {
			sqs := parseSquares(squares)
			places := &patternPlaces[laneClass(sqs)]
			for j, sq := range sqs {
				if sq >= 32 {
					continue
				}
				k, bit := sq/8, uint(sq%8)
				for x := range 256 {
					if x>>bit&1 != 0 {
						t[k][x][w] += uint64(pow3(int(places[j]))) << (16 * lane)
					}
				}
			}
		}
	}
	return t
}()

// laneClass is the class of which squares, a lane's, read an instance: the
// class whose squares a board symmetry maps onto them in order. It panics
// when there is none (halfLanes and patternSources out of step).
func laneClass(squares []int) int {
	for c, src := range patternSources {
		base := parseSquares(src.squares)
		for _, g := range boardSymmetries {
			if slices.EqualFunc(base, squares, func(s, l int) bool { return g(s/8, s%8) == l }) {
				return c
			}
		}
	}
	panic("othello: a half-board lane reads no pattern class")
}

// putWord stores word j of a half board's readings.
func putWord(out *[halfWordCount * 8]byte, j int, w uint64) {
	binary.LittleEndian.PutUint64(out[8*j:], w)
}

// wordOf is word j.
func wordOf(out *[halfWordCount * 8]byte, j int) uint64 {
	return binary.LittleEndian.Uint64(out[8*j:])
}

// laneOf is lane k of word j.
func laneOf(out *[halfWordCount * 8]byte, j, k int) uint16 {
	return binary.LittleEndian.Uint16(out[8*j+2*k:])
}

// laneOfT is lane k of word j of a transposed half board.
func laneOfT(out *[16]byte, j, k int) uint16 {
	return binary.LittleEndian.Uint16(out[8*j+2*k:])
}

// boardHalf writes the six words of readings of the half board whose
// ranks 1-4 hold the side to move's discs own and the opponent's opp (bits
// 0-31 of each).
func boardHalf(own, opp uint64, out *[halfWordCount * 8]byte) {
	t := halfTables
	o0, o1, o2, o3 := &t[0][uint8(own)], &t[1][uint8(own>>8)], &t[2][uint8(own>>16)], &t[3][uint8(own>>24)]
	p0, p1, p2, p3 := &t[0][uint8(opp)], &t[1][uint8(opp>>8)], &t[2][uint8(opp>>16)], &t[3][uint8(opp>>24)]
	putWord(out, 0, o0[0]+o1[0]+o2[0]+2*(p0[0]+p1[0]+p2[0]))
	putWord(out, 1, o0[1]+o1[1]+o2[1]+o3[1]+2*(p0[1]+p1[1]+p2[1]+p3[1]))
	putWord(out, 2, o0[2]+o1[2]+o2[2]+o3[2]+2*(p0[2]+p1[2]+p2[2]+p3[2]))
	putWord(out, 3, o0[3]+o1[3]+o2[3]+o3[3]+2*(p0[3]+p1[3]+p2[3]+p3[3]))
	putWord(out, 4, o0[4]+o1[4]+o2[4]+o3[4]+2*(p0[4]+p1[4]+p2[4]+p3[4]))
	putWord(out, 5, o0[5]+o1[5]+o2[5]+o3[5]+2*(p0[5]+p1[5]+p2[5]+p3[5]))
}

// transposedHalf is boardHalf for a half board of the transposed board:
// words 0 and 1 only. Its corner3x3 lanes (word 0, lanes 1 and 2) read
// the corners the board's half boards read, and are not used; they take
// ranks 3 and 4 as the other lanes do, so that the readings stay linear in
// the discs (readings.go), as the assembly sums them.
func transposedHalf(own, opp uint64, out *[16]byte) {
	t := halfTables
	o0, o1, o2, o3 := &t[0][uint8(own)], &t[1][uint8(own>>8)], &t[2][uint8(own>>16)], &t[3][uint8(own>>24)]
	p0, p1, p2, p3 := &t[0][uint8(opp)], &t[1][uint8(opp>>8)], &t[2][uint8(opp>>16)], &t[3][uint8(opp>>24)]
	binary.LittleEndian.PutUint64(out[0:], o0[0]+o1[0]+o2[0]+o3[0]+2*(p0[0]+p1[0]+p2[0]+p3[0]))
	binary.LittleEndian.PutUint64(out[8:], o0[1]+o1[1]+o2[1]+o3[1]+2*(p0[1]+p1[1]+p2[1]+p3[1]))
}

// at is e's value of reading x of the class at offset off: the slice of
// 1<<16 entries from off (within the table for every class's offset,
// checked when compiled) takes a uint16 without a bounds check.
func at(e *patternStageTable, off int, x uint16) float32 { return e[off : off+1<<16][x] }

// patternLookup writes into sums, class by class, the sum of e's values
// over the instances' readings for own and opp (the discs of the side to
// move and of its opponent): patternValues.
func patternLookup(own, opp Bitboard, e *patternStageTable, sums *[patternClassCount]float32) {
	s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 := patternValues(own, opp, e)
	*sums = [...]float32{s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10}
}

// halfReadings are the words of the four half boards, whose lanes are
// read as 16-bit loads: ranks 1-4 of the board (bytes 0-47), of the board
// mirrored (ranks 8-5, bytes 48-95), words 0 and 1 of the board transposed
// (files a-d, bytes 96-111) and transposed mirrored (files h-e, 112-127).
type halfReadings [halfReadingBytes]byte

// halfReadingBytes is the size of halfReadings: 16 words.
const halfReadingBytes = 2*halfWordCount*8 + 2*16

// readGo sets r to the readings of own and opp (the discs of the side to
// move and of its opponent), in Go: read does it, on amd64 with SSE2.
func (r *halfReadings) readGo(own, opp uint64) {
	ownT, oppT := transpose(Bitboard(own)), transpose(Bitboard(opp))
	boardHalf(own, opp, (*[halfWordCount * 8]byte)(r[0:]))
	boardHalf(bits.ReverseBytes64(own), bits.ReverseBytes64(opp), (*[halfWordCount * 8]byte)(r[48:]))
	transposedHalf(uint64(ownT), uint64(oppT), (*[16]byte)(r[96:]))
	transposedHalf(bits.ReverseBytes64(uint64(ownT)), bits.ReverseBytes64(uint64(oppT)), (*[16]byte)(r[112:]))
}

// patternValues returns, class by class, the sum of e's values over the
// instances' readings for own and opp (the discs of the side to move and
// of its opponent): readingValues of their readings.
func patternValues(own, opp Bitboard, e *patternStageTable) (s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 float32) {
	var r halfReadings
	r.read(uint64(own), uint64(opp))
	return readingValues(&r, e)
}

// readingValues returns, class by class, the sum of e's values over the
// instances' readings r, each class's values added in the order of
// oldPatternLookup, so that the sums are the same to the bit. It returns
// them in registers.
func readingValues(r *halfReadings, e *patternStageTable) (s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 float32) {
	lo, hi := (*[halfWordCount * 8]byte)(r[0:]), (*[halfWordCount * 8]byte)(r[48:])
	loT, hiT := (*[16]byte)(r[96:]), (*[16]byte)(r[112:])
	s0 = (at(e, edgeOffset, laneOf(lo, 0, 0)) + at(e, edgeOffset, laneOf(hi, 0, 0))) + (at(e, edgeOffset, laneOfT(loT, 0, 0)) + at(e, edgeOffset, laneOfT(hiT, 0, 0)))
	s1 = (at(e, corner3x3Offset, laneOf(lo, 0, 1)) + at(e, corner3x3Offset, laneOf(lo, 0, 2))) + (at(e, corner3x3Offset, laneOf(hi, 0, 1)) + at(e, corner3x3Offset, laneOf(hi, 0, 2)))
	s2 = ((at(e, corner2x5Offset, laneOf(lo, 0, 3)) + at(e, corner2x5Offset, laneOf(lo, 1, 0))) + (at(e, corner2x5Offset, laneOf(hi, 0, 3)) + at(e, corner2x5Offset, laneOf(hi, 1, 0)))) +
		((at(e, corner2x5Offset, laneOfT(loT, 0, 3)) + at(e, corner2x5Offset, laneOfT(loT, 1, 0))) + (at(e, corner2x5Offset, laneOfT(hiT, 0, 3)) + at(e, corner2x5Offset, laneOfT(hiT, 1, 0))))
	s3 = at(e, row2Offset, laneOf(lo, 1, 1)) + at(e, row2Offset, laneOf(hi, 1, 1)) + at(e, row2Offset, laneOfT(loT, 1, 1)) + at(e, row2Offset, laneOfT(hiT, 1, 1))
	s4 = at(e, row3Offset, laneOf(lo, 1, 2)) + at(e, row3Offset, laneOf(hi, 1, 2)) + at(e, row3Offset, laneOfT(loT, 1, 2)) + at(e, row3Offset, laneOfT(hiT, 1, 2))
	s5 = at(e, row4Offset, laneOf(lo, 1, 3)) + at(e, row4Offset, laneOf(hi, 1, 3)) + at(e, row4Offset, laneOfT(loT, 1, 3)) + at(e, row4Offset, laneOfT(hiT, 1, 3))
	// The diagonals' readings: each lane of words 2-4 of lo plus the
	// mirror lane of hi (hi's word rotated by two lanes).
	d2 := wordOf(lo, 2) + bits.RotateLeft64(wordOf(hi, 2), 32)
	d3 := wordOf(lo, 3) + bits.RotateLeft64(wordOf(hi, 3), 32)
	d4 := wordOf(lo, 4) + bits.RotateLeft64(wordOf(hi, 4), 32)
	x7, y7 := laneOf(lo, 5, 0)+laneOf(hi, 5, 2), laneOf(lo, 5, 2)+laneOf(hi, 5, 0)
	s6 = at(e, diag8Offset, uint16(d2)) + at(e, diag8Offset, uint16(d2>>32))
	s7 = at(e, diag7Offset, uint16(d2>>16)) + at(e, diag7Offset, uint16(d3)) + at(e, diag7Offset, uint16(d3>>32)) + at(e, diag7Offset, uint16(d2>>48))
	s8 = at(e, diag6Offset, uint16(d3>>16)) + at(e, diag6Offset, uint16(d4)) + at(e, diag6Offset, uint16(d4>>32)) + at(e, diag6Offset, uint16(d3>>48))
	s9 = at(e, diag5Offset, uint16(d4>>16)) + at(e, diag5Offset, x7) + at(e, diag5Offset, y7) + at(e, diag5Offset, uint16(d4>>48))
	s10 = at(e, diag4Offset, laneOf(lo, 5, 3)) + at(e, diag4Offset, laneOf(lo, 5, 1)) + at(e, diag4Offset, laneOf(hi, 5, 3)) + at(e, diag4Offset, laneOf(hi, 5, 1))
	return s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10
}
