package othello

import (
	"slices"
	"strings"
	"sync"
)

// Pattern features in the style of Logistello and Edax: a pattern class is a
// set of squares read as a number in base 3 (0 empty, 1 a disc of the side
// to move, 2 an opponent's disc; the first square of the reading is the
// least significant digit). Each class is placed on the board in every
// orientation the eight board symmetries give it (its instances), and
// configurations that a symmetry of the class's own squares maps onto each
// other share one index (the smallest of their readings), so that one weight
// serves them all.
//
// The classes, 46 instances in all (the features of Edax without its
// constant), 113,877 distinct weights:
//
//	edge+2X    a1-h1 with b2 and g2 (10 squares, 4 instances): the edge and
//	           its X-squares, which decide who can take the corners
//	corner3x3  a1-c3 (9 squares, 4 instances): corner stability
//	corner2x5  a1-e1, a2-e2 (10 squares, 8 instances): the corner, its edge
//	           and the line behind it
//	row2..row4 the second to fourth ranks (8 squares, 4 instances each):
//	           inner lines, where frontier and quiet moves show
//	diag8..4   the diagonals a1-h8 (2 instances) and those of 7, 6, 5 and 4
//	           squares (4 instances each)
//
// The classes' index ranges lie one after another in one space of
// PatternWeights entries, a class's Size readings from its Offset.

// PatternWeights is the size of the shared index space: the sum of the
// classes' sizes (3 to the number of their squares).
const PatternWeights = 167265

// PatternInstances is the number of indices PatternIndices appends.
const PatternInstances = 46

// maxPatternSquares is the most squares a class holds.
const maxPatternSquares = 10

// PatternClass is one pattern and its placements on the board.
type PatternClass struct {
	Name string
	// Squares are the class's squares in one orientation, in reading order
	// (0 = a1 ... 63 = h8).
	Squares []int
	// Size is 3^len(Squares), the readings of the class: its indices are
	// Offset to Offset+Size-1 (those that are not the smallest of their
	// symmetric readings are never produced).
	Size   int
	Offset int
	// Instances are the class's placements, in reading order, Squares
	// first; PatternIndices gives one index for each, class by class, in
	// this order.
	Instances [][]int
}

