package chess

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
)

// randomPSTData draws every table entry from a normal distribution of
// deviation scale.
func randomPSTData(rng *rand.Rand, scale float64) []float32 {
	return gametest.RandomTables(rng, pstSize, scale)
}

// quantizedPSTData is randomPSTData rounded to sixteenths, so that float32
// sums of a few dozen entries are exact in any order.
func quantizedPSTData(rng *rand.Rand, scale float64) []float32 {
	data := randomPSTData(rng, scale)
	for i, x := range data {
		data[i] = float32(math.Round(float64(x)*16) / 16)
	}
	return data
}

func dot(w, f []float64) float64 {
	v := 0.0
	for i := range f {
		v += w[i] * f[i]
	}
	return v
}

// slowPassed reports whether side c's pawn on sq has no enemy pawn ahead
// on its file or the next ones, square by square.
func slowPassed(p *Position, c, sq int) bool {
	file, rank := sq%8, sq/8
	step := 1
	if c == black {
		step = -1
	}
	for r := rank + step; r >= 0 && r < 8; r += step {
		for f := max(0, file-1); f <= min(7, file+1); f++ {
			s := r*8 + f
			if p.kind[s] == Pawn && p.colorAt(s) != c {
				return false
			}
		}
	}
	return true
}

// pstReference computes p's table features the slow way, square by square:
// the phase from the pieces counted, each piece's entries found by table
// name (TableOffset) and square seen from its owner's side, its mobility
// and its side's king-attack units counted square by square. It returns
// the table values (phase*mg + (1-phase)*eg, the side to move's minus the
// opponent's) and how many terms the position activates.
func pstReference(t *testing.T, ev *games.Evaluator, p *Position) (values [pstTables]float64, terms int) {
	n := 0
	for sq := range 64 {
		n += [7]int{0, 1, 1, 2, 4, 0, 0}[p.kind[sq]]
	}
	phase := float64(min(n, 24)) / 24
	// addAt adds side c's entries at index i of table name.
	addAt := func(name string, c, i int) {
		off, table := ev.TableOffset(name)
		if off < 0 || !slices.Equal(table.Shape, []int{2, 64}) {
			t.Fatalf("table %s: offset %d, shape %v, want [2 64]", name, off, table.Shape)
		}
		sign := 1.0
		if c != p.turn {
			sign = -1
		}
		ti := slices.Index(pstTableNames[:], name)
		values[ti] += sign * (phase*float64(ev.Data[off+i]) + (1-phase)*float64(ev.Data[off+64+i]))
		terms += 2
	}
	add := func(name string, c, sq int) {
		if c == black {
			sq = (7-sq/8)*8 + sq%8
		}
		addAt(name, c, sq)
	}
	units := [2]int{}
	for sq := range 64 {
		k := int(p.kind[sq])
		if k == noPiece {
			continue
		}
		c := p.colorAt(sq)
		add([6]string{"pawn", "knight", "bishop", "rook", "queen", "king"}[k], c, sq)
		if k == Pawn && slowPassed(p, c, sq) {
			add("passed", c, sq)
		}
		if k < Knight || k > Queen {
			continue
		}
		mobility, ek := 0, p.kingSquare(c^1)
		for a := range 64 {
			if slowAttacks(p, k, sq)&(1<<a) == 0 {
				continue
			}
			if (p.kind[a] == noPiece || p.colorAt(a) != c) && !slowPawnAttacked(p, c^1, a) {
				mobility++
			}
			if max(a%8-ek%8, ek%8-a%8, a/8-ek/8, ek/8-a/8) <= 1 {
				units[c] += [6]int{Knight: 2, Bishop: 2, Rook: 3, Queen: 5}[k]
			}
		}
		addAt([6]string{Knight: "knight-mobility", Bishop: "bishop-mobility", Rook: "rook-mobility", Queen: "queen-mobility"}[k], c, mobility)
	}
	for c, u := range units {
		addAt("king-attack", c, min(u, 39))
	}
	for sq := range 64 {
		if k := int(p.kind[sq]); k != noPiece && k != King {
			d := p.colorAt(sq)
			if e, ok := slowThreat(p, sq); ok {
				addAt(map[bool]string{true: "threats-by-mover", false: "threats-on-mover"}[d^1 == p.turn], d^1, e)
			}
		}
	}
	for c := range 2 {
		for _, e := range slowShelter(p, c) {
			addAt("pawn-shelter", c, e)
		}
		for k := Knight; k <= Queen; k++ {
			if n, ok := slowChecks(p, c, k); ok {
				addAt("safe-checks", c, 16*(k-Knight)+min(n, 15))
			}
		}
	}
	return values, terms
}

