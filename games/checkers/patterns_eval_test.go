package checkers

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
	"github.com/gametune/gametune/weights"
)

// randomPatternData draws every table entry from a normal distribution of
// deviation scale (in hundredths of a man).
func randomPatternData(rng *rand.Rand, scale float64) []float32 {
	return gametest.RandomTables(rng, patternDataSize, scale)
}

// patternReference is p's table entries the slow way: the board turned
// square by square (s to 31-s) when White is to move, each region's
// squares read one by one in reading order, the tables found by name
// (TableOffset). entries[t] are the entries of table t (patternTables'
// order); the region tables hold one each.
func patternReference(t *testing.T, ev *games.Evaluator, p *Position) (entries [patternTableCount][]int) {
	t.Helper()
	var own, opp, ownKings, oppKings [32]bool
	for sq := range 32 {
		at := sq
		me, them := p.turn, p.turn.Other()
		if p.turn == games.Second {
			at = 31 - sq
		}
		own[sq], ownKings[sq] = p.pieces(me)&(1<<at) != 0, p.kings[me]&(1<<at) != 0
		opp[sq], oppKings[sq] = p.pieces(them)&(1<<at) != 0, p.kings[them]&(1<<at) != 0
	}
	stage := PatternStage(popcount(p.occupied()))
	for k := range patternRegions {
		off, table := ev.TableOffset(regionName(k))
		if off < 0 || !slices.Equal(table.Shape, []int{PatternStages, 6561}) {
			t.Fatalf("table %s at %d, shape %v", regionName(k), off, table.Shape)
		}
		r, digit := 0, 1
		for _, sq := range regionSquares(k) {
			if own[sq] {
				r += digit
			} else if opp[sq] {
				r += 2 * digit
			}
			digit *= 3
		}
		entries[k] = []int{off + stage*6561 + r}
	}
	off, _ := ev.TableOffset("kings")
	for side, kings := range [2]*[32]bool{&ownKings, &oppKings} {
		for sq, k := range kings {
			if k {
				entries[patternRegions] = append(entries[patternRegions], off+stage*64+side*32+sq)
			}
		}
	}
	return entries
}

// TestPatternsAgainstReference: with random tables and random weights, on
// thousands of positions of random games (both sides to move, kings
// included), FeatureValues holds full's values (x100) and each table's sum
// of the reference's entries, Evaluate is their dot product with the
// weights to its rounding, and Terms lists the reference's entries, each
// scaled by its table's feature, and adds up to Evaluate with the scalars.
func TestPatternsAgainstReference(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 4000
	}
	rng := rand.New(rand.NewPCG(28, 1))
	ev, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	f, full := make([]float64, len(ev.Features)), make([]float64, 10)
	var terms []games.TableTerm
	sides, kings := [2]int{}, 0
	for _, p := range randomPositions(t, rng, n) {
		w := gametest.RandomWeights(rng, ev)
		ev.FeatureValues(p, f)
		fullEvaluator.FeatureValues(p, full)
		if !slices.Equal(f[:10], full) {
			t.Fatalf("%s: full's features %v, want %v", p, f[:10], full)
		}
		ref := patternReference(t, ev, p)
		terms = ev.Terms(p, terms)
		var want []games.TableTerm
		for k, entries := range ref {
			sum := 0.0
			for _, e := range entries {
				sum += float64(ev.Data[e])
				want = append(want, games.TableTerm{Entry: int32(e), Feature: int32(10 + k), Coef: 1})
			}
			if f[10+k] != sum || ev.Features[10+k].Table != ev.Tables[k].Name {
				t.Fatalf("%s: feature %s = %v, the reference's entries of table %s sum to %v", p, ev.Features[10+k].Name, f[10+k], ev.Tables[k].Name, sum)
			}
		}
		if !slices.Equal(terms, want) {
			t.Fatalf("%s: terms\n%v, want\n%v", p, terms, want)
		}
		dot, fromTerms := 0.0, 0.0
		for i := range f {
			dot += w[i] * f[i]
			if i < 10 {
				fromTerms += w[i] * f[i]
			}
		}
		for _, tm := range terms {
			fromTerms += w[tm.Feature] * float64(tm.Coef) * float64(ev.Data[tm.Entry])
		}
		got := ev.Evaluate(p, w)
		if math.Abs(float64(got)-dot) > 0.5+1e-6 || math.Abs(float64(got)-fromTerms) > 0.5+1e-6 {
			t.Fatalf("%s: Evaluate %d, features·weights %v, terms %v", p, got, dot, fromTerms)
		}
		sides[p.turn]++
		if len(ref[patternRegions]) > 0 {
			kings++
		}
	}
	if sides[0] < n/3 || sides[1] < n/3 || kings < n/4 {
		t.Errorf("positions: %v by side to move, %d with kings", sides, kings)
	}
}