// patternSources are the classes in one orientation, by square names.
var patternSources = []struct{ name, squares string }{
	{"edge+2X", "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2"},
	{"corner3x3", "a1 b1 c1 a2 b2 c2 a3 b3 c3"},
	{"corner2x5", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"},
	{"row2", "a2 b2 c2 d2 e2 f2 g2 h2"},
	{"row3", "a3 b3 c3 d3 e3 f3 g3 h3"},
	{"row4", "a4 b4 c4 d4 e4 f4 g4 h4"},
	{"diag8", "a1 b2 c3 d4 e5 f6 g7 h8"},
	{"diag7", "b1 c2 d3 e4 f5 g6 h7"},
	{"diag6", "c1 d2 e3 f4 g5 h6"},
	{"diag5", "d1 e2 f3 g4 h5"},
	{"diag4", "d1 c2 b3 a4"},
}

// patternSet holds what PatternIndices reads, built once on first use.
type patternSet struct {
	classes []PatternClass
	// viewOf[i] is where patternReadings writes instance i's reading.
	viewOf [PatternInstances]int
	// canonical[Offset+r] is Offset plus the smallest reading symmetric to
	// reading r of the class.
	canonical []int32
}

// patterns returns the pattern tables, building them on the first call
// (167,265 entries: about 10 ms, once per process).
var patterns = sync.OnceValue(buildPatterns)

// PatternClasses returns the pattern classes with their instances, in the
// order of PatternIndices. The result is the caller's to modify.
func PatternClasses() []PatternClass {
	classes := slices.Clone(patterns().classes)
	for i, c := range classes {
		classes[i].Squares = slices.Clone(c.Squares)
		classes[i].Instances = make([][]int, len(c.Instances))
		for j, in := range c.Instances {
			classes[i].Instances[j] = slices.Clone(in)
		}
	}
	return classes
}

// PatternIndices appends to dst[:0] the index of each of the
// PatternInstances pattern instances, read from the side to move's point of
// view, and returns it. Each index is below PatternWeights; symmetric
// positions give the same indices class by class. It allocates nothing when
// dst has room for PatternInstances entries.
func (p *Position) PatternIndices(dst []int32) []int32 {
	set := patterns()
	var raw [PatternInstances]int32
	patternReadings(p.mine(), p.theirs(), &raw)
	dst = dst[:0]
	for _, i := range set.viewOf {
		dst = append(dst, set.canonical[raw[i]])
	}
	return dst
}

// The classes' offsets in the index space, in the order of patternSources
// (buildPatterns checks them).
const (
	edgeOffset      = 0
	corner3x3Offset = edgeOffset + 59049
	corner2x5Offset = corner3x3Offset + 19683
	row2Offset      = corner2x5Offset + 59049
	row3Offset      = row2Offset + 6561
	row4Offset      = row3Offset + 6561
	diag8Offset     = row4Offset + 6561
	diag7Offset     = diag8Offset + 6561
	diag6Offset     = diag7Offset + 2187
	diag5Offset     = diag6Offset + 729
	diag4Offset     = diag5Offset + 243
)

// Base-3 tables: a pattern's reading is t[own] + 2*t[opp], own and opp
// its squares' discs of each side gathered into bits. In ternary bit j is
// 3^j, for gathers in reading order; ternary3x3 and ternary5x2 reverse the
// order within each group of 3 and 5 bits, for gathers from the h-file
// corners (h1 g1 f1 read f1 g1 h1).
var (
	ternary    = ternaryTable(1)
	ternary3x3 = ternaryTable(3)
	ternary5x2 = ternaryTable(5)
)

// ternaryTable returns the base-3 table that reverses the order within
// groups of group bits (none when group is 1); bits beyond the last full
// group are read in order.
func ternaryTable(group int) (t [1 << maxPatternSquares]int32) {
	for x := range t {
		for j := range maxPatternSquares {
			if x&(1<<j) != 0 {
				k := j
				if j < maxPatternSquares/group*group {
					k = j/group*group + group - 1 - j%group
				}
				t[x] += int32(pow3(k))
			}
		}
	}
	return t
}

const fileSum = 0x0101010101010101

// transpose mirrors b in the a1-h8 diagonal (b1 to a2).
func transpose(b Bitboard) Bitboard {
	t := 0x0f0f0f0f00000000 & (b ^ b<<28)
	b ^= t ^ t>>28
	t = 0x3333000033330000 & (b ^ b<<14)
	b ^= t ^ t>>14
	t = 0x5500550055005500 & (b ^ b<<7)
	return b ^ t ^ t>>7
}

// The edges and corners are read from two words that hold three ranks of
// both sides, the side to move's in bits 0-23 and the opponent's in bits
// 32-55: low holds ranks 1-3, high ranks 6-8. A gather then takes the
// instance's squares of both sides at once to bits in reading order (for
// the h-file corners, in reading order within each rank reversed), the
// side to move's in bits 0-9 and the opponent's in bits 32-41.
func lowRanks(own, opp Bitboard) Bitboard  { return own&0xffffff | opp<<32 }
func highRanks(own, opp Bitboard) Bitboard { return own>>40 | opp>>40<<32 }

// both repeats a mask for the two sides.
func both(m Bitboard) Bitboard { return m | m<<32 }

// edge1 reads a1-h1, b2, g2 from low; edge8 a8-h8, b7, g7 from high;
// corner3x3 a1-c3, h1-f3, a8-c6 and h8-f6 by ranks, the corner's first;
// corner2x5 likewise on 5 files and 2 ranks.
func edge1(l Bitboard) Bitboard     { return l&both(0xff) | l>>1&both(0x100) | l>>5&both(0x200) }
func edge8(h Bitboard) Bitboard     { return h>>16&both(0xff) | h>>1&both(0x100) | h>>5&both(0x200) }
func corner3a1(l Bitboard) Bitboard { return l&both(7) | l>>5&both(0x38) | l>>10&both(0x1c0) }
func corner3h1(l Bitboard) Bitboard { return l>>5&both(7) | l>>10&both(0x38) | l>>15&both(0x1c0) }
func corner3a8(h Bitboard) Bitboard { return h>>16&both(7) | h>>5&both(0x38) | h<<6&both(0x1c0) }
func corner3h8(h Bitboard) Bitboard { return h>>21&both(7) | h>>10&both(0x38) | h<<1&both(0x1c0) }
func corner5a1(l Bitboard) Bitboard { return l&both(0x1f) | l>>3&both(0x3e0) }
func corner5h1(l Bitboard) Bitboard { return l>>3&both(0x1f) | l>>6&both(0x3e0) }
func corner5a8(h Bitboard) Bitboard { return h>>16&both(0x1f) | h>>3&both(0x3e0) }
func corner5h8(h Bitboard) Bitboard { return h>>19&both(0x1f) | h>>6&both(0x3e0) }

// pairReading is the base-3 reading, by table t, of a gather of both
// sides: own discs 1, the opponent's 2.
func pairReading(t *[1 << maxPatternSquares]int32, g Bitboard) int32 {
	return t[g&(1<<maxPatternSquares-1)] + 2*t[g>>32&(1<<maxPatternSquares-1)]
}

// rankReading is the reading of rank k's squares (a to h).
func rankReading(own, opp Bitboard, k uint) int32 {
	return ternary[own>>(8*k)&0xff] + 2*ternary[opp>>(8*k)&0xff]
}

// diagonalReading reads the squares of mask m, a diagonal whose first
// file is shift-56. A diagonal holds a square of each file it crosses, so
// multiplying its discs by fileSum stacks them in the top byte without a
// carry, by file: a reading along the diagonal, in one direction or the
// other, which the classes' mirror symmetry makes equal.
func diagonalReading(own, opp, m Bitboard, shift uint) int32 {
	return ternary[(own&m)*fileSum>>shift] + 2*ternary[(opp&m)*fileSum>>shift]
}

// patternStageSize is the length of a stage's expanded table: the index
// space rounded up to a power of 2, so that masked readings index it
// without a bounds check.
const patternStageSize = 1 << 18

// patternStageTable holds a value for each reading of the index space
// (entries from PatternWeights on unused).
type patternStageTable [patternStageSize]float32

// patternReadings writes each instance's reading, its class's offset
// included, for own and opp (the discs of the side to move and of its
// opponent), class by class as PatternClasses, within a class in an order
// of its own (patternSet.viewOf maps instances to it). Gathers of a few
// shifts and masks read each instance in one of the orders that its
// class's symmetries make equal: on the board for the instances along the
// ranks and the diagonals, on the transposed board for those along the
// files; rows are bytes, diagonals multiply-shift gathers. The evaluation
// (patternLookup) reads the same instances another way, by half boards,
// in readings that the same symmetries make equal.
func patternReadings(own, opp Bitboard, r *[PatternInstances]int32) {
	ownT, oppT := transpose(own), transpose(opp)
	lo, hi, loT, hiT := lowRanks(own, opp), highRanks(own, opp), lowRanks(ownT, oppT), highRanks(ownT, oppT)
	r[0] = edgeOffset + pairReading(&ternary, edge1(lo))
	r[1] = edgeOffset + pairReading(&ternary, edge8(hi))
	r[2] = edgeOffset + pairReading(&ternary, edge1(loT))
	r[3] = edgeOffset + pairReading(&ternary, edge8(hiT))
	r[4] = corner3x3Offset + pairReading(&ternary, corner3a1(lo))
	r[5] = corner3x3Offset + pairReading(&ternary3x3, corner3h1(lo))
	r[6] = corner3x3Offset + pairReading(&ternary, corner3a8(hi))
	r[7] = corner3x3Offset + pairReading(&ternary3x3, corner3h8(hi))
	r[8] = corner2x5Offset + pairReading(&ternary, corner5a1(lo))
	r[9] = corner2x5Offset + pairReading(&ternary5x2, corner5h1(lo))
	r[10] = corner2x5Offset + pairReading(&ternary, corner5a8(hi))
	r[11] = corner2x5Offset + pairReading(&ternary5x2, corner5h8(hi))
	r[12] = corner2x5Offset + pairReading(&ternary, corner5a1(loT))
	r[13] = corner2x5Offset + pairReading(&ternary5x2, corner5h1(loT))
	r[14] = corner2x5Offset + pairReading(&ternary, corner5a8(hiT))
	r[15] = corner2x5Offset + pairReading(&ternary5x2, corner5h8(hiT))
	for k := range uint(3) { // row2 to row4: ranks 2-4 and 7-5, files b-d and g-e
		off := row2Offset + 6561*int32(k)
		r[16+4*k] = off + rankReading(own, opp, 1+k)
		r[17+4*k] = off + rankReading(own, opp, 6-k)
		r[18+4*k] = off + rankReading(ownT, oppT, 1+k)
		r[19+4*k] = off + rankReading(ownT, oppT, 6-k)
	}
	for i, d := range &diagonalInstances {
		r[28+i] = d.offset + diagonalReading(own, opp, d.mask, uint(d.shift))
	}
}

// diagonalInstances are the diagonal instances, classes diag8 to diag4:
// the mask of each one's squares, 56 plus its first file, and its class's
// offset.
var diagonalInstances = [18]struct {
	mask   Bitboard
	shift  uint8
	offset int32
}{
	{0x8040201008040201, 56, diag8Offset}, {0x0102040810204080, 56, diag8Offset},
	{0x0080402010080402, 57, diag7Offset}, {0x4020100804020100, 56, diag7Offset}, {0x0001020408102040, 56, diag7Offset}, {0x0204081020408000, 57, diag7Offset},
	{0x0000804020100804, 58, diag6Offset}, {0x2010080402010000, 56, diag6Offset}, {0x0000010204081020, 56, diag6Offset}, {0x0408102040800000, 58, diag6Offset},
	{0x0000008040201008, 59, diag5Offset}, {0x1008040201000000, 56, diag5Offset}, {0x0000000102040810, 56, diag5Offset}, {0x0810204080000000, 59, diag5Offset},
	{0x0000000001020408, 56, diag4Offset}, {0x0000000080402010, 60, diag4Offset}, {0x0804020100000000, 56, diag4Offset}, {0x1020408000000000, 60, diag4Offset},
}

// boardSymmetries are the eight symmetries of the board as maps from rank
// and file to a square.
var boardSymmetries = [8]func(r, f int) int{
	func(r, f int) int { return 8*r + f },
	func(r, f int) int { return 8*r + 7 - f },
	func(r, f int) int { return 8*(7-r) + f },
	func(r, f int) int { return 8*(7-r) + 7 - f },
	func(r, f int) int { return 8*f + r },
	func(r, f int) int { return 8*f + 7 - r },
	func(r, f int) int { return 8*(7-f) + r },
	func(r, f int) int { return 8*(7-f) + 7 - r },
}

// buildPatterns places each class in the eight orientations, keeps one
// instance per set of squares, and builds the canonical table from the
// symmetries that map the class's squares onto themselves.
func buildPatterns() *patternSet {
	set := &patternSet{canonical: make([]int32, PatternWeights)}
	offset, n := 0, 0
	for _, src := range patternSources {
		base := parseSquares(src.squares)
		c := PatternClass{Name: src.name, Squares: base, Size: pow3(len(base)), Offset: offset}
		var perms [][]int // readings of base's own squares, as positions in base
		for _, g := range boardSymmetries {
			in := make([]int, len(base))
			for j, s := range base {
				in[j] = g(s/8, s%8)
			}
			if perm := positionsIn(base, in); perm != nil {
				perms = append(perms, perm)
			}
			if !slices.ContainsFunc(c.Instances, func(old []int) bool { return positionsIn(old, in) != nil }) {
				c.Instances = append(c.Instances, in)
			}
		}
		n += len(c.Instances)
		fillCanonical(set.canonical[offset:offset+c.Size], offset, len(base), perms)
		set.classes = append(set.classes, c)
		offset += c.Size
	}
	if offset != PatternWeights || n != PatternInstances {
		panic("othello: pattern sources disagree with PatternWeights or PatternInstances")
	}
	set.viewOf = viewsOf(set.classes)
	return set
}

// viewsOf finds where patternReadings writes each instance's reading: the
// view whose squares, read from single discs, are the instance's. It
// panics when a class's offset, or the squares of a view, disagree with
// the classes: patternReadings and patternSources would be out of step.
func viewsOf(classes []PatternClass) (viewOf [PatternInstances]int) {
	var squares [PatternInstances][]int // each view's squares, in reading order
	var r, empty [PatternInstances]int32
	patternReadings(0, 0, &empty)
	for sq := range 64 {
		patternReadings(1<<sq, 0, &r)
		for v := range r {
			if r[v] != empty[v] {
				squares[v] = append(squares[v], sq)
			}
		}
	}
	r = empty
	i, v := 0, 0
	for _, c := range classes {
		for range c.Instances {
			if int(r[v]) != c.Offset || len(squares[v]) != len(c.Squares) {
				panic("othello: patternReadings disagrees with the pattern classes")
			}
			v++
		}
		for _, in := range c.Instances {
			k := slices.IndexFunc(squares[v-len(c.Instances):v], func(sqs []int) bool { return positionsIn(in, sqs) != nil })
			if k < 0 {
				panic("othello: patternReadings misses an instance of " + c.Name)
			}
			viewOf[i] = v - len(c.Instances) + k
			i++
		}
	}
	return viewOf
}

// fillCanonical sets table[r] to offset plus the smallest reading of r's
// configuration under the permutations perms, a group of readings of the
// class's squares (perm[j] is the position read j-th).
func fillCanonical(table []int32, offset, length int, perms [][]int) {
	var digits, moved [maxPatternSquares]int
	for r := range table {
		for j, x := 0, r; j < length; j++ {
			digits[j], x = x%3, x/3
		}
		best := r
		for _, perm := range perms {
			for j := range length {
				moved[j] = digits[perm[j]]
			}
			if m := readDigits(moved[:length]); m < best {
				best = m
			}
		}
		table[r] = int32(offset + best)
	}
}

// readDigits is the base-3 number of digits, the first least significant.
func readDigits(digits []int) int {
	r := 0
	for j := len(digits) - 1; j >= 0; j-- {
		r = 3*r + digits[j]
	}
	return r
}

// positionsIn returns, for each square of in, its position in base, or nil
// when the two are not the same set of squares.
func positionsIn(base, in []int) []int {
	if len(base) != len(in) {
		return nil
	}
	perm := make([]int, len(in))
	for j, s := range in {
		k := slices.Index(base, s)
		if k < 0 {
			return nil
		}
		perm[j] = k
	}
	return perm
}

// parseSquares reads square names separated by spaces; the names are the
// package's own, so a bad one is a programming mistake.
func parseSquares(s string) []int {
	var squares []int
	for _, name := range strings.Fields(s) {
		if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
			panic("othello: bad pattern square " + name)
		}
		squares = append(squares, int(name[1]-'1')*8+int(name[0]-'a'))
	}
	return squares
}

func pow3(n int) int {
	r := 1
	for range n {
		r *= 3
	}
	return r
}
