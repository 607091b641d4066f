package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// SearchParams are the numbers of the selective search (Options.Selective):
// its reductions, margins and thresholds (a technique's depth parameter at
// 0 turns the technique off), each with a name, a range and a
// default listed by SearchParamList, so that tuners, UCI options and
// weights files can set them as they set evaluation weights. Margins are
// in the evaluation's units (centipawns in chess, hundredths of a man in
// checkers, tenths of a disc in Othello), which is why a game may give
// defaults of its own (games.SearchDefaulter).
//
// The zero SearchParams means the defaults of the game searched
// (DefaultSearchParams). Any other value is used as it stands, every
// field: start from DefaultSearchParams to change a few. Search refuses
// values outside their ranges (Check).
type SearchParams struct {
	// Null-move pruning (games.NullMover).
	NullMinDepth   int // null move tried at depths from this one; 0 is off
	NullReduction  int // plies the null move's search is reduced by, at least
	NullDivisor    int // and one more ply for every NullDivisor of depth
	NullVerifyFrom int // a null-move cutoff at this depth or deeper is verified by a reduced search without null move
	// One more ply of reduction for every NullEvalMargin the static
	// evaluation stands above beta (0: none), at most NullEvalMax plies.
	NullEvalMargin int
	NullEvalMax    int
	// NullTableCheck at 1: no null move where the table holds an upper
	// bound below beta (the node is expected to fail low).
	NullTableCheck int

	// Late-move reductions: a quiet move late in the order is searched
	// ReductionBase/100 + ln(depth)*ln(move)*100/ReductionDivisor plies
	// less (rounded down), and again at full depth if it beats alpha.
	ReductionMinDepth int // 0 is off
	ReductionMinMove  int // moves searched (1-based index) before the first reduced one
	ReductionBase     int // hundredths of a ply
	ReductionDivisor  int // hundredths

	// Late-move pruning: at depth <= PruneMaxDepth, quiet moves after the
	// first PruneBase + depth*depth*PruneScale/100 are skipped.
	PruneMaxDepth int
	PruneBase     int
	PruneScale    int // hundredths

	// Futility pruning: at depth <= FutilityMaxDepth, a quiet move is
	// skipped when the static evaluation plus FutilityBase +
	// FutilityMargin*depth cannot reach alpha.
	FutilityMaxDepth int
	FutilityBase     int
	FutilityMargin   int

	// Reverse futility (static null move): at depth <= ReverseMaxDepth a
	// node whose static evaluation is ReverseMargin*depth above beta
	// returns it.
	ReverseMaxDepth int
	ReverseMargin   int

	// Razoring: at depth <= RazorMaxDepth, a node whose static evaluation
	// is RazorBase + RazorMargin*depth below alpha is searched by
	// quiescence, and returns its value when that stays below alpha.
	RazorMaxDepth int
	RazorBase     int
	RazorMargin   int

	// Quiescence: captures whose static exchange loses more than
	// ExchangeMargin are skipped (games.Exchanger).
	ExchangeMargin int

	// Multi-ProbCut (games.ProbCutter): at depth >= ProbCutMinDepth a
	// shallow search predicts the deep one; a node is cut when the
	// prediction clears the window by ProbCutThreshold/100 standard
	// deviations of the prediction's error.
	ProbCutMinDepth  int // 0 is off
	ProbCutThreshold int

	// Internal iterative reductions: a node without a table move, at depth
	// >= ReduceUnorderedFrom, is searched a ply shallower.
	ReduceUnorderedFrom int
}

