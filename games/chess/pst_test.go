package chess

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/gametest"
	"github.com/gametune/gametune/weights"
)

var writePST = flag.Bool("write-pst", false, "rewrite pst.gtw: the pst evaluator with tables of zeros and its Scratch weights")

// emptyPST is the pst evaluator with tables of zeros.
var emptyPST = newPSTEvaluator(make([]float32, pstSize))

// TestWritePSTZero writes the compact weights file of tables of zeros and
// the Scratch weights, and checks that it reads back as such; with
// -write-pst it rewrites pst.gtw, the shipped default, with it.
func TestWritePSTZero(t *testing.T) {
	var b bytes.Buffer
	source := map[string]any{"made": "tables of zeros, textbook's weights: go test ./games/chess -run TestWritePSTZero -write-pst"}
	if err := weights.Write(&b, Game(), emptyPST, emptyPST.Scratch, source); err != nil {
		t.Fatal(err)
	}
	ev, w, err := weights.Parse(b.Bytes(), Game())
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "pst" || !slices.Equal(w, emptyPST.Scratch) || slices.ContainsFunc(ev.Data, func(v float32) bool { return v != 0 }) {
		t.Fatalf("the zero file reads back as %s, weights %v, tables not all zero", ev.Name, w)
	}
	if *writePST {
		if err := os.WriteFile("pst.gtw", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPSTRegistered checks that pst comes after textbook (the default) and
// article, and that the shipped file reads as pst's defaults and tables.
func TestPSTRegistered(t *testing.T) {
	var names []string
	for _, ev := range Game().Evaluators() {
		names = append(names, ev.Name)
	}
	if !slices.Equal(names, []string{"textbook", "article", "pst"}) {
		t.Fatalf("evaluators %v, want textbook, article, pst", names)
	}
	ev, w, err := weights.Parse(shippedWeights, Game())
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "pst" || !slices.Equal(w, pstEvaluator.Defaults()) || !games.SameData(ev.Data, pstEvaluator.Data) || len(ev.Data) != pstSize {
		t.Fatalf("the shipped file reads as %s with weights %v, its data differing from pst's", ev.Name, w)
	}
	if err := pstEvaluator.Check(pstEvaluator.Defaults()); err != nil {
		t.Fatal(err)
	}
}

// pstData returns tables of zeros but for the entries given, each named
// table, phase (0 middlegame, 1 endgame) and square (from the owner's side).
func pstData(t *testing.T, entries map[[3]string]float32) []float32 {
	t.Helper()
	data := make([]float32, pstSize)
	for k, v := range entries {
		off, _ := emptyPST.TableOffset(k[0])
		sq, ok := parseSquare(k[2])
		if n, err := strconv.Atoi(strings.TrimPrefix(k[2], "#")); err == nil && k[2][0] == '#' {
			sq, ok = n, n < 64
		}
		if off < 0 || !ok {
			t.Fatalf("entry %v: table offset %d, square read %v", k, off, ok)
		}
		data[off+map[string]int{"mg": 0, "eg": 64}[k[1]]+sq] = v
	}
	return data
}

// TestPSTKnownAnswers scores positions worked out by hand: each table's
// feature (its entries, tapered, the side to move's minus the opponent's),
// and Evaluate textbook's sum plus the features times their scales.
func TestPSTKnownAnswers(t *testing.T) {
	ev, err := emptyPST.WithData(pstData(t, map[[3]string]float32{
		{"knight", "mg", "e4"}: 24, {"knight", "eg", "e4"}: 48,
		{"passed", "eg", "e5"}: 40, {"passed", "eg", "c2"}: 8, {"pawn", "eg", "e5"}: 4,
		{"king", "eg", "e1"}: -10,
	}))
	if err != nil {
		t.Fatal(err)
	}
	w := ev.Defaults()
	w[pstScale(Knight)] = 0.5
	w[pstScale(pstPassed)] = 2
	cases := []struct {
		fen  string
		want map[string]float64 // table -> feature value; the others 0
	}{
		// Phase 1/24: 24/24 + 48*23/24 = 47; the kings' -10 cancel.
		{"4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", map[string]float64{"knight": 47}},
		// The same for Black (e5 is its e4), from Black's side and White's.
		{"4k3/8/8/4n3/8/8/8/4K3 b - - 0 1", map[string]float64{"knight": 47}},
		{"4k3/8/8/4n3/8/8/8/4K3 w - - 0 1", map[string]float64{"knight": -47}},
		// Phase 0: white's e5 pawn is passed (40), black's c7 pawn too (c2
		// from its side: 8).
		{"4k3/2p5/8/4P3/8/8/8/4K3 w - - 0 1", map[string]float64{"pawn": 4, "passed": 32}},
		// Black's d6 pawn stands ahead of e5 on the next file: e5 is not
		// passed, nor is d6 (e5 is ahead of it).
		{"4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1", map[string]float64{"pawn": -4}},
	}
	f, g := make([]float64, pstFeatureCount), make([]float64, pstScalars)
	for _, c := range cases {
		p, err := Parse(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		ev.FeatureValues(p, f)
		want := 0.0
		for i, name := range pstTableNames {
			if x := f[pstScale(i)]; math.Abs(x-c.want[name]) > 1e-9 {
				t.Errorf("%s: %s table %v, want %v", c.fen, name, x, c.want[name])
			}
			want += w[pstScale(i)] * c.want[name]
		}
		textbookEvaluator.FeatureValues(p, g)
		want += dot(w[:pstScalars], g)
		if got := ev.Evaluate(p, w); math.Abs(float64(got)-want) > 0.5+1e-9 {
			t.Errorf("%s: %d, want round(%v)", c.fen, got, want)
		}
	}
}

// TestPSTBindRoundTrip checks that WithData and Bind give evaluators of
// their own data, leaving the original's alone, and that a bound
// evaluator's tables go through a weights file and back bit for bit.
func TestPSTBindRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 5))
	first, err := emptyPST.WithData(randomPSTData(rng, 20))
	if err != nil {
		t.Fatal(err)
	}
	second := first.Bind(randomPSTData(rng, 20))
	w := gametest.RandomWeights(rng, first)
	var positions []*Position
	randomPositions(t, 4, func(p *Position, _ []games.Move) { positions = append(positions, p.Clone().(*Position)) })
	differ := 0
	for _, p := range positions {
		a, b, zero := first.Evaluate(p, w), second.Evaluate(p, w), emptyPST.Evaluate(p, w)
		if zero != textbookEvaluator.Evaluate(p, w[:pstScalars]) {
			t.Fatalf("%s: the zero tables score %d after binding, textbook %d", p, zero, textbookEvaluator.Evaluate(p, w[:pstScalars]))
		}
		if a != b {
			differ++
		}
	}
	if differ < len(positions)/2 {
		t.Errorf("two random table sets score %d of %d positions differently, want most", differ, len(positions))
	}
	var buf bytes.Buffer
	if err := weights.WriteWith(&buf, Game(), second, w, nil, weights.Options{Encoding: weights.EncodingFloat32}); err != nil {
		t.Fatal(err)
	}
	back, wb, err := weights.Parse(buf.Bytes(), Game())
	if err != nil {
		t.Fatal(err)
	}
	if !games.SameData(back.Data, second.Data) || !slices.Equal(wb, w) {
		t.Fatal("the tables or weights changed through the file")
	}
	for _, p := range positions {
		if a, b := back.Evaluate(p, wb), second.Evaluate(p, w); a != b {
			t.Fatalf("%s: read back %d, written %d", p, a, b)
		}
	}
	if _, err := first.WithData(make([]float32, pstSize-1)); err == nil {
		t.Errorf("WithData takes %d values, want an error (pst has %d)", pstSize-1, pstSize)
	}
}

// TestPSTPictures checks the heatmaps' order, titles and squares: a table
// with one entry shows it, times its scale, on its square with rank 8 at
// the top; pawn and passed tables have nothing on ranks 1 and 8.
func TestPSTPictures(t *testing.T) {
	data := pstData(t, map[[3]string]float32{{"knight", "eg", "e4"}: 12.5, {"pawn", "mg", "a7"}: 3, {"king", "mg", "g1"}: -7,
		{"rook-mobility", "mg", "#7"}: 4, {"king-attack", "eg", "#39"}: -2, {"queen-mobility", "eg", "#28"}: 99,
		{"threats-on-mover", "mg", "#9"}: 5, {"threats-by-mover", "eg", "#60"}: 99,
		{"pawn-shelter", "mg", "#10"}: 6, {"pawn-shelter", "eg", "#39"}: 8, {"safe-checks", "eg", "#50"}: -4})
	w := emptyPST.Defaults()
	w[pstScale(Knight)] = 2
	boards := emptyPST.Pictures(data, w)
	if len(boards) != 2*pstTables {
		t.Fatalf("%d boards, want %d", len(boards), 2*pstTables)
	}
	for i, b := range boards {
		title := pstTableNames[i/2] + []string{" middlegame", " endgame"}[i%2]
		if i/2 >= pstMobility {
			checkCountPicture(t, b, title, i/2)
			continue
		}
		if b.Title != title || b.Files != 8 || b.Ranks != 8 || len(b.Heat) != 64 || b.Marks != "" || b.Columns != nil {
			t.Fatalf("board %d: %q %dx%d, %d values, want %q 8x8 and 64", i, b.Title, b.Files, b.Ranks, len(b.Heat), title)
		}
		pawnLike := i/2 == Pawn || i/2 == pstPassed
		for sq, v := range b.Heat {
			want := 0.0
			switch {
			case pawnLike && (sq < 8 || sq >= 56):
				want = math.NaN()
			case title == "knight endgame" && sq == 4*8+4: // row 4 (rank 4), file e
				want = 25
			case title == "pawn middlegame" && sq == 1*8+0: // row 1 (rank 7), file a
				want = 3
			case title == "king middlegame" && sq == 7*8+6: // row 7 (rank 1), file g
				want = -7
			}
			if v != want && !(math.IsNaN(v) && math.IsNaN(want)) {
				t.Errorf("%s: square %d (row %d, file %d) %v, want %v", title, sq, sq/8, sq%8, v, want)
			}
		}
	}
	if emptyPST.Pictures(data[1:], w) != nil || emptyPST.Pictures(data, w[1:]) != nil {
		t.Error("Pictures draws tables or weights of the wrong length")
	}
}

// checkCountPicture checks the picture of count table tbl: one row of its
// counts, each column named by its count (a threat table's by
// threatColumns, a king-safety table's by kingColumns); rook-mobility's
// middlegame entry 7 is 4, king-attack's endgame entry 39 is -2,
// threats-on-mover's middlegame entry 9 (PxQ!) is 5, pawn-shelter's
// middlegame entry 10 ("shelter bg 3") 6 and its endgame entry 39 ("storm
// ah 8", which nothing reads) NaN, safe-checks' endgame entry 50 ("Q2") -4
// (queen-mobility's entry 28 and threats-by-mover's 60, which nothing
// reads, are not drawn).
func checkCountPicture(t *testing.T, b games.Board, title string, tbl int) {
	t.Helper()
	n := []int{9, 14, 15, 28, 40, 60, 60, 64, 64}[tbl-pstMobility]
	if b.Title != title || b.Files != n || b.Ranks != 1 || len(b.Heat) != n || len(b.Columns) != n || b.Marks != "" {
		t.Fatalf("%q: %q %dx%d, %d values, %d columns, want %dx1", title, b.Title, b.Files, b.Ranks, len(b.Heat), len(b.Columns), n)
	}
	for i, v := range b.Heat {
		want := 0.0
		switch {
		case title == "rook-mobility middlegame" && i == 7:
			want = 4
		case title == "king-attack endgame" && i == 39:
			want = -2
		case title == "threats-on-mover middlegame" && i == 9:
			want = 5
		case title == "pawn-shelter middlegame" && i == 10:
			want = 6
		case tbl == pstShelter && i%8 == 7:
			want = math.NaN()
		case title == "safe-checks endgame" && i == 50:
			want = -4
		}
		column := strconv.Itoa(i)
		switch tbl {
		case pstThreatsBy, pstThreatsOn:
			column = threatColumns()[i]
		case pstShelter, pstChecks:
			column = kingColumns(tbl == pstChecks)[i]
		}
		if !(v == want || math.IsNaN(v) && math.IsNaN(want)) || b.Columns[i] != column {
			t.Errorf("%s: column %d (%q) %v, want %v", title, i, b.Columns[i], v, want)
		}
	}
}
