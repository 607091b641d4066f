package othello

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// randomTables are deterministic random tables and weights for the
// patterns evaluator: values in [-50, 50), scales in [0.5, 2).
func randomTables(seed uint64) ([]float32, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]float32, layout().size)
	for i := range data {
		data[i] = float32(rng.Float64()*100 - 50)
	}
	w := patternsEvaluator.Defaults()
	for c := range patternSources {
		for s := range PatternStages {
			w[patternScale(c, s)] = 0.5 + 1.5*rng.Float64()
		}
	}
	return data, w
}

// TestPatternPicturesShape: the evaluator draws its tables; 8 heatmaps of
// 64 values, then 6 configurations a class for random tables, all on 8x8
// boards; nil for data of the wrong length.
func TestPatternPicturesShape(t *testing.T) {
	ev := Game().Evaluators()[2]
	if ev.Name != "patterns" || ev.Pictures == nil {
		t.Fatalf("evaluator %q has no pictures", ev.Name)
	}
	data, w := randomTables(1)
	boards := ev.Pictures(data, w)
	if want := PatternStages + len(patternSources)*2*pictureTop; len(boards) != want {
		t.Fatalf("%d boards, want %d", len(boards), want)
	}
	for i, b := range boards {
		if b.Files != 8 || b.Ranks != 8 || b.Title == "" {
			t.Errorf("board %d %q: %dx%d", i, b.Title, b.Files, b.Ranks)
		}
		if i < PatternStages {
			if len(b.Heat) != 64 || b.Marks != "" {
				t.Errorf("heatmap %d: %d values, marks %q", i, len(b.Heat), b.Marks)
			}
			continue
		}
		if len(b.Marks) != 64 || b.Heat != nil {
			t.Errorf("configuration %q: %d marks, heat %v", b.Title, len(b.Marks), b.Heat != nil)
		}
	}
	// Zero tables: flat zero heatmaps and no configuration worth drawing.
	zero := ev.Pictures(make([]float32, len(ev.Data)), ev.Defaults())
	if len(zero) != PatternStages {
		t.Fatalf("zero tables: %d boards, want the %d heatmaps", len(zero), PatternStages)
	}
	for _, b := range zero {
		for sq, v := range b.Heat {
			if v != 0 {
				t.Fatalf("zero tables: %q square %d heat %g", b.Title, sq, v)
			}
		}
	}
	if ev.Pictures(data[1:], w) != nil || ev.Pictures(data, w[1:]) != nil {
		t.Error("pictures of tables of the wrong length")
	}
}

// TestPatternPicturesSample: every stage has positions in the sample, and
// each heatmap adds up to the sample's average pattern score at its stage,
// as the evaluator's own FeatureValues computes it.
func TestPatternPicturesSample(t *testing.T) {
	data, w := randomTables(2)
	heat := patternHeatmaps(data, w)
	ev := newPatternsEvaluator(data)
	var sums [PatternStages]float64
	var counts [PatternStages]int
	f := make([]float64, len(ev.Features))
	for _, s := range pictureSamples() {
		p := &Position{discs: [2]Bitboard{s.mine, s.occupied &^ s.mine}}
		p.legal = legalMoves(p.mine(), p.theirs())
		ev.FeatureValues(p, f)
		st := int(s.stage)
		counts[st]++
		for c := range patternSources {
			sums[st] += w[patternScale(c, st)] * f[patternScale(c, st)]
		}
	}
	for st, b := range heat {
		if counts[st] < 100 {
			t.Errorf("stage %d: %d positions in the sample", st, counts[st])
		}
		total := 0.0
		for _, v := range b.Heat {
			total += v
		}
		if want := sums[st] / float64(counts[st]); math.Abs(total-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("stage %d: heat adds up to %g, the average pattern score is %g", st, total, want)
		}
	}
}

// plant returns zero tables with value v at the canonical configuration of
// class c, stage st, whose squares read marks (one of "-XO" a square, in
// the class's reading order), and its place in the row.
func plant(t *testing.T, c, st int, marks string, v float32) ([]float32, int) {
	t.Helper()
	class := patterns().classes[c]
	r := 0
	for j := len(marks) - 1; j >= 0; j-- {
		r = 3*r + map[byte]int{'-': 0, 'X': 1, 'O': 2}[marks[j]]
	}
	l := layout()
	k := int(l.entry[class.Offset+r]) - l.base[c]
	data := make([]float32, l.size)
	data[l.base[c]+st*l.counts[c]+k] = v
	return data, k
}

// TestPatternPicturesPlanted: one large entry of corner3x3 at the middle
// stage is its class's best configuration, drawn with its marks; its
// negative is the worst; other classes draw nothing.
func TestPatternPicturesPlanted(t *testing.T) {
	c := 1 // corner3x3: a1 b1 c1 a2 b2 c2 a3 b3 c3
	if patternSources[c].name != "corner3x3" {
		t.Fatal("class 1 is not corner3x3")
	}
	w := patternsEvaluator.Defaults()
	w[patternScale(c, PictureStage)] = 2
	for _, sign := range []float32{1, -1} {
		data, _ := plant(t, c, PictureStage, "XO-O-----", sign*40)
		boards := patternPictures(data, w)[PatternStages:]
		if len(boards) != 1 {
			t.Fatalf("sign %g: %d configurations, want 1", sign, len(boards))
		}
		b := boards[0]
		want := map[string]string{"a1": "X", "b1": "O", "c1": "-", "a2": "O", "b2": "-", "c3": "-", "d1": " ", "h8": " "}
		for name, m := range want {
			sq := int(name[1]-'1')*8 + int(name[0]-'a')
			if string(b.Marks[sq]) != m {
				t.Errorf("sign %g: %s is %q, want %q (marks %q)", sign, name, b.Marks[sq], m, b.Marks)
			}
		}
		if b.Value != float64(sign)*80 {
			t.Errorf("sign %g: value %g, want scale 2 x %g", sign, b.Value, sign*40)
		}
		if title := map[float32]string{1: "corner3x3, stage 4: best 1", -1: "corner3x3, stage 4: worst 1"}[sign]; b.Title != title {
			t.Errorf("title %q, want %q", b.Title, title)
		}
	}
}