// slowShelter returns side c's pawn-shelter entries found by walking, on
// each of the three files about its king, from the king's rank forward.
func slowShelter(p *Position, c int) []int {
	ks := p.kingSquare(c)
	kf := min(max(ks%8, 1), 6)
	var entries []int
	for _, storm := range []bool{false, true} {
		for f := kf - 1; f <= kf+1; f++ {
			found := 0
			for r := ks / 8; r >= 0 && r < 8 && found == 0; r += 1 - 2*c {
				if sq := r*8 + f; p.kind[sq] == Pawn && (p.colorAt(sq) == c) != storm {
					found = r
					if c == black {
						found = 7 - r
					}
				}
			}
			entries = append(entries, map[bool]int{false: 0, true: 32}[storm]+8*min(f, 7-f)+found)
		}
	}
	return entries
}

// slowChecks counts side c's safe checks of kind k square by square, and
// whether c has a piece of that kind.
func slowChecks(p *Position, c, k int) (int, bool) {
	ek := p.kingSquare(c ^ 1)
	attacked := func(side, k, a int) bool { // by a piece of side of kind k (-1: any)
		for sq := range 64 {
			pk := int(p.kind[sq])
			if pk == noPiece || p.colorAt(sq) != side || (k >= 0 && pk != k) {
				continue
			}
			switch {
			case pk == Pawn && slowPawnAttacked(p, side, a):
				return true
			case pk == King && max(a%8-sq%8, sq%8-a%8, a/8-sq/8, sq/8-a/8) == 1:
				return true
			case pk >= Knight && pk <= Queen && slowAttacks(p, pk, sq)&(1<<a) != 0:
				return true
			}
		}
		return false
	}
	has, n := false, 0
	for sq := range 64 {
		has = has || int(p.kind[sq]) == k && p.colorAt(sq) == c
	}
	for a := range 64 {
		if slowAttacks(p, k, a)&(1<<ek) == 0 || (p.kind[a] != noPiece && p.colorAt(a) == c) {
			continue
		}
		if attacked(c, k, a) && !attacked(c^1, -1, a) {
			n++
		}
	}
	return n, has
}

// TestPSTZeroTablesIsTextbook checks, on thousands of positions of random
// games, that the pst evaluator with tables of zeros scores exactly as
// textbook, with the Scratch weights and with random ones.
func TestPSTZeroTablesIsTextbook(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	scratch, tw := emptyPST.Scratch, textbookEvaluator.Defaults()
	if len(scratch) != pstFeatureCount || !slices.Equal(scratch[:pstScalars], tw) {
		t.Fatalf("Scratch %v, want textbook's defaults %v then 1 per table", scratch, tw)
	}
	for i := pstScalars; i < pstFeatureCount; i++ {
		if scratch[i] != 1 || emptyPST.Features[i].Table != pstTableNames[i-pstScalars] {
			t.Fatalf("feature %s: scratch %v, table %q", emptyPST.Features[i].Name, scratch[i], emptyPST.Features[i].Table)
		}
	}
	f, g := make([]float64, pstFeatureCount), make([]float64, pstScalars)
	n := 0
	randomPositions(t, 40, func(p *Position, _ []games.Move) {
		if got, want := emptyPST.Evaluate(p, scratch), textbookEvaluator.Evaluate(p, tw); got != want {
			t.Fatalf("%s: pst with zero tables %d, textbook %d", p, got, want)
		}
		w := gametest.RandomWeights(rng, emptyPST)
		if got, want := emptyPST.Evaluate(p, w), textbookEvaluator.Evaluate(p, w[:pstScalars]); got != want {
			t.Fatalf("%s: pst with zero tables and weights %v: %d, textbook %d", p, w, got, want)
		}
		emptyPST.FeatureValues(p, f)
		textbookEvaluator.FeatureValues(p, g)
		if !slices.Equal(f[:pstScalars], g) || slices.ContainsFunc(f[pstScalars:], func(x float64) bool { return x != 0 }) {
			t.Fatalf("%s: features %v, want textbook's %v then zeros", p, f, g)
		}
		n++
	})
	if n < 3000 {
		t.Errorf("only %d positions", n)
	}
}

