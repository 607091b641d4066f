package othello

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestPatternClasses checks the classes' instances, sizes and offsets.
func TestPatternClasses(t *testing.T) {
	wantInstances := map[string]int{
		"edge+2X": 4, "corner3x3": 4, "corner2x5": 8, "row2": 4, "row3": 4, "row4": 4,
		"diag8": 2, "diag7": 4, "diag6": 4, "diag5": 4, "diag4": 4,
	}
	classes := PatternClasses()
	if len(classes) != len(wantInstances) {
		t.Fatalf("%d classes, want %d", len(classes), len(wantInstances))
	}
	offset, n := 0, 0
	seen := map[string]bool{}
	for _, c := range classes {
		if got := len(c.Instances); got != wantInstances[c.Name] {
			t.Errorf("%s: %d instances, want %d", c.Name, got, wantInstances[c.Name])
		}
		if c.Size != pow3(len(c.Squares)) || c.Offset != offset {
			t.Errorf("%s: size %d offset %d, want %d and %d", c.Name, c.Size, c.Offset, pow3(len(c.Squares)), offset)
		}
		if !slices.Equal(c.Instances[0], c.Squares) {
			t.Errorf("%s: first instance %v, want the class's squares %v", c.Name, c.Instances[0], c.Squares)
		}
		for _, in := range c.Instances {
			key := slices.Clone(in)
			slices.Sort(key)
			if len(slices.Compact(key)) != len(in) {
				t.Errorf("%s: instance %v repeats a square", c.Name, in)
			}
			if seen[c.Name+fmtSquares(key)] {
				t.Errorf("%s: instance %v twice", c.Name, in)
			}
			seen[c.Name+fmtSquares(key)] = true
		}
		offset += c.Size
		n += len(c.Instances)
	}
	if offset != PatternWeights || n != PatternInstances {
		t.Errorf("classes cover %d indices in %d instances, want %d and %d", offset, n, PatternWeights, PatternInstances)
	}
	// The caller's copy is its own.
	classes[0].Squares[0] = 99
	if PatternClasses()[0].Squares[0] != 0 {
		t.Error("PatternClasses shares its squares with the caller")
	}
}

func fmtSquares(squares []int) string {
	s := ""
	for _, sq := range squares {
		s += squareName(sq)
	}
	return s
}

// TestPatternCanonicalCounts counts each class's distinct canonical indices
// against Burnside's lemma: readings mirrored onto themselves share one, so
// a class of n squares with a reversal that fixes k of the (n+k)/2 orbits
// of squares has (3^n + 3^((n+k)/2))/2 configurations; corner2x5 has no
// symmetry of its own and keeps all 3^10.
func TestPatternCanonicalCounts(t *testing.T) {
	want := map[string]int{
		"edge+2X":   (59049 + 243) / 2, // pairs a1-h1, b1-g1, c1-f1, d1-e1, b2-g2
		"corner3x3": (19683 + 729) / 2, // a1, b2, c3 fixed; 3 pairs
		"corner2x5": 59049,
		"row2":      (6561 + 81) / 2,
		"row3":      (6561 + 81) / 2,
		"row4":      (6561 + 81) / 2,
		"diag8":     (6561 + 81) / 2,
		"diag7":     (2187 + 81) / 2,
		"diag6":     (729 + 27) / 2,
		"diag5":     (243 + 27) / 2,
		"diag4":     (81 + 9) / 2,
	}
	canonical := patterns().canonical
	for _, c := range PatternClasses() {
		distinct := map[int32]bool{}
		for r := range c.Size {
			got := canonical[c.Offset+r]
			if int(got) > c.Offset+r || int(got) < c.Offset || canonical[got] != got {
				t.Fatalf("%s: reading %d maps to %d, want a fixed index in [%d, %d]", c.Name, r, got, c.Offset, c.Offset+r)
			}
			distinct[got] = true
		}
		if len(distinct) != want[c.Name] {
			t.Errorf("%s: %d canonical configurations, want %d", c.Name, len(distinct), want[c.Name])
		}
	}
}