// SearchParam describes one of SearchParams: its name (lowercase with
// dashes), one line of doc, its default (the engine's: a game may have its
// own, see SearchParamListFor) and the range a tuner may try, in steps of
// Step.
type SearchParam struct {
	Name    string  `json:"name"`
	Doc     string  `json:"doc"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Step    float64 `json:"step"`
}

// Feature returns the parameter as an evaluation feature, for tuners that
// tune features.
func (p SearchParam) Feature() games.Feature {
	return games.Feature{Name: p.Name, Doc: p.Doc, Default: p.Default, Min: p.Min, Max: p.Max, Step: p.Step}
}

// searchParams is the list in its fixed order.
var searchParams = []SearchParam{
	{Name: "null-min-depth", Doc: "null-move pruning from this depth (plies; 0 is off)", Default: 3, Min: 0, Max: 12, Step: 1},
	{Name: "null-reduction", Doc: "plies the null move's search is reduced by, at least", Default: 3, Min: 1, Max: 6, Step: 1},
	{Name: "null-divisor", Doc: "one more ply of null-move reduction for every this many plies of depth", Default: 4, Min: 1, Max: 16, Step: 1},
	{Name: "null-verify-from", Doc: "null-move cutoffs at this depth or deeper are verified by a search without null move (plies)", Default: 12, Min: 1, Max: 64, Step: 1},
	{Name: "null-eval-margin", Doc: "one more ply of null-move reduction for every this much of static evaluation above beta (evaluation units; 0 is none)", Default: 0, Min: 0, Max: 1000, Step: 10},
	{Name: "null-eval-max", Doc: "at most this many plies of null-move reduction from the evaluation above beta", Default: 3, Min: 0, Max: 6, Step: 1},
	{Name: "null-table-check", Doc: "1: no null move where the table holds an upper bound below beta", Default: 0, Min: 0, Max: 1, Step: 1},
	{Name: "lmr-min-depth", Doc: "late-move reductions from this depth (plies; 0 is off)", Default: 3, Min: 0, Max: 12, Step: 1},
	{Name: "lmr-min-move", Doc: "moves searched in full before late-move reductions start", Default: 3, Min: 1, Max: 20, Step: 1},
	{Name: "lmr-base", Doc: "late-move reduction: constant part, in hundredths of a ply", Default: 75, Min: 0, Max: 300, Step: 5},
	{Name: "lmr-divisor", Doc: "late-move reduction: ln(depth)*ln(move) divided by this, in hundredths", Default: 225, Min: 100, Max: 600, Step: 5},
	{Name: "lmp-max-depth", Doc: "late-move pruning up to this depth (plies; 0 is off)", Default: 3, Min: 0, Max: 8, Step: 1},
	{Name: "lmp-base", Doc: "late-move pruning: quiet moves searched at any depth before the rest are skipped", Default: 3, Min: 1, Max: 30, Step: 1},
	{Name: "lmp-scale", Doc: "late-move pruning: more quiet moves searched, depth*depth times this in hundredths", Default: 100, Min: 0, Max: 400, Step: 5},
	{Name: "futility-max-depth", Doc: "futility pruning of quiet moves up to this depth (plies; 0 is off)", Default: 3, Min: 0, Max: 8, Step: 1},
	{Name: "futility-base", Doc: "futility margin: constant part (evaluation units)", Default: 50, Min: 0, Max: 1000, Step: 5},
	{Name: "futility-margin", Doc: "futility margin: per ply of depth (evaluation units)", Default: 100, Min: 0, Max: 1000, Step: 5},
	{Name: "rfp-max-depth", Doc: "reverse futility pruning up to this depth (plies; 0 is off)", Default: 6, Min: 0, Max: 12, Step: 1},
	{Name: "rfp-margin", Doc: "reverse futility margin per ply of depth (evaluation units)", Default: 80, Min: 0, Max: 1000, Step: 5},
	{Name: "razor-max-depth", Doc: "razoring up to this depth (plies; 0 is off)", Default: 2, Min: 0, Max: 6, Step: 1},
	{Name: "razor-base", Doc: "razoring margin: constant part (evaluation units)", Default: 300, Min: 0, Max: 2000, Step: 10},
	{Name: "razor-margin", Doc: "razoring margin: per ply of depth (evaluation units)", Default: 200, Min: 0, Max: 2000, Step: 10},
	{Name: "see-margin", Doc: "quiescence skips captures whose static exchange loses more than this (evaluation units)", Default: 0, Min: 0, Max: 1000, Step: 10},
	{Name: "probcut-min-depth", Doc: "Multi-ProbCut from this depth (plies; 0 is off)", Default: 3, Min: 0, Max: 20, Step: 1},
	{Name: "probcut-threshold", Doc: "Multi-ProbCut cuts when the shallow search clears the window by this many hundredths of its error's deviation", Default: 150, Min: 0, Max: 500, Step: 5},
	{Name: "iir-min-depth", Doc: "a node without a table move is searched a ply shallower from this depth (plies; 0 is off)", Default: 0, Min: 0, Max: 20, Step: 1},
}

// ref returns the field of the i-th parameter of searchParams. (A switch
// rather than a function per parameter: a pointer to a local SearchParams
// then stays on the stack.)
func (sp *SearchParams) ref(i int) *int {
	switch i {
	case 0:
		return &sp.NullMinDepth
	case 1:
		return &sp.NullReduction
	case 2:
		return &sp.NullDivisor
	case 3:
		return &sp.NullVerifyFrom
	case 4:
		return &sp.NullEvalMargin
	case 5:
		return &sp.NullEvalMax
	case 6:
		return &sp.NullTableCheck
	case 7:
		return &sp.ReductionMinDepth
	case 8:
		return &sp.ReductionMinMove
	case 9:
		return &sp.ReductionBase
	case 10:
		return &sp.ReductionDivisor
	case 11:
		return &sp.PruneMaxDepth
	case 12:
		return &sp.PruneBase
	case 13:
		return &sp.PruneScale
	case 14:
		return &sp.FutilityMaxDepth
	case 15:
		return &sp.FutilityBase
	case 16:
		return &sp.FutilityMargin
	case 17:
		return &sp.ReverseMaxDepth
	case 18:
		return &sp.ReverseMargin
	case 19:
		return &sp.RazorMaxDepth
	case 20:
		return &sp.RazorBase
	case 21:
		return &sp.RazorMargin
	case 22:
		return &sp.ExchangeMargin
	case 23:
		return &sp.ProbCutMinDepth
	case 24:
		return &sp.ProbCutThreshold
	case 25:
		return &sp.ReduceUnorderedFrom
	}
	panic("engine: no search parameter " + strconv.Itoa(i))
}

// SearchParamList lists the search parameters in their fixed order, with
// the engine's defaults. The caller may change the copy it gets.
func SearchParamList() []SearchParam {
	return append([]SearchParam(nil), searchParams...)
}

// SearchParamsUsed is SearchParamListFor without the parameters of
// techniques the game of p does not offer: null move (games.NullMover),
// the exchange margin (games.Exchanger) and Multi-ProbCut
// (games.ProbCutter). 'tune games' lists these.
func SearchParamsUsed(p games.Position) []SearchParam {
	_, null := p.(games.NullMover)
	_, exchange := p.(games.Exchanger)
	_, probCut := p.(games.ProbCutter)
	var out []SearchParam
	for _, sp := range SearchParamListFor(p) {
		switch {
		case strings.HasPrefix(sp.Name, "null-") && !null,
			sp.Name == "see-margin" && !exchange,
			strings.HasPrefix(sp.Name, "probcut-") && !probCut:
			continue
		}
		out = append(out, sp)
	}
	return out
}

// SearchParamListFor is SearchParamList with the defaults of the game of
// p (games.SearchDefaulter) in place of the engine's.
func SearchParamListFor(p games.Position) []SearchParam {
	list := SearchParamList()
	d := DefaultSearchParams(p)
	for i := range list {
		list[i].Default = float64(*d.ref(i))
	}
	return list
}

// ErrSearchParam is wrapped by the errors of SearchParams for unknown names
// and values out of range.
var ErrSearchParam = errors.New("engine: bad search parameter")

// engineDefaults are the defaults of searchParams.
func engineDefaults() SearchParams {
	var p SearchParams
	for i, d := range searchParams {
		*p.ref(i) = int(d.Default)
	}
	return p
}

// DefaultSearchParams returns the defaults for the game of p: the engine's,
// with the game's own (games.SearchDefaulter) in their place where it has
// them. p may be nil for the engine's alone.
func DefaultSearchParams(p games.Position) SearchParams {
	d := engineDefaults()
	if g, ok := p.(games.SearchDefaulter); ok {
		for name, v := range g.SearchDefaults() {
			if i := findSearchParam(name); i >= 0 && float64(v) >= searchParams[i].Min && float64(v) <= searchParams[i].Max {
				*d.ref(i) = v
			}
		}
	}
	return d
}

// findSearchParam returns the index of the named parameter, or -1.
func findSearchParam(name string) int {
	for i, sp := range searchParams {
		if sp.Name == name {
			return i
		}
	}
	return -1
}

func searchParamNames() string {
	names := make([]string, len(searchParams))
	for i, sp := range searchParams {
		names[i] = sp.Name
	}
	return strings.Join(names, ", ")
}

// Get returns the value of the named parameter.
func (sp SearchParams) Get(name string) (float64, error) {
	i := findSearchParam(name)
	if i < 0 {
		return 0, fmt.Errorf("%w: no search parameter %q (have %s)", ErrSearchParam, name, searchParamNames())
	}
	return float64(*sp.ref(i)), nil
}

// Set sets the named parameter to v, which must be a whole number within
// the parameter's range; sp is unchanged on error.
func (sp *SearchParams) Set(name string, v float64) error {
	i := findSearchParam(name)
	if i < 0 {
		return fmt.Errorf("%w: no search parameter %q (have %s)", ErrSearchParam, name, searchParamNames())
	}
	if d := searchParams[i]; math.IsNaN(v) || v != math.Trunc(v) || v < d.Min || v > d.Max {
		return fmt.Errorf("%w: %s = %v: want a whole number from %g to %g", ErrSearchParam, name, v, d.Min, d.Max)
	}
	*sp.ref(i) = int(v)
	return nil
}

// Values returns every parameter by name.
func (sp SearchParams) Values() map[string]float64 {
	m := make(map[string]float64, len(searchParams))
	for i, d := range searchParams {
		m[d.Name] = float64(*sp.ref(i))
	}
	return m
}

// SearchParamsFrom returns base with the values of m set by name (see
// Set); the error names the first bad name or value in name order.
func SearchParamsFrom(base SearchParams, m map[string]float64) (SearchParams, error) {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := base.Set(name, m[name]); err != nil {
			return SearchParams{}, err
		}
	}
	return base, nil
}

// Check reports the first parameter outside its range.
func (sp SearchParams) Check() error {
	for i, d := range searchParams {
		if v := float64(*sp.ref(i)); v < d.Min || v > d.Max {
			return fmt.Errorf("%w: %s = %g: want a whole number from %g to %g", ErrSearchParam, d.Name, v, d.Min, d.Max)
		}
	}
	return nil
}
