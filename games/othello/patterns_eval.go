package othello

import (
	"fmt"
	"math"
	"sync"

	"github.com/gametune/gametune/games"
)

// PatternStages is the number of game stages the pattern evaluator keeps a
// table set for, by the number of discs on the board (PatternStage).
const PatternStages = 8

// PatternStage is the stage of a position with discs discs on the board:
// 4-11 discs stage 0, ..., 57-64 stage 7 (61 disc counts in 8 even parts).
func PatternStage(discs int) int { return (discs - 4) * PatternStages / 61 }

// patternLayout places the classes' canonical configurations in the
// evaluator's Data: class c's table has shape [PatternStages, counts[c]],
// its values from base[c]; compact maps a canonical index (PatternIndices)
// to the configuration's place in its class's row.
type patternLayout struct {
	compact []int32
	counts  []int
	base    []int
	classOf [PatternInstances]int
	tables  []games.Table
	size    int
}

var layout = sync.OnceValue(buildLayout)

func buildLayout() *patternLayout {
	set := patterns()
	l := &patternLayout{compact: make([]int32, PatternWeights)}
	for i := range l.compact {
		l.compact[i] = -1
	}
	n := 0
	for c, class := range set.classes {
		count := 0
		for r := class.Offset; r < class.Offset+class.Size; r++ {
			if set.canonical[r] == int32(r) {
				l.compact[r] = int32(count)
				count++
			}
		}
		for range class.Instances {
			l.classOf[n] = c
			n++
		}
		l.counts = append(l.counts, count)
		l.base = append(l.base, l.size)
		l.size += PatternStages * count
		l.tables = append(l.tables, games.Table{
			Name:  class.Name,
			Doc:   fmt.Sprintf("%s pattern (%d squares, %d placements): one value per configuration (up to symmetry, from the side to move) and stage", class.Name, len(class.Squares), len(class.Instances)),
			Shape: []int{PatternStages, count},
		})
	}
	return l
}

// Feature layout of the patterns evaluator: one scale per class and stage
// (class c, stage s at c*PatternStages+s), then mobility and parity by stage.
func patternScale(c, s int) int { return c*PatternStages + s }

func patternMobility(s int) int { return len(patternSources)*PatternStages + s }

func patternParity(s int) int { return len(patternSources)*PatternStages + PatternStages + s }

func patternFeatures() []games.Feature {
	var fs []games.Feature
	for _, src := range patternSources {
		for s := range PatternStages {
			fs = append(fs, games.Feature{
				Name: fmt.Sprintf("%s@%d", src.name, s), Doc: fmt.Sprintf("scale of the %s table at stage %d", src.name, s),
				Default: 1, Min: 0, Max: 4, Step: 0.05, Table: src.name,
			})
		}
	}
	for s := range PatternStages {
		fs = append(fs, games.Feature{Name: fmt.Sprintf("mobility@%d", s), Doc: fmt.Sprintf("legal moves, difference, at stage %d", s), Default: 30, Min: -100, Max: 100, Step: 0.5})
	}
	for s := range PatternStages {
		fs = append(fs, games.Feature{Name: fmt.Sprintf("parity@%d", s), Doc: fmt.Sprintf("+1 when the side to move can expect the last move (odd empties), -1 otherwise, at stage %d", s), Default: 0, Min: -100, Max: 100, Step: 0.5})
	}
	return fs
}

// patternsEvaluator is Logistello's and Edax's kind of evaluation: the 46
// pattern instances (PatternClasses) look up one value each in their
// class's table for the stage, the class's sum multiplied by its scale, plus
// mobility and parity by stage. Scores are in tenths of a disc, as the other
// evaluators'.
var patternsEvaluator = newPatternsEvaluator(make([]float32, layout().size))

func newPatternsEvaluator(data []float32) *games.Evaluator {
	ev := &games.Evaluator{
		Name:     "patterns",
		Doc:      "Edax-style pattern tables (edges, corners, inner lines, diagonals) by stage, fitted from self-play positions, with mobility and parity (score x1)",
		Features: patternFeatures(),
		Tables:   layout().tables,
		Data:     data,
		Pictures: patternPictures,
		Terms: func(gp games.Position, dst []games.TableTerm) []games.TableTerm {
			return patternTerms(gp.(*Position), dst)
		},
		Bind: newPatternsEvaluator,
	}
	ev.Evaluate = func(gp games.Position, w []float64) int {
		var f [patternFeatureCount]float64
		patternValues(gp.(*Position), data, &f)
		v := 0.0
		for i, x := range f {
			if x != 0 {
				v += w[i] * x
			}
		}
		return boundEval(math.Round(v))
	}
	ev.FeatureValues = func(gp games.Position, dst []float64) {
		var f [patternFeatureCount]float64
		patternValues(gp.(*Position), data, &f)
		copy(dst, f[:])
	}
	return ev
}

const patternFeatureCount = 11*PatternStages + 2*PatternStages

func boundEval(v float64) int {
	return int(max(-games.MaxEval, min(games.MaxEval, v)))
}

// patternValues writes p's feature values: the tables' sums at p's stage
// and its mobility and parity, zero elsewhere.
func patternValues(p *Position, data []float32, f *[patternFeatureCount]float64) {
	l := layout()
	s := PatternStage(popcount(p.discs[0] | p.discs[1]))
	var idx [PatternInstances]int32
	var sums [11]float32
	for i, r := range p.PatternIndices(idx[:0]) {
		c := l.classOf[i]
		sums[c] += data[l.base[c]+s*l.counts[c]+int(l.compact[r])]
	}
	for c, x := range sums {
		f[patternScale(c, s)] = float64(x)
	}
	f[patternMobility(s)] = float64(popcount(p.legal) - popcount(legalMoves(p.theirs(), p.mine())))
	if popcount(^(p.discs[0]|p.discs[1]))%2 == 1 {
		f[patternParity(s)] = 1
	} else {
		f[patternParity(s)] = -1
	}
}

func patternTerms(p *Position, dst []games.TableTerm) []games.TableTerm {
	l := layout()
	s := PatternStage(popcount(p.discs[0] | p.discs[1]))
	var idx [PatternInstances]int32
	dst = dst[:0]
	for i, r := range p.PatternIndices(idx[:0]) {
		c := l.classOf[i]
		dst = append(dst, games.TableTerm{Entry: int32(l.base[c] + s*l.counts[c] + int(l.compact[r])), Feature: int32(patternScale(c, s)), Coef: 1})
	}
	return dst
}
