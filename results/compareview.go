package results

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament/stats"
)

// CompareRow is one tuner's line of a comparison of tuners on one budget
// (tune compare): its last champion's Elo over the reference of the shared
// ladder (the start, or the defaults), with its 95% interval, and what its
// run cost.
type CompareRow struct {
	Algo     string      `json:"algo"`
	Champion string      `json:"champion"`
	Elo      stats.Float `json:"elo"` // over the reference; null until rated
	Low      stats.Float `json:"low"`
	High     stats.Float `json:"high"`
	Games    int         `json:"games"` // spent by its run, as its budget counts them
	Seconds  float64     `json:"seconds"`
	// Entries are its champions' entries on the comparison's ladder, the
	// last one's the row's Elo.
	Entries []population.LadderEntry `json:"-"`
}

// RateRows gives each row its champions' entries on the shared ladder l,
// in l's order (the entries population.Champions labelled
// "<algo>:g<generation>"), and its last champion's label and Elo over l's
// reference with the 95% interval; without l (nil), or for a row with no
// entry on it, no entries and NaN.
func RateRows(rows []CompareRow, l *population.Ladder) {
	nan := stats.Float(math.NaN())
	for i := range rows {
		r := &rows[i]
		r.Entries, r.Champion, r.Elo, r.Low, r.High = nil, "", nan, nan, nan
		if l == nil {
			continue
		}
		for _, e := range l.Entries {
			if strings.HasPrefix(e.Label, r.Algo+":") {
				r.Entries = append(r.Entries, e)
			}
		}
		if n := len(r.Entries); n > 0 {
			ref, e := l.Entries[l.Reference].Elo, r.Entries[n-1]
			r.Champion, r.Elo, r.Low, r.High = e.Label, stats.Float(e.Elo-ref), stats.Float(e.Low-ref), stats.Float(e.High-ref)
		}
	}
}

// CompareTuner is one tuner of a comparison as read: its run's record and
// view; or, when its run cannot be read, why (Damaged, with the record
// when that much could be read); or neither, with Info.Status
// StatusPending, when its run has not started.
type CompareTuner struct {
	Algo    string
	Info    Info
	View    *View // nil when pending or damaged
	Damaged string
}

// CompareView is a comparison as every reader shows it (tune runs, the
// report, the dashboard): its record, its tuners' runs, the shared ladder
// and a row per tuner. It is a snapshot.
type CompareView struct {
	Name   string // the directory's base name
	Dir    string
	Record CompareRecord      // as ReadCompareRecord reads it
	Tuners []CompareTuner     // one per algo of the record, in order
	Ladder *population.Ladder // the shared ladder; nil until rated
	// Rows has a row per tuner, in order: the games its run spent and its
	// time, and once the ladder is rated its champions on it (RateRows).
	Rows []CompareRow
	// Evaluator is the evaluator the tuners tune (of the first tuner
	// read); nil when none could be read.
	Evaluator *games.Evaluator
}

// NewCompareView makes the view of a comparison from what was read of
// it: its record, its tuners (in the record's order) and its shared ladder
// (nil for none). It checks that every ladder entry holds one weight per
// feature of the tuners' evaluator (an error wrapping ErrDamaged when one
// does not).
func NewCompareView(dir string, rec CompareRecord, tuners []CompareTuner, ladder *population.Ladder) (*CompareView, error) {
	v := &CompareView{Name: filepath.Base(filepath.Clean(dir)), Dir: dir, Record: rec, Tuners: tuners, Ladder: ladder}
	for _, t := range tuners {
		row := CompareRow{Algo: t.Algo, Seconds: t.Info.Seconds}
		if t.View != nil {
			if n := len(t.View.Generations); n > 0 {
				row.Games = t.View.Generations[n-1].Spent
			}
			if v.Evaluator == nil {
				v.Evaluator = t.View.Evaluator
			}
		}
		v.Rows = append(v.Rows, row)
	}
	if ladder != nil && v.Evaluator != nil {
		for _, e := range ladder.Entries {
			if len(e.Weights) != len(v.Evaluator.Features) {
				return nil, fmt.Errorf("%w: the comparison's ladder entry %s has %d weights for %d features", ErrDamaged, e.Label, len(e.Weights), len(v.Evaluator.Features))
			}
		}
	}
	RateRows(v.Rows, ladder)
	return v, nil
}

