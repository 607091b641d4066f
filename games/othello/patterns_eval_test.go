package othello

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

// quantizedPatternData draws table entries of deviation scale rounded to
// sixteenths, so that float32 sums of a few dozen of them are exact in any
// order: symmetric positions, whose instances come in another order, then
// sum to the same bits.
func quantizedPatternData(rng *rand.Rand, scale float64) []float32 {
	data := randomPatternData(rng, scale)
	for i, x := range data {
		data[i] = float32(math.Round(float64(x)*16) / 16)
		if data[i] == 0 {
			data[i] = 1.0 / 16
		}
	}
	return data
}

// patternReference computes p's feature values the slow way: the indices
// of PatternIndices, each canonical configuration's place in its class's
// table counted among the class's canonical indices in increasing order,
// the table found by name (TableOffset), and the scalars from the moves of
// both sides.
type patternReference struct {
	ev      *games.Evaluator
	classes []PatternClass
	place   map[int32]int // canonical index -> position in its class's row
	offsets []int         // each class's table offset in Data
	counts  []int
}

func newPatternReference(t *testing.T, ev *games.Evaluator) *patternReference {
	t.Helper()
	ref := &patternReference{ev: ev, classes: PatternClasses(), place: map[int32]int{}}
	canonical := patterns().canonical
	for _, c := range ref.classes {
		n := 0
		for r := c.Offset; r < c.Offset+c.Size; r++ {
			if canonical[r] == int32(r) {
				ref.place[int32(r)] = n
				n++
			}
		}
		off, table := ev.TableOffset(c.Name)
		if off < 0 || !slices.Equal(table.Shape, []int{PatternStages, n}) {
			t.Fatalf("table %s: offset %d shape %v, want shape [%d %d]", c.Name, off, table.Shape, PatternStages, n)
		}
		ref.offsets = append(ref.offsets, off)
		ref.counts = append(ref.counts, n)
	}
	return ref
}

// values returns p's feature values and the Data entries its instances
// read, instance by instance.
func (ref *patternReference) values(p *Position) (f []float64, entries []int) {
	f = make([]float64, len(ref.ev.Features))
	discs := popcount(p.discs[0] | p.discs[1])
	s := (discs - 4) * PatternStages / 61
	indices := p.PatternIndices(nil)
	i := 0
	for c, class := range ref.classes {
		var sum float32
		for range class.Instances {
			e := ref.offsets[c] + s*ref.counts[c] + ref.place[indices[i]]
			entries = append(entries, e)
			sum += ref.ev.Data[e]
			i++
		}
		f[c*PatternStages+s] = float64(sum)
	}
	mobility := len(legalList(p.mine(), p.theirs())) - len(legalList(p.theirs(), p.mine()))
	f[len(ref.classes)*PatternStages+s] = float64(mobility)
	f[len(ref.classes)*PatternStages+PatternStages+s] = float64(2*(discs%2) - 1) // odd empties when the discs are odd
	return f, entries
}

func dot(w, f []float64) float64 {
	v := 0.0
	for i := range f {
		v += w[i] * f[i]
	}
	return v
}

// TestPatternsEvaluate checks, on positions of random games with random
// tables and weights, that FeatureValues agrees with the slow reference,
// that Evaluate is their dot product rounded, and that Terms lists the
// entries the reference reads, whose sum with the scalars is the same
// score.
func TestPatternsEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	ev, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	ref := newPatternReference(t, ev)
	count := 200
	if testing.Short() {
		count = 40
	}
	f := make([]float64, len(ev.Features))
	terms := make([]games.TableTerm, 0, PatternInstances)
	n := 0
	for _, p := range patternPositions(5, count) {
		want, entries := ref.values(p)
		ev.FeatureValues(p, f)
		for i := range f {
			if math.Abs(f[i]-want[i]) > 1e-3 {
				t.Fatalf("%s: feature %s = %v, want %v", p, ev.Features[i].Name, f[i], want[i])
			}
		}
		terms = ev.Terms(p, terms)
		checkPatternTerms(t, ev, p, terms, entries, ref)
		for _, w := range [][]float64{ev.Defaults(), randomWeights(rng, ev, false), randomWeights(rng, ev, true)} {
			v := dot(w, f)
			got := ev.Evaluate(p, w)
			if math.Abs(float64(got)-v) > 0.5+1e-9 {
				t.Fatalf("%s: Evaluate %d, want round(%v)", p, got, v)
			}
			fromTerms := 0.0
			for _, tm := range terms {
				fromTerms += w[tm.Feature] * float64(tm.Coef) * float64(ev.Data[tm.Entry])
			}
			for i := range f {
				if !ev.IsScale(i) {
					fromTerms += w[i] * f[i]
				}
			}
			if math.Abs(float64(got)-fromTerms) > 0.5+1e-3 {
				t.Fatalf("%s: Evaluate %d, the terms sum to %v", p, got, fromTerms)
			}
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d positions", n)
	}
}

