package tuning

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// Comparison is a comparison of tuners on one budget (tune compare): the
// run of each tuner in its own directory, from the same settings, then
// the champions of every run, the start and the defaults rated in one
// ladder.
type Comparison struct {
	Base      population.Config // the settings every tuner shares (population.CompareConfig)
	Algos     []population.Algo // the tuners, in order
	Dir       string            // the comparison's directory, made by Compare
	Champions int               // champions of each run on the ladder, evenly spaced, the last always
	Pairs     int               // pairs per pairing of the ladder (0: about a tenth of the games spent)
	// Resolve makes the plan of a config (population.Resolve, reading
	// what the config names from the caller's sources).
	Resolve func(ctx context.Context, cfg population.Config) (*population.Plan, error)
	// Run runs plan to its end in the new run directory dir.
	Run func(ctx context.Context, plan *population.Plan, dir string) error
	// Ladder opens the runner of the ladder's games.
	Ladder Opener
	Out    Output // notes on Stderr
}

// Compare resolves the plan of each tuner, makes Dir (an error wrapping
// fs.ErrExist when it exists), runs each plan in Dir/<algo>, rates their
// champions in one ladder recorded in Dir/ladder and writes the
// comparison into Dir (reports.WriteComparison). It returns a row per
// tuner, in order, and the comparison's table.
func Compare(ctx context.Context, c Comparison) ([]reports.CompareRow, []byte, error) {
	var plans []*population.Plan
	for _, a := range c.Algos {
		plan, err := c.Resolve(ctx, population.CompareConfig(c.Base, a))
		if err != nil {
			return nil, nil, fmt.Errorf("compare: %s: %w", a, err)
		}
		plans = append(plans, plan)
	}
	if err := os.Mkdir(c.Dir, 0o755); err != nil {
		return nil, nil, err
	}
	var rows []reports.CompareRow
	for i, plan := range plans {
		row, err := c.run(ctx, plan, i)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row)
	}
	l, err := c.rate(ctx, plans[len(plans)-1], rows)
	if err != nil {
		return nil, nil, err
	}
	table, err := reports.WriteComparison(c.Dir, l, rows)
	return rows, table, err
}

// run runs the i-th plan of the comparison in its directory and returns
// its row, its champions (unrated) as the row's entries.
func (c Comparison) run(ctx context.Context, plan *population.Plan, i int) (reports.CompareRow, error) {
	a := plan.Config().Algo
	dir := filepath.Join(c.Dir, string(a))
	if !c.Out.Quiet {
		fmt.Fprintf(c.Out.Stderr, "compare: %s (%s)\n", a, dir)
	}
	if err := c.Run(ctx, plan, dir); err != nil {
		return reports.CompareRow{}, fmt.Errorf("compare: %s: %w", a, err)
	}
	run, err := results.OpenReadOnly(dir)
	if err != nil {
		return reports.CompareRow{}, err
	}
	defer run.Close()
	hist, err := run.Generations()
	info, ierr := run.Info()
	if err = errors.Join(err, ierr); err != nil {
		return reports.CompareRow{}, err
	}
	return reports.CompareRow{Algo: string(a), Games: hist[len(hist)-1].Spent, Seconds: info.Seconds,
		Entries: population.Champions(hist, c.Champions, string(a), (i+1)*1_000_000_000)}, nil
}

// rate rates the champions of every row, the start and the defaults in
// one ladder, recorded in its own directory, and gives each row its
// champions' rated entries and its last champion's Elo over the start.
func (c Comparison) rate(ctx context.Context, last *population.Plan, rows []reports.CompareRow) (*population.Ladder, error) {
	cfg := last.Config()
	cfg.Algo, cfg.LadderPairs = population.Genetic, 0
	plan, err := c.Resolve(ctx, cfg)
	if err != nil {
		return nil, err
	}
	run, err := results.Create(filepath.Join(c.Dir, "ladder"), cfg.Marshal(), cfg.Game, "compare", cfg.Seed, Version)
	if err != nil {
		return nil, err
	}
	defer run.Close()
	tuner, games, err := newTuner(ctx, plan, run, c.Ladder)
	if err != nil {
		return nil, err
	}
	defer games.Close()
	var champions []population.LadderEntry
	spent := 0
	for _, r := range rows {
		champions, spent = append(champions, r.Entries...), spent+r.Games
	}
	l, first, err := tuner.RateChampions(ctx, champions, c.Pairs, spent)
	if err != nil {
		return nil, err
	}
	if !c.Out.Quiet {
		fmt.Fprintf(c.Out.Stderr, "compare: ladder of %d players, %d pairs per pairing\n", len(l.Entries), l.Pairs)
	}
	ref := l.Entries[l.Reference].Elo
	for i, r := range rows {
		n := len(r.Entries)
		rows[i].Entries, first = l.Entries[first:first+n], first+n
		if n > 0 {
			e := rows[i].Entries[n-1]
			rows[i].Champion, rows[i].Elo, rows[i].Low, rows[i].High = e.Label, stats.Float(e.Elo-ref), stats.Float(e.Low-ref), stats.Float(e.High-ref)
		}
	}
	return l, run.RecordLadder(*l)
}