// OpenCompareView reads the comparison in dir: its record
// (ReadCompareRecord), each tuner's run (OpenView; damaged or pending
// tuners are part of the view) and its shared ladder.
func OpenCompareView(dir string) (*CompareView, error) {
	rec, err := ReadCompareRecord(dir)
	if err != nil {
		return nil, err
	}
	var tuners []CompareTuner
	for _, a := range rec.Algos {
		tuners = append(tuners, readTuner(filepath.Join(dir, a), a, rec.Game))
	}
	var ladder *population.Ladder
	if ld := filepath.Join(dir, CompareLadder); IsRun(ld) {
		r, err := OpenReadOnly(ld)
		if err != nil {
			return nil, fmt.Errorf("results: the comparison's ladder: %w", err)
		}
		ladder, err = r.Ladder()
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("results: the comparison's ladder: %w", err)
		}
	}
	return NewCompareView(dir, rec, tuners, ladder)
}

// readTuner reads the run of a comparison's tuner algo in dir.
func readTuner(dir, algo, game string) CompareTuner {
	t := CompareTuner{Algo: algo, Info: Info{Dir: dir, Game: game, Algo: algo, Status: StatusPending}}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return t
	}
	r, err := OpenReadOnly(dir)
	if err != nil {
		t.Damaged, t.Info.Status = err.Error(), ""
		return t
	}
	defer r.Close()
	if in, err := r.Info(); err == nil {
		t.Info = in
	}
	v, err := ReadView(r)
	if err != nil {
		t.Damaged = err.Error()
		return t
	}
	t.View, t.Info = v, v.Info
	return t
}

// Games is the games the tuners' runs recorded, summed.
func (v *CompareView) Games() int {
	n := 0
	for _, t := range v.Tuners {
		n += t.Info.Games
	}
	return n
}

// Progress writes how far the comparison is: the games its tuners'
// runs recorded of their budgets, summed ("1200/4000 games").
func (v *CompareView) Progress() string {
	return fmt.Sprintf("%d/%d games", v.Games(), v.Record.BudgetGames*len(v.Record.Algos))
}

// BestRow is the index of the best tuner by the shared ladder: the row
// whose last champion rates highest; -1 until the ladder is rated.
func (v *CompareView) BestRow() int {
	best := -1
	for i, r := range v.Rows {
		if len(r.Entries) > 0 && !math.IsNaN(float64(r.Elo)) && (best < 0 || r.Elo > v.Rows[best].Elo) {
			best = i
		}
	}
	return best
}

// Best is the comparison's best as a run's best is told: the best
// tuner's last champion (BestRow) when it beats the shared ladder's
// reference with 95% confidence (its interval above 0), else the
// reference, with that champion as the strongest measured. ok is false
// until the ladder is rated.
func (v *CompareView) Best() (c population.Choice, ok bool) {
	i := v.BestRow()
	if i < 0 {
		return c, false
	}
	r, l := v.Rows[i], v.Ladder
	e, ref := r.Entries[len(r.Entries)-1], l.Entries[l.Reference]
	c = population.Choice{Label: ref.Label, Genome: ref.Genome, Generation: ref.Generation, Weights: ref.Weights, Reference: ref.Label,
		Source: "ladder", Candidate: e.Label, Elo: float64(r.Elo), Low: float64(r.Low), High: float64(r.High), Confident: r.Low > 0}
	if c.Confident {
		c.Label, c.Genome, c.Generation, c.Weights = e.Label, e.Genome, e.Generation, e.Weights
	}
	return c, true
}