// TestPatternsZeroTablesAreFull: with every table zero, the evaluator
// scores exactly as full, with full's defaults and with random weights,
// whatever the scales, on thousands of positions.
func TestPatternsZeroTablesAreFull(t *testing.T) {
	ev := newPatternsEvaluator(make([]float32, patternDataSize))
	if want := append(fullEvaluator.Defaults(), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1); !slices.Equal(ev.Scratch, want) {
		t.Fatalf("Scratch %v, want %v", ev.Scratch, want)
	}
	rng := rand.New(rand.NewPCG(28, 2))
	n := 0
	for _, p := range randomPositions(t, rng, 10000) {
		for _, w := range [][]float64{ev.Scratch, gametest.RandomWeights(rng, ev)} {
			if got, want := ev.Evaluate(p, w), fullEvaluator.Evaluate(p, w[:10]); got != want {
				t.Fatalf("%s with weights %v: %d, full %d", p, w, got, want)
			}
			n++
		}
	}
	if n < 20000 {
		t.Errorf("%d evaluations", n)
	}
}

// twin returns p with the board turned half round, the colours swapped
// and the other side to move: the same position for the side to move.
func twin(p *Position) *Position {
	q := &Position{turn: p.turn.Other()}
	for side := range 2 {
		q.men[1-side], q.kings[1-side] = reverse(p.men[side]), reverse(p.kings[side])
	}
	q.hash = q.computeHash()
	return q
}

// reverse turns b half round square by square.
func reverse(b Bitboard) Bitboard {
	var r Bitboard
	for sq := range 32 {
		if b&(1<<sq) != 0 {
			r |= 1 << (31 - sq)
		}
	}
	return r
}

// TestPatternsColourSymmetry: a position and its twin with the colours
// swapped (twin) have the same features, terms and score.
func TestPatternsColourSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	ev, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	f, g := make([]float64, len(ev.Features)), make([]float64, len(ev.Features))
	for _, p := range randomPositions(t, rng, 5000) {
		q := twin(p)
		w := gametest.RandomWeights(rng, ev)
		ev.FeatureValues(p, f)
		ev.FeatureValues(q, g)
		if !slices.Equal(f, g) {
			t.Fatalf("%s: features\n%v, its twin %s\n%v", p, f, q, g)
		}
		if a, b := ev.Evaluate(p, w), ev.Evaluate(q, w); a != b {
			t.Fatalf("%s scores %d, its twin %s %d", p, a, q, b)
		}
		if a, b := ev.Terms(p, nil), ev.Terms(q, nil); !slices.Equal(a, b) {
			t.Fatalf("%s: terms %v, its twin's %v", p, a, b)
		}
	}
}

// TestPatternsKnown checks entries worked out by hand: the start position
// with either side to move, and a black king on 11 facing a white man on
// 32, White to move (the board turned: the white man on square 0, the king
// on 21).
func TestPatternsKnown(t *testing.T) {
	region := func(k, reading, stage int) games.TableTerm {
		return games.TableTerm{Entry: int32(k*4*6561 + stage*6561 + reading), Feature: int32(10 + k), Coef: 1}
	}
	startBlack := Start()
	startWhite, _ := Parse("W" + StartNotation[1:])
	lone, err := Parse("W:W32:BK11")
	if err != nil {
		t.Fatal(err)
	}
	// The start: own men on 0-11 (r0c0 reads 1+3+9+27+81+243 = 364 on
	// squares 0, 1, 4, 5, 8, 9), the opponent's on 20-31 (r4c4, squares
	// 18, 19, 22, 23, 26, 27, 30, 31, reads 2*(9+...+2187) = 6552).
	for _, p := range []*Position{startBlack, startWhite} {
		terms := patternsEvaluator.Terms(p, nil)
		if len(terms) != 9 || terms[0] != region(0, 364, 0) || terms[8] != region(8, 6552, 0) {
			t.Errorf("%s: terms %v", p, terms)
		}
	}
	want := []games.TableTerm{
		region(0, 1, 3), region(1, 0, 3), region(2, 0, 3),
		region(3, 2*2187, 3), region(4, 2*729, 3), region(5, 0, 3),
		region(6, 2*27, 3), region(7, 2*9, 3), region(8, 0, 3),
		{Entry: 9*4*6561 + 3*64 + 32 + 21, Feature: 19, Coef: 1},
	}
	if got := patternsEvaluator.Terms(lone, nil); !slices.Equal(got, want) {
		t.Errorf("%s: terms\n%v, want\n%v", lone, got, want)
	}
}