// TestPatternPicturesRanked: with several planted entries, the best come
// largest first and the worst smallest first, three of each.
func TestPatternPicturesRanked(t *testing.T) {
	c := 0 // edge+2X
	l := layout()
	data := make([]float32, l.size)
	row := data[l.base[c]+PictureStage*l.counts[c]:]
	for k, v := range []float32{5, 9, -3, 7, 1, -8, -1, 6} {
		row[10*k] = v
	}
	boards := patternPictures(data, patternsEvaluator.Defaults())[PatternStages:]
	var got []float64
	for _, b := range boards {
		got = append(got, b.Value)
	}
	want := []float64{9, 7, 6, -8, -3, -1}
	if len(got) != len(want) {
		t.Fatalf("values %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("values %v, want %v", got, want)
		}
	}
}

// TestPatternPicturesCornerHeat: a value for every corner3x3 configuration
// that holds the corner puts, at every stage from 2 on, the most heat of
// each corner's block on the corner itself, and none outside the blocks.
func TestPatternPicturesCornerHeat(t *testing.T) {
	c := 1
	l := layout()
	class := patterns().classes[c]
	data := make([]float32, l.size)
	for r := class.Offset; r < class.Offset+class.Size; r++ {
		if k := int(l.entry[r]) - l.base[c]; patterns().canonical[r] == int32(r) && (r-class.Offset)%3 != 0 {
			for st := range PatternStages {
				data[l.base[c]+st*l.counts[c]+int(k)] = 10
			}
		}
	}
	heat := patternHeatmaps(data, patternsEvaluator.Defaults())
	for st := 2; st < PatternStages; st++ {
		b := heat[st].Heat
		corner := max(b[0], b[7], b[56], b[63])
		for sq, v := range b {
			if v > corner {
				t.Errorf("stage %d: square %d has heat %g, above every corner (%g at most)", st, sq, v, corner)
			}
		}
	}
	var total [64]float64
	for st := 2; st < PatternStages; st++ {
		b := heat[st]
		inBlock := map[int]bool{}
		for _, in := range class.Instances {
			corner := in[0]
			if b.Heat[corner] <= 0 {
				t.Errorf("stage %d: corner %d heat %g", st, corner, b.Heat[corner])
			}
			// A square shares with its corner only when both are
			// occupied: never more, and equal when the sample never
			// holds the corner without it.
			for _, sq := range in[1:] {
				inBlock[sq] = true
				if b.Heat[sq] > b.Heat[corner]+1e-9 {
					t.Errorf("stage %d: square %d has heat %g, its corner %d %g", st, sq, b.Heat[sq], corner, b.Heat[corner])
				}
			}
			inBlock[corner] = true
		}
		for sq, v := range b.Heat {
			total[sq] += v
		}
		for sq, v := range b.Heat {
			if !inBlock[sq] && v != 0 {
				t.Errorf("stage %d: square %d outside the corner blocks has heat %g", st, sq, v)
			}
		}
	}
	// Over the stages, a square of a block is strictly cooler than its
	// corner when the sample holds the corner without it, as cool when
	// never (c3 and f6, filled in the opening, are such squares).
	for _, in := range class.Instances {
		corner := Bitboard(1) << in[0]
		for _, sq := range in[1:] {
			alone := 0
			for _, s := range pictureSamples() {
				if s.stage >= 2 && s.occupied&corner != 0 && s.occupied&(1<<sq) == 0 {
					alone++
				}
			}
			hot, tc := total[sq], total[in[0]]
			if alone > 0 && hot >= tc || alone == 0 && math.Abs(hot-tc) > 1e-9 {
				t.Errorf("square %d has heat %g over the stages, its corner %d %g, held %d times without it", sq, hot, in[0], tc, alone)
			}
		}
	}
}

// TestPatternPicturesCost: drawing the tables, sampling included, gives
// boards, and the sample is the same at every drawing; the time it takes
// is logged (a timed bound would break on a loaded machine).
func TestPatternPicturesCost(t *testing.T) {
	data, w := randomTables(3)
	start := time.Now()
	sample := samplePictures()
	sampled := time.Since(start)
	boards := patternPictures(data, w)
	drawn := time.Since(start) - sampled
	if len(boards) == 0 {
		t.Errorf("no boards drawn in %v", sampled+drawn)
	}
	if len(sample) != len(pictureSamples()) || sample[len(sample)-1] != pictureSamples()[len(sample)-1] {
		t.Error("two samples differ")
	}
	t.Logf("%d positions sampled in %v; %d boards drawn in %v", len(sample), sampled, len(boards), drawn)
}

// BenchmarkPatternPictures: drawing the tables' pictures, sampling
// included (the report draws them once a run; well under a second).
func BenchmarkPatternPictures(b *testing.B) {
	data, w := randomTables(3)
	for b.Loop() {
		samplePictures()
		if len(patternPictures(data, w)) == 0 {
			b.Fatal("no boards")
		}
	}
}
