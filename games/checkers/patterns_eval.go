package checkers

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// patternsEvaluator is full's evaluation plus tables (patterns.go): each of
// the nine regions looks up its configuration's value at the position's
// stage, each king its square's, and each table's sum is multiplied by its
// scale. Scores are in hundredths of a man, as full's, and so are the
// tables' values. Its defaults, tables and weights, are the shipped file's
// (patterns_default.go).
var patternsEvaluator = shippedPatterns()

// patternMaxTerms is the most entries a position activates: a reading a
// region and a king a piece (at most 24 pieces).
const patternMaxTerms = patternRegions + 24

// newPatternsEvaluator returns the patterns evaluator reading data
// (patternDataSize values, the tables in the order of patternTables). Its
// Scratch weights are full's defaults and a scale of 1 a table: with every
// table zero, it evaluates exactly as full does.
func newPatternsEvaluator(data []float32) *games.Evaluator {
	d := (*[patternDataSize]float32)(data)
	ev := &games.Evaluator{
		Name:     "patterns",
		Doc:      "full's features plus Scan-style tables: nine overlapping 4x4 regions (3^8 configurations each) and kings by square, by stage, fitted from self-play positions (score x100)",
		Features: patternFeatures(),
		Tables:   patternTables(),
		Data:     data,
		Bind:     newPatternsEvaluator,
		Pictures: patternPictures,
		Evaluate: func(gp games.Position, w []float64) int {
			return evaluatePatterns(gp.(*Position), d, w)
		},
		FeatureValues: func(gp games.Position, dst []float64) {
			patternFeatureValues(gp.(*Position), d, dst)
		},
		Terms: func(gp games.Position, dst []games.TableTerm) []games.TableTerm {
			return patternTerms(gp.(*Position), dst)
		},
	}
	for _, f := range ev.Features {
		ev.Scratch = append(ev.Scratch, f.Default)
	}
	return ev
}

// patternStage is the stage of the pieces of both (patternView).
func patternStage(both uint64) int {
	return int(patternStageOf[bits.OnesCount64(both)%stageTableLen])
}

// patternSums writes the sum of p's table entries at p's stage, table by
// table in the order of patternTables: a region's is the value of its one
// configuration, the kings' the sum over the kings of both sides.
func patternSums(p *Position, d *[patternDataSize]float32, sums *[patternTableCount]float64) {
	both, ownKings, oppKings := p.patternView()
	s := patternStage(both)
	base := s * regionConfigs
	for k, shift := range regionShift {
		sums[k] = float64(d[k*regionTableSize+base+regionReading(both, shift)])
	}
	kings := 0.0
	if ownKings|oppKings != 0 {
		t := (*[64]float32)(d[kingsOffset+64*s:])
		for b := ownKings; b != 0; b &= b - 1 {
			kings += float64(t[bits.TrailingZeros32(b)&31])
		}
		for b := oppKings; b != 0; b &= b - 1 {
			kings += float64(t[32+bits.TrailingZeros32(b)&31])
		}
	}
	sums[patternRegions] = kings
}

// evaluatePatterns is full's weighted sum, summed as full sums it, plus
// each table's sum times its scale: with the tables zero, exactly full's
// score.
func evaluatePatterns(p *Position, d *[patternDataSize]float32, w []float64) int {
	var f [fullFeatureCount]float64
	p.fullFeatures(&f)
	ws := (*[patternFeatureSize]float64)(w)
	v := 0.0
	for i := range f {
		v += ws[i] * f[i]
	}
	var sums [patternTableCount]float64
	patternSums(p, d, &sums)
	t := 0.0
	for k, x := range sums {
		t += ws[fullFeatureCount+k] * x
	}
	return boundEval(math.Round(100*v + t))
}

// patternFeatureValues writes full's feature values (x100, as full's
// FeatureValues) and each table's sum (patternSums) into dst.
func patternFeatureValues(p *Position, d *[patternDataSize]float32, dst []float64) {
	dst = dst[:patternFeatureSize]
	var f [fullFeatureCount]float64
	p.fullFeatures(&f)
	for i, x := range f {
		dst[i] = 100 * x
	}
	var sums [patternTableCount]float64
	patternSums(p, d, &sums)
	for k, x := range sums {
		dst[fullFeatureCount+k] = x
	}
}

func boundEval(v float64) int {
	return int(max(-games.MaxEval, min(games.MaxEval, v)))
}

// patternTerms appends p's table entries: the nine regions' readings in
// the order of patternTables, then the side to move's kings and the
// opponent's, square by square, each with coefficient 1. It allocates
// nothing when dst has room for patternMaxTerms.
func patternTerms(p *Position, dst []games.TableTerm) []games.TableTerm {
	both, ownKings, oppKings := p.patternView()
	s := patternStage(both)
	dst = dst[:0]
	for k, shift := range regionShift {
		entry := k*regionTableSize + s*regionConfigs + regionReading(both, shift)
		dst = append(dst, games.TableTerm{Entry: int32(entry), Feature: int32(fullFeatureCount + k), Coef: 1})
	}
	for side, b := range [2]Bitboard{ownKings, oppKings} {
		for ; b != 0; b &= b - 1 {
			entry := kingsOffset + s*64 + side*32 + bits.TrailingZeros32(b)
			dst = append(dst, games.TableTerm{Entry: int32(entry), Feature: kingsScale, Coef: 1})
		}
	}
	return dst
}