// TestPatternRegions: each region is a 4x4 block of the board, rows and
// columns from its corner, with 8 dark squares; every square lies in 1 to
// 4 regions, the corner squares 0 and 31 in one, the centre's in four.
func TestPatternRegions(t *testing.T) {
	var covered [32]int
	for k := range patternRegions {
		r0, c0 := regionRowCol(k)
		var mask Bitboard
		for _, sq := range regionSquares(k) {
			r, c := rowCol(sq)
			if r < r0 || r > r0+3 || c < c0 || c > c0+3 || mask&(1<<sq) != 0 {
				t.Errorf("region %s: square %d at row %d, column %d", regionName(k), sq, r, c)
			}
			mask |= 1 << sq
			covered[sq]++
		}
		if mask != regionMask(k) {
			t.Errorf("region %s: mask %#x, squares %#x", regionName(k), regionMask(k), mask)
		}
	}
	for sq, n := range covered {
		if n < 1 || n > 4 {
			t.Errorf("square %d in %d regions", sq, n)
		}
	}
	if covered[0] != 1 || covered[31] != 1 || covered[13] != 4 || covered[18] != 4 {
		t.Errorf("coverage %v", covered)
	}
}

// TestPatternsShipped: the shipped file parses against the registered
// game; the registered evaluator, third after paper and full, holds its
// tables and its weights as defaults, with full's defaults and scales of 1
// as Scratch.
func TestPatternsShipped(t *testing.T) {
	evs := Game().Evaluators()
	if len(evs) != 3 || evs[0].Name != "paper" || evs[1].Name != "full" || evs[2].Name != "patterns" {
		t.Fatalf("evaluators %v", evs)
	}
	ev, w, err := weights.Parse(shippedWeights, Game())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(evs[2].Defaults(), w) || !games.SameData(evs[2].Data, ev.Data) || len(ev.Data) != patternDataSize {
		t.Errorf("the registered evaluator's defaults %v, the file's %v (or their tables differ)", evs[2].Defaults(), w)
	}
	if want := append(fullEvaluator.Defaults(), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1); !slices.Equal(evs[2].Scratch, want) {
		t.Errorf("Scratch %v, want %v", evs[2].Scratch, want)
	}
}

// TestPatternsBind: WithData gives an evaluator of the new tables while
// the first keeps its own; the compact file (float32) carries them exactly;
// tables of the wrong length are refused.
func TestPatternsBind(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 4))
	first, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	second, err := first.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := gametest.RandomWeights(rng, first)
	if err := weights.WriteWith(&buf, Game(), second, w, nil, weights.Options{Encoding: weights.EncodingFloat32}); err != nil {
		t.Fatal(err)
	}
	read, rw, err := weights.Parse(buf.Bytes(), Game())
	if err != nil || !slices.Equal(rw, w) || !games.SameData(read.Data, second.Data) {
		t.Fatalf("read back: %v, weights %v (want %v)", err, rw, w)
	}
	differ := 0
	positions := randomPositions(t, rng, 200)
	for _, p := range positions {
		a, b, c := first.Evaluate(p, w), second.Evaluate(p, w), read.Evaluate(p, w)
		if b != c {
			t.Fatalf("%s: %d, read back %d", p, b, c)
		}
		if a != b {
			differ++
		}
	}
	if differ < len(positions)*3/4 {
		t.Errorf("two random tables score %d of %d positions differently", differ, len(positions))
	}
	if _, err := first.WithData(make([]float32, patternDataSize-1)); err == nil {
		t.Error("WithData takes one value too few")
	}
}

func TestPatternsDoNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 5))
	ev, err := patternsEvaluator.WithData(randomPatternData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	positions := randomPositions(t, rng, 100)
	w, f := ev.Defaults(), make([]float64, len(ev.Features))
	terms := make([]games.TableTerm, 0, patternMaxTerms)
	i := 0
	for name, call := range map[string]func(){
		"Evaluate":      func() { ev.Evaluate(positions[i%len(positions)], w) },
		"FeatureValues": func() { ev.FeatureValues(positions[i%len(positions)], f) },
		"Terms":         func() { terms = ev.Terms(positions[i%len(positions)], terms) },
	} {
		if allocs := testing.AllocsPerRun(200, func() { call(); i++ }); allocs != 0 {
			t.Errorf("%s allocates %v times a call, want 0", name, allocs)
		}
	}
}
