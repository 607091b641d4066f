package othello

import (
	"math/bits"
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
	// terms[sq] lists the instances holding square sq, each with the
	// power of 3 of the square's place in its reading; offsets[i] is
	// instance i's class's Offset (entries from PatternInstances on unused).
	terms   [64][]patternTerm
	offsets [64]int32
	// canonical[Offset+r] is Offset plus the smallest reading symmetric to
	// reading r of the class.
	canonical []int32
}

// patternTerm is one instance's digit for a square.
type patternTerm struct {
	instance uint8
	power    uint16
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
	// Each instance's reading, its class's offset included: own discs add
	// their power of 3 once, the opponent's twice.
	raw := set.offsets
	for b := p.mine(); b != 0; b &= b - 1 {
		for _, t := range set.terms[bits.TrailingZeros64(b)] {
			raw[t.instance&63] += int32(t.power)
		}
	}
	for b := p.theirs(); b != 0; b &= b - 1 {
		for _, t := range set.terms[bits.TrailingZeros64(b)] {
			raw[t.instance&63] += 2 * int32(t.power)
		}
	}
	dst = dst[:0]
	for _, r := range raw[:PatternInstances] {
		dst = append(dst, set.canonical[r])
	}
	return dst
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
		for _, in := range c.Instances {
			for j, sq := range in {
				set.terms[sq] = append(set.terms[sq], patternTerm{uint8(n), uint16(pow3(j))})
			}
			set.offsets[n] = int32(offset)
			n++
		}
		fillCanonical(set.canonical[offset:offset+c.Size], offset, len(base), perms)
		set.classes = append(set.classes, c)
		offset += c.Size
	}
	if offset != PatternWeights || n != PatternInstances {
		panic("othello: pattern sources disagree with PatternWeights or PatternInstances")
	}
	return set
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
