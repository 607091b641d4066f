package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"github.com/spf13/cobra"
)

type compareOptions struct {
	game, evaluator, start, algos, out, openings string
	budget, workers, depth, pairs, champions     int
	seed                                         uint64
	json                                         bool
	cluster                                      clusterOptions
}

func newCompareCommand(g *globalOptions) *cobra.Command {
	o := compareOptions{}
	c := &cobra.Command{
		Use:   "compare --game G --budget-games N --out DIR [flags]",
		Short: "Run several tuners from the same start on the same budget, then rate their champions in one ladder",
		Long: `compare runs each tuner of --algos (genetic, knockout, spsa, cmaes, texel) from
the same start, seed and games budget, each in its own run directory DIR/<algo>
(its defaults, stopped by the budget); then rates the champions of every run
(up to --champions each, evenly spaced, the last always) with the start and the
defaults in one ladder (DIR/ladder), prints a table of the Elo each tuner gained
over the start and draws Elo against games spent, one curve per tuner
(DIR/compare.png and .svg).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runCompare(c.Context(), o, *g, outputOf(c))
		},
	}
	f := c.Flags()
	o.cluster.bind(f)
	f.StringVar(&o.game, "game", "", "game to tune")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator to tune (default: the game's first)")
	f.StringVar(&o.start, "start", "default", "weights file to start from, 'default', or 'random' (one vector drawn from the seed, the same for every tuner)")
	f.IntVar(&o.budget, "budget-games", 0, "games budget of each tuner")
	f.StringVar(&o.algos, "algos", "genetic,knockout,spsa,cmaes,texel", "tuners to compare, comma-separated")
	f.StringVar(&o.out, "out", "", "directory to create for the runs and the comparison")
	f.StringVar(&o.openings, "openings", "random:8", "openings of every run (random:N or a file)")
	f.IntVar(&o.depth, "depth", 4, "search depth of every game")
	f.Uint64Var(&o.seed, "seed", 1, "seed of every run")
	f.IntVar(&o.pairs, "pairs", 0, "pairs per pairing of the final ladder (0: about a tenth of the games spent)")
	f.IntVar(&o.champions, "champions", 4, "champions of each run in the final ladder")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.BoolVar(&o.json, "json", false, "print the table as JSON")
	return c
}

// compareRow is one tuner's line of the comparison.
type compareRow struct {
	Algo     string      `json:"algo"`
	Champion string      `json:"champion"`
	Elo      stats.Float `json:"elo"` // over the start
	Low      stats.Float `json:"low"`
	High     stats.Float `json:"high"`
	Games    int         `json:"games"`
	Seconds  float64     `json:"seconds"`
	first, n int         // its champions' entries on the ladder
}

func runCompare(ctx context.Context, o compareOptions, gopts globalOptions, out output) error {
	plans, err := comparePlans(ctx, o)
	if err != nil {
		return err
	}
	if err := os.Mkdir(o.out, 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			return usageError{fmt.Errorf("compare: %s exists already (choose a new --out)", o.out)}
		}
		return err
	}
	to := tuningOutput{io.Discard, out.Stderr, gopts.quiet}
	var rows []compareRow
	var champions []population.LadderEntry
	for i, plan := range plans {
		row, mine, err := compareRun(ctx, to, o, plan, i)
		if err != nil {
			return err
		}
		row.first, row.n = len(champions), len(mine)
		rows, champions = append(rows, row), append(champions, mine...)
	}
	l, err := compareLadder(ctx, to, o, plans[len(plans)-1], rows, champions)
	if err != nil {
		return err
	}
	table, err := writeComparison(o.out, l, rows)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out.Stdout, rows)
	}
	_, err = out.Stdout.Write(table)
	fmt.Fprintf(out.Stdout, "plot: %s\n", filepath.Join(o.out, "compare.png"))
	return err
}

// comparePlans checks the options and resolves each tuner's plan.
func comparePlans(ctx context.Context, o compareOptions) ([]*population.Plan, error) {
	if o.out == "" || o.game == "" {
		return nil, usageError{errors.New("compare: --game and --out DIR are required")}
	}
	if o.budget <= 0 {
		return nil, usageError{fmt.Errorf("compare: --budget-games %d: want a positive number of games per tuner", o.budget)}
	}
	if o.champions < 1 || o.champions > population.MaxLadderChampions {
		return nil, usageError{fmt.Errorf("compare: --champions %d: 1 to %d", o.champions, population.MaxLadderChampions)}
	}
	algos, err := population.ParseAlgos(o.algos)
	if err != nil {
		return nil, usageError{fmt.Errorf("compare: --algos: %w", err)}
	}
	if !o.cluster.enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return nil, err
		}
	}
	base := population.Defaults()
	base.Game, base.Evaluator, base.Start, base.Seed, base.Depth, base.Openings = o.game, o.evaluator, o.start, o.seed, o.depth, o.openings
	base.BudgetGames = o.budget
	var plans []*population.Plan
	for _, a := range algos {
		plan, err := resolvePlan(ctx, population.CompareConfig(base, a))
		if err != nil {
			return nil, fmt.Errorf("compare: %s: %w", a, err)
		}
		plans = append(plans, plan)
	}
	return plans, nil
}

// compareRun runs the i-th tuner of the comparison in its directory and
// returns its row and its champions for the ladder.
func compareRun(ctx context.Context, to tuningOutput, o compareOptions, plan *population.Plan, i int) (compareRow, []population.LadderEntry, error) {
	a := plan.Config().Algo
	dir := filepath.Join(o.out, string(a))
	if !to.quiet {
		fmt.Fprintf(to.stderr, "compare: %s (%s)\n", a, dir)
	}
	if err := createAndRun(ctx, to, plan, dir, o.workers, o.cluster); err != nil {
		return compareRow{}, nil, fmt.Errorf("compare: %s: %w", a, err)
	}
	run, err := results.OpenReadOnly(dir)
	if err != nil {
		return compareRow{}, nil, err
	}
	defer run.Close()
	hist, err := run.Generations()
	info, ierr := run.Info()
	if err = errors.Join(err, ierr); err != nil {
		return compareRow{}, nil, err
	}
	row := compareRow{Algo: string(a), Games: hist[len(hist)-1].Spent, Seconds: info.Seconds}
	return row, population.Champions(hist, o.champions, string(a), (i+1)*1_000_000_000), nil
}

// compareLadder rates every run's champions, the start and the defaults in
// one ladder, recorded in its own directory, and fills the rows' Elo.
func compareLadder(ctx context.Context, to tuningOutput, o compareOptions, last *population.Plan, rows []compareRow, champions []population.LadderEntry) (*population.Ladder, error) {
	cfg := last.Config()
	cfg.Algo, cfg.LadderPairs = population.Genetic, 0
	plan, err := resolvePlan(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ladderRun, err := results.Create(filepath.Join(o.out, "ladder"), cfg.Marshal(), cfg.Game, "compare", cfg.Seed, version)
	if err != nil {
		return nil, err
	}
	defer ladderRun.Close()
	pool, err := tournament.NewPool(o.workers, poolTableMiB)
	if err != nil {
		return nil, usageError{err}
	}
	defer pool.Close()
	tuner, err := population.New(plan, pool, ladderRun)
	if err != nil {
		return nil, err
	}
	spent := 0
	for _, r := range rows {
		spent += r.Games
	}
	l, offset, err := tuner.RateChampions(ctx, champions, o.pairs, spent)
	if err != nil {
		return nil, err
	}
	if !to.quiet {
		fmt.Fprintf(to.stderr, "compare: ladder of %d players, %d pairs per pairing\n", len(l.Entries), l.Pairs)
	}
	ref := l.Entries[l.Reference].Elo
	for i, r := range rows {
		if r.n > 0 {
			e := l.Entries[offset+r.first+r.n-1]
			rows[i].Champion, rows[i].Elo, rows[i].Low, rows[i].High = e.Label, stats.Float(e.Elo-ref), stats.Float(e.Low-ref), stats.Float(e.High-ref)
		}
		rows[i].first += offset
	}
	return l, ladderRun.RecordLadder(*l)
}

// writeComparison writes the comparison's plot and table into dir and
// returns the table.
func writeComparison(dir string, l *population.Ladder, rows []compareRow) ([]byte, error) {
	ref := l.Entries[l.Reference]
	var curves []reports.CompareCurve
	for _, r := range rows {
		curves = append(curves, reports.CompareCurve{Name: r.Algo, Points: l.Entries[r.first : r.first+r.n]})
	}
	fig := reports.Comparison(curves, ref.Elo)
	for format, draw := range map[string]func() ([]byte, error){"png": fig.PNG, "svg": fig.SVG} {
		data, err := draw()
		if err == nil {
			err = results.WriteFileAtomic(filepath.Join(dir, "compare."+format), data, false)
		}
		if err != nil {
			return nil, err
		}
	}
	var table bytes.Buffer
	printLadder(&table, l)
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tuner\tlast champion\tElo over the %s [95%%]\tgames\ttime\t\n", ref.Label)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.0f s\t\n", r.Algo, r.Champion, eloString(float64(r.Elo), float64(r.Low), float64(r.High)), r.Games, r.Seconds)
	}
	tw.Flush()
	return table.Bytes(), results.WriteFileAtomic(filepath.Join(dir, "compare.txt"), table.Bytes(), false)
}