// patternIndex returns the index PatternIndices gives the instance of
// class name whose squares, in any order, are those named.
func patternIndex(t *testing.T, indices []int32, name, squares string) int32 {
	t.Helper()
	want := parseSquares(squares)
	slices.Sort(want)
	i := 0
	for _, c := range PatternClasses() {
		for _, in := range c.Instances {
			key := slices.Clone(in)
			slices.Sort(key)
			if c.Name == name && slices.Equal(key, want) {
				return indices[i] - int32(c.Offset)
			}
			i++
		}
	}
	t.Fatalf("no instance of %s on %s", name, squares)
	return 0
}

// TestPatternIndicesKnown checks indices worked out by hand (digits: 1 own,
// 2 the opponent's, the first square of the reading least significant).
func TestPatternIndicesKnown(t *testing.T) {
	start := Start()
	white := Start()
	white.turn = games.Second
	lone := &Position{} // black on b1, white on a2, black to move
	lone.discs[0], lone.discs[1] = 1<<1, 1<<8
	cases := []struct {
		p             *Position
		name, squares string
		want          int32
	}{
		// a4..h4: d4 opponent 2*27, e4 own 1*81 = 135; read from h4: 1*27 + 2*81 = 189.
		{start, "row4", "a4 b4 c4 d4 e4 f4 g4 h4", 135},
		// a5..h5: d5 own 27, e5 opponent 162 = 189; from h5: 54 + 81 = 135.
		{start, "row4", "a5 b5 c5 d5 e5 f5 g5 h5", 135},
		{start, "diag8", "a1 b2 c3 d4 e5 f6 g7 h8", 2*27 + 2*81},
		{start, "diag8", "a8 b7 c6 d5 e4 f3 g2 h1", 27 + 81},
		{start, "diag7", "b1 c2 d3 e4 f5 g6 h7", 27},
		{start, "edge+2X", "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", 0},
		{start, "row3", "a6 b6 c6 d6 e6 f6 g6 h6", 0},
		// White to move: d4 and e5 are its own.
		{white, "diag8", "a1 b2 c3 d4 e5 f6 g7 h8", 27 + 81},
		{white, "row4", "a4 b4 c4 d4 e4 f4 g4 h4", 135},
		// corner2x5 along rank 1: b1 own at 1 (3), a2 opponent at 5 (2*243).
		{lone, "corner2x5", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2", 3 + 486},
		// along file a: a2 opponent at 1 (6), b1 own at 5 (243).
		{lone, "corner2x5", "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5", 6 + 243},
		// corner3x3 by ranks 3 + 54 = 57, by files 6 + 27 = 33: the smaller.
		{lone, "corner3x3", "a1 b1 c1 a2 b2 c2 a3 b3 c3", 33},
		{lone, "edge+2X", "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", 3},
		// a1..a8 with b2, b7: a2 opponent at 1 (6); from a8: at 6 (2*729).
		{lone, "edge+2X", "a1 a2 a3 a4 a5 a6 a7 a8 b2 b7", 6},
	}
	for _, c := range cases {
		got := patternIndex(t, c.p.PatternIndices(nil), c.name, c.squares)
		if got != c.want {
			t.Errorf("%s on %s in %s: index %d, want %d", c.name, c.squares, c.p, got, c.want)
		}
	}
}

// symmetric returns b under symmetry k (0-7): bit 0 mirrors the files, bit
// 1 the ranks, bit 2 transposes (a1-h8 diagonal).
func symmetric(b Bitboard, k int) Bitboard {
	if k&4 != 0 {
		var t Bitboard
		for sq := 0; sq < 64; sq++ {
			if b&(1<<sq) != 0 {
				t |= 1 << (sq%8*8 + sq/8)
			}
		}
		b = t
	}
	if k&1 != 0 {
		b = bits.Reverse64(bits.ReverseBytes64(b)) // each rank reversed
	}
	if k&2 != 0 {
		b = bits.ReverseBytes64(b)
	}
	return b
}

// patternPositions returns every fifth position of count seeded random
// games.
func patternPositions(seed uint64, count int) []*Position {
	var out []*Position
	n := 0
	randomPositions(rand.New(rand.NewPCG(seed, 27)), count, func(p *Position) {
		if n++; n%5 == 0 {
			c := *p
			out = append(out, &c)
		}
	})
	return out
}

// classOf returns the class whose index range holds index i.
func classOf(classes []PatternClass, i int32) int {
	for k, c := range classes {
		if int(i) >= c.Offset && int(i) < c.Offset+c.Size {
			return k
		}
	}
	return -1
}

// TestPatternIndicesSymmetric checks that the eight symmetric images of a
// position give the same indices class by class, each in its class's range,
// and that swapping the colours and the side to move changes nothing.
func TestPatternIndicesSymmetric(t *testing.T) {
	classes := PatternClasses()
	positions := patternPositions(1, 40)
	buf := make([]int32, 0, PatternInstances)
	for _, p := range positions {
		want := slices.Clone(p.PatternIndices(buf))
		i := 0
		for k, c := range classes {
			for range c.Instances {
				if classOf(classes, want[i]) != k {
					t.Fatalf("%s: instance %d of %s has index %d, outside [%d, %d)", p, i, c.Name, want[i], c.Offset, c.Offset+c.Size)
				}
				i++
			}
			slices.Sort(want[i-len(c.Instances) : i])
		}
		for k := 1; k < 8; k++ {
			q := &Position{turn: p.turn}
			q.discs[0], q.discs[1] = symmetric(p.discs[0], k), symmetric(p.discs[1], k)
			got := q.PatternIndices(buf)
			sortByClass(classes, got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s under symmetry %d: indices\n%v, want\n%v", p, k, got, want)
			}
		}
		q := &Position{turn: p.turn ^ 1}
		q.discs[0], q.discs[1] = p.discs[1], p.discs[0]
		got := q.PatternIndices(buf)
		sortByClass(classes, got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s with colours swapped: indices\n%v, want\n%v", p, got, want)
		}
	}
}

func sortByClass(classes []PatternClass, indices []int32) {
	i := 0
	for _, c := range classes {
		slices.Sort(indices[i : i+len(c.Instances)])
		i += len(c.Instances)
	}
}

func TestPatternIndicesDoNotAllocate(t *testing.T) {
	positions := patternPositions(2, 2)
	buf := make([]int32, 0, PatternInstances)
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		buf = positions[i%len(positions)].PatternIndices(buf)
		i++
	})
	if allocs != 0 {
		t.Errorf("PatternIndices allocates %v times a call, want 0", allocs)
	}
	if len(buf) != PatternInstances {
		t.Errorf("%d indices, want %d", len(buf), PatternInstances)
	}
}

func BenchmarkPatternIndices(b *testing.B) {
	positions := patternPositions(3, 10)
	buf := make([]int32, 0, PatternInstances)
	patterns()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = positions[i%len(positions)].PatternIndices(buf)
		i++
	}
}

// TestPatternIndicesReference checks PatternIndices against each
// instance's squares read one by one in reading order, on random positions.
func TestPatternIndicesReference(t *testing.T) {
	classes := PatternClasses()
	canonical := patterns().canonical
	for _, p := range patternPositions(4, 20) {
		got := p.PatternIndices(nil)
		i := 0
		for _, c := range classes {
			for _, in := range c.Instances {
				r := 0
				for j := len(in) - 1; j >= 0; j-- {
					r = 3*r + bit(p.mine(), in[j]) + 2*bit(p.theirs(), in[j])
				}
				if want := canonical[c.Offset+r]; got[i] != want {
					t.Fatalf("%s: %s on %v: index %d, want %d (reading %d)", p, c.Name, in, got[i], want, r)
				}
				i++
			}
		}
	}
}