// BestJSON is Best in the shape of a run's best, with the best tuner's
// name; nil until the ladder is rated.
func (v *CompareView) BestJSON() (*BestJSON, string) {
	c, ok := v.Best()
	if !ok || v.Evaluator == nil {
		return nil, ""
	}
	return choiceJSON(c, v.Evaluator.Features), v.Rows[v.BestRow()].Algo
}

// CompareLineJSON is what a comparison's line of a list (RunLineJSON)
// adds: its tuners, their budget, the best of them and each one's line.
type CompareLineJSON struct {
	Algos       []string      `json:"algos"`
	BudgetGames int           `json:"budget_games"` // of each tuner
	BestTuner   string        `json:"best_tuner,omitempty"`
	Tuners      []RunLineJSON `json:"tuners"`
}

// Line is the comparison's line in a list of runs: its record, the games
// and time of its tuners summed (Progress), its best (BestJSON) and each
// tuner's own line.
func (v *CompareView) Line() RunLineJSON {
	nan := stats.Float(math.NaN())
	rec := v.Record
	in := Info{Dir: v.Dir, Game: rec.Game, Algo: "compare", Seed: rec.Seed, Version: rec.Version, Status: rec.Status, Created: rec.Created, Ended: rec.Ended}
	c := &CompareLineJSON{Algos: rec.Algos, BudgetGames: rec.BudgetGames}
	for _, t := range v.Tuners {
		line := RunLineJSON{Info: t.Info, Progress: fmt.Sprintf("0/%d games", rec.BudgetGames), Damaged: t.Damaged, BestElo: nan, EloLow: nan, EloHigh: nan}
		if t.View != nil {
			line = viewLine(t.View)
		}
		in.Games, in.Seconds, in.Generations = in.Games+t.Info.Games, in.Seconds+t.Info.Seconds, in.Generations+t.Info.Generations
		if !t.Info.Started.IsZero() && (in.Started.IsZero() || t.Info.Started.Before(in.Started)) {
			in.Started = t.Info.Started
		}
		c.Tuners = append(c.Tuners, line)
	}
	l := RunLineJSON{Info: in, Progress: v.Progress(), BestElo: nan, EloLow: nan, EloHigh: nan, Compare: c}
	if b, algo := v.BestJSON(); b != nil {
		l.Best, l.BestElo, l.EloLow, l.EloHigh, c.BestTuner = b, b.Elo, b.Low, b.High, algo
	}
	return l
}

// ListLines lists the runs and the comparisons of tuners in the
// directories directly below root (and root itself), sorted by directory:
// a run's line (ListLine), a comparison's (CompareView.Line, its tuners'
// runs within it, not listed apart). Directories that are neither are
// skipped; a run whose record cannot be read is returned as an error, a
// run or comparison that cannot be read further as a line saying why
// (Damaged).
func ListLines(root string) ([]RunLineJSON, []error) {
	var lines []RunLineJSON
	var errs []error
	comparisons := map[string]bool{}
	add := func(dir string) {
		comparisons[filepath.Clean(dir)] = true
		v, err := OpenCompareView(dir)
		if err != nil {
			nan := stats.Float(math.NaN())
			lines = append(lines, RunLineJSON{Info: Info{Dir: dir, Algo: "compare"}, Damaged: err.Error(), BestElo: nan, EloLow: nan, EloHigh: nan})
			return
		}
		lines = append(lines, v.Line())
	}
	if IsComparison(root) {
		add(root)
	}
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			if d := filepath.Join(root, e.Name()); Listed(e) && IsComparison(d) {
				add(d)
			}
		}
	}
	infos, listErrs := List(root)
	for _, in := range infos {
		if !comparisons[filepath.Dir(filepath.Clean(in.Dir))] { // a tuner's run, or the ladder's: in its comparison's line
			lines = append(lines, ListLine(in))
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Dir < lines[j].Dir })
	return lines, append(errs, listErrs...)
}