// checkPatternTerms checks that terms are the PatternInstances entries the
// reference reads, in its order, each scaled by its class's feature at p's
// stage and within that class's table.
func checkPatternTerms(t *testing.T, ev *games.Evaluator, p *Position, terms []games.TableTerm, entries []int, ref *patternReference) {
	t.Helper()
	if len(terms) != PatternInstances {
		t.Fatalf("%s: %d terms, want %d", p, len(terms), PatternInstances)
	}
	s := PatternStage(popcount(p.discs[0] | p.discs[1]))
	i := 0
	for c, class := range ref.classes {
		off, table := ev.TableOffset(class.Name)
		for range class.Instances {
			tm := terms[i]
			if int(tm.Entry) != entries[i] || tm.Coef != 1 || int(tm.Feature) != c*PatternStages+s {
				t.Fatalf("%s: term %d %+v, want entry %d, feature %d, coefficient 1", p, i, tm, entries[i], c*PatternStages+s)
			}
			if int(tm.Entry) < off || int(tm.Entry) >= off+table.Size() || ev.Features[tm.Feature].Table != class.Name {
				t.Fatalf("%s: term %d %+v outside table %s [%d, %d) or scaled by %s", p, i, tm, class.Name, off, off+table.Size(), ev.Features[tm.Feature].Name)
			}
			i++
		}
	}
}

// symmetricPosition returns p under board symmetry k, its moves kept.
func symmetricPosition(p *Position, k int) *Position {
	q := &Position{turn: p.turn}
	q.discs[0], q.discs[1] = symmetric(p.discs[0], k), symmetric(p.discs[1], k)
	q.legal = legalMoves(q.mine(), q.theirs())
	return q
}

// TestPatternsSymmetric checks that the eight symmetric images of a
// position evaluate alike: the pattern set is closed under the board's
// symmetries.
func TestPatternsSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	ev, err := patternsEvaluator.WithData(quantizedPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	f, g := make([]float64, len(ev.Features)), make([]float64, len(ev.Features))
	for _, p := range patternPositions(6, 10) {
		w := randomWeights(rng, ev, true)
		want := ev.Evaluate(p, w)
		ev.FeatureValues(p, f)
		for k := 1; k < 8; k++ {
			q := symmetricPosition(p, k)
			if got := ev.Evaluate(q, w); got != want {
				t.Fatalf("%s under symmetry %d: %d, want %d", p, k, got, want)
			}
			ev.FeatureValues(q, g)
			if !slices.Equal(f, g) {
				t.Fatalf("%s under symmetry %d: features\n%v, want\n%v", p, k, g, f)
			}
		}
	}
}

// TestPatternsBind checks that Bind gives an evaluator of the new data
// while the old one keeps its own, and that the shipped evaluator, whose
// tables are zero, scores mobility and parity alone.
// emptyPatterns is the patterns evaluator with all-zero tables.
var emptyPatterns = newPatternsEvaluator(make([]float32, layout().size))

func TestPatternsBind(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 4))
	first, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	positions := patternPositions(7, 4)
	w := first.Defaults()
	before := make([]int, len(positions))
	for i, p := range positions {
		before[i] = first.Evaluate(p, w)
	}
	second := first.Bind(randomPatternData(rng, 20))
	refFirst, refSecond := newPatternReference(t, first), newPatternReference(t, second)
	differ := 0
	for i, p := range positions {
		a, b := second.Evaluate(p, w), first.Evaluate(p, w)
		fa, _ := refSecond.values(p)
		fb, _ := refFirst.values(p)
		if a != int(math.Round(dot(w, fa))) || b != int(math.Round(dot(w, fb))) || b != before[i] {
			t.Fatalf("%s: bound %d, original %d (before binding %d), want %v and %v", p, a, b, before[i], math.Round(dot(w, fa)), math.Round(dot(w, fb)))
		}
		if a != b {
			differ++
		}
		wr := randomWeights(rng, patternsEvaluator, true)
		zero := emptyPatterns.Evaluate(p, wr)
		s := PatternStage(popcount(p.discs[0] | p.discs[1]))
		parity := -1.0
		if p.Empties()%2 == 1 {
			parity = 1
		}
		mobility := float64(len(legalList(p.mine(), p.theirs())) - len(legalList(p.theirs(), p.mine())))
		if want := math.Round(wr[patternMobility(s)]*mobility + wr[patternParity(s)]*parity); float64(zero) != want {
			t.Fatalf("%s: zero tables score %d, want %v", p, zero, want)
		}
	}
	if differ < len(positions)/2 {
		t.Errorf("the two data sets score %d of %d positions differently, want most", differ, len(positions))
	}
	if _, err := first.WithData(make([]float32, 10)); err == nil {
		t.Error("WithData takes 10 values")
	}
}

