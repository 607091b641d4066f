package tuning

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
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
// fs.ErrExist when it exists) with the comparison's record
// (results.CreateComparison: listed by tune runs and the dashboard from
// then on), runs each plan in Dir/<algo>, rates their champions in one
// ladder recorded in Dir/ladder and writes the comparison into Dir
// (reports.WriteComparison). How it ended is recorded (done, failed, or
// interrupted when ctx is done), and its page (Dir/compare.html,
// reports.RefreshComparison) written after each tuner and at the end. It
// returns a row per tuner, in order, and the comparison's table.
func Compare(ctx context.Context, c Comparison) ([]results.CompareRow, []byte, error) {
	var plans []*population.Plan
	for _, a := range c.Algos {
		plan, err := c.Resolve(ctx, population.CompareConfig(c.Base, a))
		if err != nil {
			return nil, nil, fmt.Errorf("compare: %s: %w", a, err)
		}
		plans = append(plans, plan)
	}
	rec := results.CompareRecord{Game: c.Base.Game, Evaluator: plans[0].Evaluator().Name, BudgetGames: c.Base.BudgetGames, Seed: c.Base.Seed,
		Champions: c.Champions, Pairs: c.Pairs, Config: string(c.Base.Marshal()), Version: Version}
	for _, a := range c.Algos {
		rec.Algos = append(rec.Algos, string(a))
	}
	cmp, err := results.CreateComparison(c.Dir, rec)
	if err != nil {
		return nil, nil, err
	}
	defer cmp.Close()
	rows, table, err := c.compare(ctx, plans)
	status := results.StatusDone
	switch {
	case err != nil && ctx.Err() != nil:
		status = results.StatusInterrupted
		fmt.Fprintf(c.Out.Stderr, "compare interrupted; the finished tuners' runs are saved in %s\n", c.Dir)
	case err != nil:
		status = results.StatusFailed
	}
	if serr := cmp.End(status); serr != nil {
		err = errors.Join(err, fmt.Errorf("compare: recording how it ended: %w", serr))
	}
	c.refresh()
	return rows, table, err
}

// compare runs each plan in its directory, then rates the champions.
func (c Comparison) compare(ctx context.Context, plans []*population.Plan) ([]results.CompareRow, []byte, error) {
	var rows []results.CompareRow
	for i, plan := range plans {
		row, err := c.run(ctx, plan, i)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row)
		c.refresh()
	}
	l, err := c.rate(ctx, plans[len(plans)-1], rows)
	if err != nil {
		return nil, nil, err
	}
	table, err := reports.WriteComparison(c.Dir, l, rows)
	return rows, table, err
}

// refresh writes the comparison's page as it stands; a failure is noted,
// not returned: the runs and the table are what the comparison gives.
func (c Comparison) refresh() {
	if err := reports.RefreshComparison(c.Dir); err != nil {
		fmt.Fprintln(c.Out.Stderr, "compare: could not write the comparison's page:", err)
	}
}

// run runs the i-th plan of the comparison in its directory and returns
// its row, its champions (unrated) as the row's entries.
func (c Comparison) run(ctx context.Context, plan *population.Plan, i int) (results.CompareRow, error) {
	a := plan.Config().Algo
	dir := filepath.Join(c.Dir, string(a))
	if !c.Out.Quiet {
		fmt.Fprintf(c.Out.Stderr, "compare: %s (%s)\n", a, dir)
	}
	if err := c.Run(ctx, plan, dir); err != nil {
		return results.CompareRow{}, fmt.Errorf("compare: %s: %w", a, err)
	}
	run, err := results.OpenReadOnly(dir)
	if err != nil {
		return results.CompareRow{}, err
	}
	defer run.Close()
	hist, err := run.Generations()
	info, ierr := run.Info()
	if err = errors.Join(err, ierr); err != nil {
		return results.CompareRow{}, err
	}
	return results.CompareRow{Algo: string(a), Games: hist[len(hist)-1].Spent, Seconds: info.Seconds,
		Entries: population.Champions(hist, c.Champions, string(a), (i+1)*1_000_000_000)}, nil
}

// rate rates the champions of every row, the start and the defaults in
// one ladder, recorded in its own directory, and gives each row its
// champions' rated entries and its last champion's Elo over the start.
func (c Comparison) rate(ctx context.Context, last *population.Plan, rows []results.CompareRow) (*population.Ladder, error) {
	cfg := last.Config()
	cfg.Algo, cfg.LadderPairs = population.Genetic, 0
	plan, err := c.Resolve(ctx, cfg)
	if err != nil {
		return nil, err
	}
	run, err := results.Create(filepath.Join(c.Dir, results.CompareLadder), cfg.Marshal(), cfg.Game, "compare", cfg.Seed, Version)
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
	l, _, err := tuner.RateChampions(ctx, champions, c.Pairs, spent)
	if err != nil {
		return nil, err
	}
	if !c.Out.Quiet {
		fmt.Fprintf(c.Out.Stderr, "compare: ladder of %d players, %d pairs per pairing\n", len(l.Entries), l.Pairs)
	}
	results.RateRows(rows, l)
	return l, run.RecordLadder(*l)
}