// TestPSTEvaluate checks, on positions of random games (either side to
// move) with random tables and weights, that FeatureValues agrees with the
// slow reference, that Evaluate is round(w . FeatureValues), and that Terms
// list the entries whose sum, by table, is its feature. With the
// king-safety tables zero (as shipped), which Evaluate then leaves out,
// Evaluate is still round(w . FeatureValues).
func TestPSTEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 2))
	data := randomPSTData(rng, 30)
	ev, err := pstEvaluator.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	noKing := slices.Clone(data)
	clear(noKing[pstShelter*pstTableSize : (pstChecks+1)*pstTableSize])
	evNoKing, err := pstEvaluator.WithData(noKing)
	if err != nil {
		t.Fatal(err)
	}
	fNoKing := make([]float64, pstFeatureCount)
	f := make([]float64, pstFeatureCount)
	g := make([]float64, pstScalars)
	terms := make([]games.TableTerm, 0, 96)
	n, sides := 0, [2]int{}
	randomPositions(t, 30, func(p *Position, _ []games.Move) {
		want, count := pstReference(t, ev, p)
		ev.FeatureValues(p, f)
		textbookEvaluator.FeatureValues(p, g)
		if !slices.Equal(f[:pstScalars], g) {
			t.Fatalf("%s: scalar features %v, want textbook's %v", p, f[:pstScalars], g)
		}
		for i, x := range want {
			if math.Abs(f[pstScalars+i]-x) > 1e-3 {
				t.Fatalf("%s: feature %s = %v, want %v", p, ev.Features[pstScalars+i].Name, f[pstScalars+i], x)
			}
		}
		terms = ev.Terms(p, terms)
		if len(terms) != count {
			t.Fatalf("%s: %d terms, want %d", p, len(terms), count)
		}
		var byTable [pstFeatureCount]float64
		for _, tm := range terms {
			if tm.Feature < pstScalars || tm.Feature >= pstFeatureCount || tm.Entry < 0 || int(tm.Entry) >= pstSize {
				t.Fatalf("%s: term %+v out of range", p, tm)
			}
			if off, table := ev.TableOffset(ev.Features[tm.Feature].Table); int(tm.Entry) < off || int(tm.Entry) >= off+table.Size() {
				t.Fatalf("%s: term %+v outside its scale's table %s", p, tm, table.Name)
			}
			byTable[tm.Feature] += float64(tm.Coef) * float64(ev.Data[tm.Entry])
		}
		for i := pstScalars; i < pstFeatureCount; i++ {
			if math.Abs(byTable[i]-f[i]) > 1e-3 {
				t.Fatalf("%s: the terms of %s sum to %v, its feature %v", p, ev.Features[i].Name, byTable[i], f[i])
			}
		}
		evNoKing.FeatureValues(p, fNoKing)
		for _, w := range [][]float64{ev.Defaults(), gametest.RandomWeights(rng, ev)} {
			if got, v := ev.Evaluate(p, w), dot(w, f); math.Abs(float64(got)-v) > 0.5+1e-9 {
				t.Fatalf("%s: Evaluate %d, want round(%v)", p, got, v)
			}
			if got, v := evNoKing.Evaluate(p, w), dot(w, fNoKing); math.Abs(float64(got)-v) > 0.5+1e-9 {
				t.Fatalf("%s: Evaluate %d with zero king-safety tables, want round(%v)", p, got, v)
			}
		}
		n++
		sides[p.turn]++
	})
	if n < 2000 || sides[white] < n/3 || sides[black] < n/3 {
		t.Errorf("%d positions, %v by side to move", n, sides)
	}
}

// mirrorFEN returns fen with the board turned upside down, the colours
// swapped and the other side to move.
func mirrorFEN(fen string) string {
	fields := strings.Fields(fen)
	ranks := strings.Split(fields[0], "/")
	slices.Reverse(ranks)
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	fields[0] = swap(strings.Join(ranks, "/"))
	fields[1] = map[string]string{"w": "b", "b": "w"}[fields[1]]
	if fields[2] != "-" {
		rights := []byte(swap(fields[2]))
		slices.SortFunc(rights, func(a, b byte) int { return strings.IndexByte("KQkq", a) - strings.IndexByte("KQkq", b) })
		fields[2] = string(rights)
	}
	if fields[3] != "-" {
		fields[3] = fields[3][:1] + map[byte]string{'3': "6", '6': "3"}[fields[3][1]]
	}
	return strings.Join(fields, " ")
}

// TestPSTColourSymmetric checks that a position and its twin with the
// colours swapped, the board upside down and the other side to move
// evaluate alike, with tables of sixteenths (exact sums in any order).
func TestPSTColourSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	ev, err := pstEvaluator.WithData(quantizedPSTData(rng, 30))
	if err != nil {
		t.Fatal(err)
	}
	f, g := make([]float64, pstFeatureCount), make([]float64, pstFeatureCount)
	n := 0
	randomPositions(t, 20, func(p *Position, _ []games.Move) {
		q, err := Parse(mirrorFEN(p.String()))
		if err != nil {
			t.Fatalf("%s mirrored: %v", p, err)
		}
		w := gametest.RandomWeights(rng, ev)
		if a, b := ev.Evaluate(p, w), ev.Evaluate(q, w); a != b {
			t.Fatalf("%s: %d, mirrored %s: %d", p, a, q, b)
		}
		ev.FeatureValues(p, f)
		ev.FeatureValues(q, g)
		if !slices.Equal(f, g) {
			t.Fatalf("%s: features\n%v, mirrored %s\n%v", p, f, q, g)
		}
		n++
	})
	if n < 1000 {
		t.Errorf("only %d positions", n)
	}
}

func TestPSTDoesNotAllocate(t *testing.T) {
	ev, w := benchPST(t)
	p, _ := Parse(perftSuite[1].fen)
	f := make([]float64, pstFeatureCount)
	terms := make([]games.TableTerm, 0, 96)
	for name, call := range map[string]func(){
		"Evaluate":      func() { ev.Evaluate(p, w) },
		"FeatureValues": func() { ev.FeatureValues(p, f) },
		"Terms":         func() { terms = ev.Terms(p, terms) },
	} {
		if allocs := testing.AllocsPerRun(100, call); allocs != 0 {
			t.Errorf("%s allocates %v times a call, want 0", name, allocs)
		}
	}
}