// legalList lists the squares where own can play, square by square.
func legalList(own, opp Bitboard) []int {
	var out []int
	for sq := range 64 {
		if (own|opp)&(1<<sq) == 0 && flips(own, opp, sq) != 0 {
			out = append(out, sq)
		}
	}
	return out
}

func TestPatternsDoNotAllocate(t *testing.T) {
	ev, w := benchPatterns(t)
	positions := patternPositions(8, 2)
	f := make([]float64, len(ev.Features))
	terms := make([]games.TableTerm, 0, PatternInstances)
	ev.Evaluate(positions[0], w)
	i := 0
	for name, call := range map[string]func(){
		"Evaluate":      func() { ev.Evaluate(positions[i%len(positions)], w) },
		"FeatureValues": func() { ev.FeatureValues(positions[i%len(positions)], f) },
		"Terms":         func() { terms = ev.Terms(positions[i%len(positions)], terms) },
	} {
		if allocs := testing.AllocsPerRun(100, func() { call(); i++ }); allocs != 0 {
			t.Errorf("%s allocates %v times a call, want 0", name, allocs)
		}
	}
}

// TestRoundEval checks roundEval against the rounding and bounds it
// replaces, on the halves, their neighbours, the bounds, the infinities,
// NaN and random values.
func TestRoundEval(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
		math.Nextafter(0.5, 1), math.Nextafter(-0.5, -1), 1 << 52, 1<<52 + 1, -(1<<53 + 2), 4503599627370495.5, -4503599627370495.5,
		games.MaxEval, games.MaxEval + 0.5, games.MaxEval - 0.5, -games.MaxEval - 0.5, -games.MaxEval + 0.5, math.Nextafter(games.MaxEval, 0),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	rng := rand.New(rand.NewPCG(56, 3))
	for range 100000 {
		xs = append(xs, (rng.Float64()-0.5)*math.Ldexp(1, rng.IntN(70)-10), float64(rng.IntN(2001)-1000)/2)
	}
	for _, x := range xs {
		if got, want := roundEval(x), int(max(-games.MaxEval, min(games.MaxEval, math.Round(x)))); got != want {
			t.Fatalf("roundEval(%v) = %v, want %v", x, got, want)
		}
	}
}

// TestPatternPlaces checks the places of the squares in the expanded
// tables' index: known answers for three classes (the squares nearest the
// centre least significant), and for every class a permutation of the
// places, so that placedReading maps the class's readings one to one onto
// its index range.
func TestPatternPlaces(t *testing.T) {
	known := map[string][]uint8{
		"edge+2X":   {8, 6, 4, 0, 1, 5, 7, 9, 2, 3},
		"corner3x3": {8, 6, 4, 7, 3, 1, 5, 2, 0},
		"row4":      {6, 4, 2, 0, 1, 3, 5, 7},
	}
	for c, class := range PatternClasses() {
		n := len(class.Squares)
		places := patternPlaces[c][:n]
		if want, ok := known[class.Name]; ok && !slices.Equal(places, want) {
			t.Errorf("%s: places %v, want %v", class.Name, places, want)
		}
		sorted := slices.Sorted(slices.Values(places))
		for j, p := range sorted {
			if int(p) != j {
				t.Fatalf("%s: places %v are not a permutation of 0-%d", class.Name, places, n-1)
			}
		}
		seen := make([]bool, class.Size)
		for r := range class.Size {
			placed := placedReading(c, r)
			if placed < 0 || placed >= class.Size || seen[placed] {
				t.Fatalf("%s: reading %d placed at %d, outside [0, %d) or taken", class.Name, r, placed, class.Size)
			}
			seen[placed] = true
		}
	}
}
