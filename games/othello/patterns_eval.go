package othello

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

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
// its values from base[c]; entry[r] is where the stage-0 value of reading r
// (an index of PatternWeights, canonical or not) lies in Data, stage s's
// s*counts[c] further.
type patternLayout struct {
	entry   []int32
	counts  []int
	base    []int
	classOf [PatternInstances]int
	tables  []games.Table
	size    int
}

var layout = sync.OnceValue(buildLayout)

func buildLayout() *patternLayout {
	set := patterns()
	l := &patternLayout{entry: make([]int32, PatternWeights)}
	n := 0
	for c, class := range set.classes {
		count := 0
		for r := class.Offset; r < class.Offset+class.Size; r++ {
			if set.canonical[r] == int32(r) {
				l.entry[r] = int32(l.size + count)
				count++
			}
		}
		for r := class.Offset; r < class.Offset+class.Size; r++ {
			l.entry[r] = l.entry[set.canonical[r]]
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
	if len(l.counts) != patternClassCount {
		panic("othello: patternClassCount disagrees with the pattern sources")
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
// evaluators'. Its defaults, tables and weights, are the shipped fit
// (patterns_default.go).
var patternsEvaluator = shippedPatterns()

// newPatternsEvaluator returns the evaluator reading data. Its first
// evaluation expands data into a table of each reading's value by stage
// (expandPatterns: 5.4 MB, a few milliseconds), which its copies do not
// share.
func newPatternsEvaluator(data []float32) *games.Evaluator {
	tables := &patternTables{data: data}
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
		Impl: tables,
	}
	for _, f := range ev.Features {
		ev.Scratch = append(ev.Scratch, f.Default)
	}
	ev.Evaluate = func(gp games.Position, w []float64) int {
		return evaluatePatterns(gp.(*Position), tables.expanded(), w)
	}
	ev.FeatureValues = func(gp games.Position, dst []float64) {
		p := gp.(*Position)
		var sums [patternClassCount]float32
		s, parity := patternSums(p, tables.expanded(), &sums)
		dst = dst[:patternFeatureCount]
		clear(dst)
		for c, x := range sums {
			dst[patternScale(c, s)] = float64(x)
		}
		dst[patternMobility(s)] = patternMobilityOf(p)
		dst[patternParity(s)] = parity
	}
	return ev
}

// patternTables holds an evaluator's data and, from its first use, the
// data expanded by reading (expandPatterns).
type patternTables struct {
	data []float32
	ex   atomic.Pointer[[PatternStages]patternStageTable]
	once sync.Once
}

func (t *patternTables) expanded() *[PatternStages]patternStageTable {
	if ex := t.ex.Load(); ex != nil {
		return ex
	}
	return t.expand()
}

func (t *patternTables) expand() *[PatternStages]patternStageTable {
	t.once.Do(func() { t.ex.Store(expandPatterns(t.data)) })
	return t.ex.Load()
}

const patternFeatureCount = patternClassCount*PatternStages + 2*PatternStages

// patternClassCount is the number of pattern classes (buildLayout checks
// it).
const patternClassCount = 11

// patternStageOf[n] is PatternStage(n) (n discs, 4 to 64; the table
// covers n&127, so that indexing it needs no bounds check).
var patternStageOf = func() (t [128]uint8) {
	for n := 4; n <= 64; n++ {
		t[n] = uint8(PatternStage(n))
	}
	return t
}()

// expandPatterns lays data out by reading: [s][placed(r)] is the value at
// stage s of reading r's configuration, whether r is canonical or not, so
// that evaluation looks readings up without reducing them.
func expandPatterns(data []float32) *[PatternStages]patternStageTable {
	l, classes := layout(), patterns().classes
	ex := new([PatternStages]patternStageTable)
	placed := make([]int32, 0, pow3(maxPatternSquares))
	for c, class := range classes {
		placed = placed[:0]
		for r := range class.Size {
			placed = append(placed, int32(placedReading(c, r)))
		}
		entries := l.entry[class.Offset : class.Offset+class.Size]
		for s := range ex { // a stage at a time: the writes stay within a class's table
			table, stage := ex[s][class.Offset:class.Offset+class.Size], data[s*l.counts[c]:]
			for r, e := range entries {
				table[placed[r]] = stage[e]
			}
		}
	}
	return ex
}

// patternPlaces[c][j] is the place in the expanded tables' index
// (expandPatterns) of the j-th square of class c's readings: its power of
// 3. The squares nearest the centre take the lowest places, those of the
// edges and corners the highest, so that the readings of the opening,
// whose discs lie about the centre, fall in few cache lines of each table
// (the squares of a reading are at the same distance from the centre in
// every orientation).
var patternPlaces = func() (places [patternClassCount][maxPatternSquares]uint8) {
	if len(patternSources) != patternClassCount {
		panic("othello: patternClassCount disagrees with the pattern sources")
	}
	for c, src := range patternSources {
		squares := parseSquares(src.squares)
		order := make([]int, len(squares))
		for j := range order {
			order[j] = j
		}
		distance := func(j int) int { // twice the distance, squared
			r, f := squares[j]/8, squares[j]%8
			return (2*r-7)*(2*r-7) + (2*f-7)*(2*f-7)
		}
		slices.SortStableFunc(order, func(a, b int) int { return distance(a) - distance(b) })
		for place, j := range order {
			places[c][j] = uint8(place)
		}
	}
	return places
}()

// placedReading is reading r of class c (its first square the least
// significant digit) with its squares' digits at patternPlaces.
func placedReading(c, r int) int {
	placed := 0
	for j := 0; r > 0; j++ {
		placed += r % 3 * placeValues[c][j]
		r /= 3
	}
	return placed
}

// placeValues[c][j] is 3 to the power patternPlaces[c][j].
var placeValues = func() (v [patternClassCount][maxPatternSquares]int) {
	for c := range v {
		for j := range v[c] {
			v[c][j] = pow3(int(patternPlaces[c][j]))
		}
	}
	return v
}()

// patternSums writes the sums of p's pattern values, class by class, at
// p's stage, and returns the stage and the parity feature: +1 when the
// empty squares are odd (as the discs are), -1 otherwise.
func patternSums(p *Position, ex *[PatternStages]patternStageTable, sums *[patternClassCount]float32) (stage int, parity float64) {
	discs := popcount(p.discs[0] | p.discs[1])
	s := int(patternStageOf[discs&127]) & (PatternStages - 1)
	patternLookup(p.mine(), p.theirs(), &ex[s], sums)
	return s, float64(discs&1*2 - 1)
}

// patternMobilityOf is the mobility feature: legal moves, difference.
func patternMobilityOf(p *Position) float64 {
	return float64(popcount(p.legal) - popcount(legalMoves(p.theirs(), p.mine())))
}

// evaluatePatterns is sum(w[i] * f[i]) over the features, f being
// FeatureValues, added as a tree rather than in a chain (the last bits may
// differ from the chain's).
func evaluatePatterns(p *Position, ex *[PatternStages]patternStageTable, w []float64) int {
	own, opp := p.mine(), p.theirs()
	var r halfReadings
	r.read(uint64(own), uint64(opp))
	return evaluateReadings(own, opp, p.legal, &r, ex, w)
}

// evaluateReadings is evaluatePatterns of the position whose side to move
// has the discs own and the moves legal, its opponent the discs opp, and
// whose readings are r.
func evaluateReadings(own, opp, legal Bitboard, r *halfReadings, ex *[PatternStages]patternStageTable, w []float64) int {
	discs := popcount(own | opp)
	s := int(patternStageOf[discs&127]) & (PatternStages - 1)
	mobility := float64(popcount(legal) - popcount(legalMoves(opp, own)))
	x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10 := readingValues(r, &ex[s])
	parity := float64(discs&1*2 - 1)
	ws := (*[patternFeatureCount]float64)(w)
	const st = PatternStages
	a := ws[s]*float64(x0) + ws[st+s]*float64(x1)
	b := ws[2*st+s]*float64(x2) + ws[3*st+s]*float64(x3)
	c := ws[4*st+s]*float64(x4) + ws[5*st+s]*float64(x5)
	d := ws[6*st+s]*float64(x6) + ws[7*st+s]*float64(x7)
	e := ws[8*st+s]*float64(x8) + ws[9*st+s]*float64(x9)
	f := ws[10*st+s]*float64(x10) + ws[11*st+s]*mobility + ws[12*st+s]*parity
	return roundEval((a + b) + (c + d) + (e + f))
}

// roundEval is int(max(-games.MaxEval, min(games.MaxEval, math.Round(v)))),
// v rounded half away from zero and bounded, without a branch that the
// value decides but the bounds: bounded first (MaxEval is a whole
// number), then the whole part of twice v less that of v. With t the
// whole part of v and f its fraction, of the same sign, the whole part of
// 2v = 2t + 2f is 2t plus that of 2f (-1, 0 or 1): t plus the rounding
// of f, all of it exact. The two conversions to integers do not wait for
// each other, which keeps the evaluation's last steps short. NaN converts
// to the smallest int, as int(NaN) does.
func roundEval(v float64) int {
	if v > games.MaxEval {
		v = games.MaxEval
	} else if v < -games.MaxEval {
		v = -games.MaxEval
	}
	t := int(v)
	r := int(2*v) - t
	if v != v { // NaN
		r = t
	}
	return r
}

// patternTerms appends p's table entries, instance by instance in the
// order of PatternClasses.
func patternTerms(p *Position, dst []games.TableTerm) []games.TableTerm {
	l, set := layout(), patterns()
	s := PatternStage(popcount(p.discs[0] | p.discs[1]))
	var r [PatternInstances]int32
	patternReadings(p.mine(), p.theirs(), &r)
	dst = dst[:0]
	for i, v := range set.viewOf {
		c := l.classOf[i]
		dst = append(dst, games.TableTerm{Entry: l.entry[r[v]] + int32(s*l.counts[c]), Feature: int32(patternScale(c, s)), Coef: 1})
	}
	return dst
}
