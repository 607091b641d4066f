package games

import (
	"fmt"
	"math"
	"strings"
)

// Table is a named block of an evaluator's weights with a shape: a
// pattern's configurations by game stage, a piece-square table by phase.
// Its values are fitted from positions rather than tuned by games; they live
// in the evaluator's Data, row-major, the tables one after another in the
// order of Evaluator.Tables.
type Table struct {
	Name  string `json:"name"`
	Doc   string `json:"doc"`
	Shape []int  `json:"shape"`
}

// Size is the number of values of t: the product of its shape.
func (t Table) Size() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// MaxTableValue bounds the magnitude of a table entry (Evaluator.Data) in
// a weights file and in a fit: 1024. It keeps every score clear of
// ±MaxEval, where the evaluation saturates: every position would look the
// same to the search, which would then play its first legal move. An
// evaluation adds the entries a position activates (TableTerm), each times
// its coefficient and its table's scale; the coefficients of a position
// sum to at most 128 in magnitude (Othello's patterns: 46 entries of 1;
// chess's pst: 85 at most in random games; checkers' patterns: 16;
// TestTablesCannotSaturate) and every scale lies within [0, 4], so the
// tables add at most 128 * 4 * 1024 = MaxEval/2, the other half left to
// the scalars. The tables learned so far peak below 500.
const MaxTableValue = 1 << 10

// TableTerm is one table entry a position activates: the evaluation adds
// w[Feature] * Coef * Data[Entry], Feature being the feature that scales the
// entry's table (Feature.Table names it).
type TableTerm struct {
	Entry   int32
	Feature int32
	Coef    float32
}

// TablesSize is the number of values of e's tables together: the length of
// its Data.
func (e *Evaluator) TablesSize() int {
	n := 0
	for _, t := range e.Tables {
		n += t.Size()
	}
	return n
}

// TableOffset returns where the named table's values start in Data and the
// table, or -1 when e has no such table.
func (e *Evaluator) TableOffset(name string) (int, Table) {
	off := 0
	for _, t := range e.Tables {
		if t.Name == name {
			return off, t
		}
		off += t.Size()
	}
	return -1, Table{}
}

// IsScale reports whether feature i scales a table (rather than being one
// of the evaluator's scalars).
func (e *Evaluator) IsScale(i int) bool { return e.Features[i].Table != "" }

// WithData returns a copy of e that evaluates with data in place of its
// Data, after checking its length; data must not change afterwards. The
// copy keeps e's features (their defaults and ranges).
func (e *Evaluator) WithData(data []float32) (*Evaluator, error) {
	if e.Bind == nil {
		return nil, fmt.Errorf("games: evaluator %q has no tables", e.Name)
	}
	if len(data) != e.TablesSize() {
		return nil, fmt.Errorf("games: evaluator %q has tables of %d values in all, got %d", e.Name, e.TablesSize(), len(data))
	}
	b := e.Bind(data)
	b.Features = append([]Feature(nil), e.Features...)
	return b, nil
}

// Board is a picture of an evaluator's tables on the game's board, for
// reports: a heatmap (a value per square) or one configuration of a
// pattern (a mark per square) with its value. Squares are numbered row by
// row, Files to a row; row 0 is drawn at the top.
type Board struct {
	Title        string
	Files, Ranks int
	// TopRankFirst names row 0 after the last rank (rank 8 at the top, as
	// chess diagrams draw White's side at the bottom); otherwise row 0 is
	// rank 1.
	TopRankFirst bool
	// Heat, when set, holds one value per square, in the table's units;
	// NaN where the picture has nothing to say.
	Heat []float64
	// Marks, when set, holds one byte per square: 'X' a disc (or piece) of
	// the side to move, 'O' one of the opponent's, '-' an empty square of
	// the pattern, ' ' a square outside it.
	Marks string
	// Value is the configuration's value (with Marks).
	Value float64
	// Columns, when set, names each column in place of the files' letters:
	// a table read by a count (chess's mobility) draws one row of
	// columns named by their counts, and its squares are named by their
	// column alone.
	Columns []string
}

// TableEvaluators names g's evaluators with tables, or says there are none.
func TableEvaluators(g Game) string {
	var names []string
	for _, ev := range g.Evaluators() {
		if ev.Bind != nil {
			names = append(names, ev.Name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// SameData reports whether two evaluators' table values are the same, bit
// for bit.
func SameData(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// Extremes returns the places (0 to n-1) of the top largest values above
// zero, largest first, and of the top smallest below zero, smallest first;
// ties go to the smaller place. Entries at zero (never fitted) are neither:
// a table's strongest configurations for its pictures.
func Extremes(n, top int, value func(int) float64) (best, worst []int) {
	for k := range n {
		switch v := value(k); {
		case v > 0:
			best = insertRanked(best, k, top, func(a, b int) bool { return value(a) > value(b) })
		case v < 0:
			worst = insertRanked(worst, k, top, func(a, b int) bool { return value(a) < value(b) })
		}
	}
	return best, worst
}

// insertRanked inserts k into ranked (at most top places, ordered by
// before) and drops what falls off the end.
func insertRanked(ranked []int, k, top int, before func(a, b int) bool) []int {
	at := len(ranked)
	for at > 0 && before(k, ranked[at-1]) {
		at--
	}
	if at >= top {
		return ranked
	}
	if len(ranked) < top {
		ranked = append(ranked, 0)
	}
	copy(ranked[at+1:], ranked[at:])
	ranked[at] = k
	return ranked
}

// StageSpan is the range of counts (pieces, discs) from first to last that
// stage maps to st, -1, -1 when none does: a stage's caption.
func StageSpan(first, last, st int, stage func(int) int) (lo, hi int) {
	lo, hi = -1, -1
	for n := first; n <= last; n++ {
		if stage(n) == st {
			if lo < 0 {
				lo = n
			}
			hi = n
		}
	}
	return lo, hi
}
