package checkers

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games/gametest"
)

// TestPatternPicturesShape: the registered evaluator draws its tables: 4
// heatmaps of 64 values (NaN on the light squares), then 6 configurations
// a region for random tables, all on 8x8 boards; zero tables draw flat
// zero heatmaps alone; tables or weights of the wrong length draw nothing.
func TestPatternPicturesShape(t *testing.T) {
	ev := Game().Evaluators()[2]
	if ev.Name != "patterns" || ev.Pictures == nil {
		t.Fatalf("evaluator %q has no pictures", ev.Name)
	}
	rng := rand.New(rand.NewPCG(28, 10))
	data, w := randomPatternData(rng, 20), gametest.RandomWeights(rng, ev)
	boards := ev.Pictures(data, w)
	if want := PatternStages + patternRegions*2*pictureTop; len(boards) != want {
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
			for sq, v := range b.Heat {
				if light := (sq/8+sq%8)%2 == 0; light != math.IsNaN(v) {
					t.Errorf("heatmap %d: square %d (light %v) has heat %g", i, sq, light, v)
				}
			}
			continue
		}
		if len(b.Marks) != 64 || b.Heat != nil {
			t.Errorf("configuration %q: %d marks, heat %v", b.Title, len(b.Marks), b.Heat != nil)
		}
	}
	zero := ev.Pictures(make([]float32, patternDataSize), ev.Defaults())
	if len(zero) != PatternStages {
		t.Fatalf("zero tables: %d boards, want the %d heatmaps", len(zero), PatternStages)
	}
	for _, b := range zero {
		for sq, v := range b.Heat {
			if v != 0 && !math.IsNaN(v) {
				t.Fatalf("zero tables: %q square %d heat %g", b.Title, sq, v)
			}
		}
	}
	if ev.Pictures(data[1:], w) != nil || ev.Pictures(data, w[1:]) != nil {
		t.Error("pictures of tables of the wrong length")
	}
}

// TestPatternPicturesSample: every stage has positions in the sample, and
// each heatmap adds up to the sample's average table score at its stage,
// as the evaluator's own FeatureValues computes it.
func TestPatternPicturesSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 11))
	ev := newPatternsEvaluator(randomPatternData(rng, 20))
	w := gametest.RandomWeights(rng, ev)
	heat := patternHeatmaps(ev.Data, w)
	var sums [PatternStages]float64
	var counts [PatternStages]int
	f := make([]float64, len(ev.Features))
	for _, s := range pictureSamples() {
		// The sample's view is a position of Black to move.
		p := &Position{}
		p.men[0], p.men[1] = Bitboard(s.both)&^s.ownKings, Bitboard(s.both>>32)&^s.oppKings
		p.kings[0], p.kings[1] = s.ownKings, s.oppKings
		ev.FeatureValues(p, f)
		st := int(s.stage)
		counts[st]++
		for k := range patternTableCount {
			sums[st] += w[10+k] * f[10+k]
		}
	}
	t.Logf("%d positions sampled, by stage %v", len(pictureSamples()), counts)
	for st, b := range heat {
		if counts[st] < 100 {
			t.Errorf("stage %d: %d positions in the sample", st, counts[st])
		}
		total := 0.0
		for _, v := range b.Heat {
			if !math.IsNaN(v) {
				total += v
			}
		}
		if want := sums[st] / float64(counts[st]); math.Abs(total-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("stage %d: heat adds up to %g, the average table score is %g", st, total, want)
		}
	}
}

// TestPatternPicturesPlanted: one entry of r0c0 at PictureStage, the
// configuration X O - O - - - - on squares 0, 1, 4, 5, 8, 9, 12, 13
// (reading 1 + 2*3 + 2*27 = 61), is its region's best configuration, drawn
// on the board's rows (square 0 on row 0, column 1; square 5 on row 1,
// column 2), its value times the scale; its negative is the worst; no other
// region draws anything.
func TestPatternPicturesPlanted(t *testing.T) {
	w := patternsEvaluator.Scratch
	w = append(w[:10:10], 2, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	for _, sign := range []float32{1, -1} {
		data := make([]float32, patternDataSize)
		data[PictureStage*6561+61] = 40 * sign
		boards := patternPictures(data, w)[PatternStages:]
		if len(boards) != 1 {
			t.Fatalf("sign %g: %d configurations, want 1", sign, len(boards))
		}
		b := boards[0]
		for at, m := range map[int]byte{1: 'X', 3: 'O', 8: '-', 10: 'O', 17: '-', 19: '-', 24: '-', 26: '-', 0: ' ', 2: ' ', 5: ' ', 28: ' ', 63: ' '} {
			if b.Marks[at] != m {
				t.Errorf("sign %g: row %d column %d is %q, want %q (marks %q)", sign, at/8, at%8, b.Marks[at], m, b.Marks)
			}
		}
		if b.Value != float64(sign)*80 {
			t.Errorf("sign %g: value %g, want scale 2 x %g", sign, b.Value, sign*40)
		}
		if title := map[float32]string{1: "r0c0, stage 1: best 1", -1: "r0c0, stage 1: worst 1"}[sign]; b.Title != title {
			t.Errorf("title %q, want %q", b.Title, title)
		}
	}
}

// TestPatternPicturesRanked: with several planted entries, the best come
// largest first and the worst smallest first, three of each.
func TestPatternPicturesRanked(t *testing.T) {
	data := make([]float32, patternDataSize)
	row := data[4*regionTableSize+PictureStage*6561:]
	for c, v := range []float32{5, 9, -3, 7, 1, -8, -1, 6} {
		row[10*c] = v
	}
	boards := patternPictures(data, patternsEvaluator.Scratch)[PatternStages:]
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

// TestPatternPicturesKings: a single kings entry, the side to move's king
// on square 5 at stage 2, heats that square alone, by its value times the
// share of the stage's positions with such a king, and no other stage.
func TestPatternPicturesKings(t *testing.T) {
	data := make([]float32, patternDataSize)
	data[kingsOffset+2*64+5] = 30
	w := append(patternsEvaluator.Scratch[:19:19], 0.5)
	heat := patternHeatmaps(data, w)
	with, all := 0, 0
	for _, s := range pictureSamples() {
		if s.stage == 2 {
			all++
			if s.ownKings&(1<<5) != 0 {
				with++
			}
		}
	}
	if with == 0 {
		t.Fatal("the sample has no king of the side to move on square 5 at stage 2")
	}
	at := boardIndex(5) // row 1, column 2
	if at != 10 {
		t.Fatalf("square 5 drawn at %d", at)
	}
	for st, b := range heat {
		for sq, v := range b.Heat {
			want := 0.0
			if st == 2 && sq == at {
				want = 15 * float64(with) / float64(all)
			}
			if !math.IsNaN(v) && math.Abs(v-want) > 1e-12 {
				t.Errorf("stage %d: square %d heat %g, want %g", st, sq, v, want)
			}
		}
	}
}
