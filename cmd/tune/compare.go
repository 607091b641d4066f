package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/cobra"
)

type compareOptions struct {
	base                      population.Config // the settings every tuner shares
	algos, out                string
	workers, pairs, champions int
	json                      bool
	cluster                   clusterOptions
}

func runCompare(ctx context.Context, o compareOptions, gopts globalOptions, out output) error {
	algos, err := compareAlgos(o)
	if err != nil {
		return err
	}
	to := tuning.Output{Stdout: io.Discard, Stderr: out.Stderr, Quiet: gopts.quiet}
	rows, table, err := tuning.Compare(ctx, tuning.Comparison{Base: o.base, Algos: algos, Dir: o.out, Champions: o.champions, Pairs: o.pairs,
		Resolve: resolvePlan, Run: func(ctx context.Context, plan *population.Plan, dir string) error {
			return createAndRun(ctx, to, plan, dir, o.workers, o.cluster)
		}, Ladder: runnerOf(o.workers, clusterOptions{}, out.Stderr), Out: to})
	if errors.Is(err, fs.ErrExist) {
		return usageError{fmt.Errorf("compare: %s exists already (choose a new --out)", o.out)}
	}
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out.Stdout, rows)
	}
	_, err = out.Stdout.Write(table)
	fmt.Fprintf(out.Stdout, "plot: %s\npage: %s\n", filepath.Join(o.out, "compare.png"), filepath.Join(o.out, reports.ComparePage))
	return err
}

// compareAlgos checks the options and returns the tuners to compare.
func compareAlgos(o compareOptions) ([]population.Algo, error) {
	if o.out == "" || o.base.Game == "" {
		return nil, usageError{errors.New("compare: --game and --out DIR are required")}
	}
	if o.base.BudgetGames <= 0 {
		return nil, usageError{fmt.Errorf("compare: --budget-games %d: want a positive number of games per tuner", o.base.BudgetGames)}
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
	return algos, nil
}

func newCompareCommand(g *globalOptions) *cobra.Command {
	o := compareOptions{base: population.Defaults()}
	c := command("compare --game G --budget-games N --out DIR [flags]", "Run several tuners from the same start on the same budget, then rate their champions in one ladder",
		`compare runs each tuner of --algos (genetic, knockout, spsa, cmaes, texel, bayes) from
the same start, seed and games budget, each in its own run directory DIR/<algo>
(its defaults, stopped by the budget); then rates the champions of every run
(up to --champions each, evenly spaced, the last always) with the start and the
defaults in one ladder (DIR/ladder), prints a table of the Elo each tuner gained
over the start and draws Elo against games spent, one curve per tuner
(DIR/compare.png and .svg). DIR/compare.json records the comparison from its
start (tune runs and the dashboard list it, with its status: running, done,
failed or interrupted), and DIR/compare.html is its page (the table, the
plot, each tuner's champions on the ladder), written as each tuner ends and
at the end (tune report DIR writes it again).`, cobra.NoArgs, func(ctx context.Context, out output) error { return runCompare(ctx, o, *g, out) })
	f := c.Flags()
	o.cluster.bind(f)
	f.StringVar(&o.base.Game, "game", "", "game to tune")
	f.StringVar(&o.base.Evaluator, "evaluator", "", "evaluator to tune (default: the game's first)")
	f.StringVar(&o.base.Start, "start", "default", "weights file to start from, 'default', or 'random' (one vector drawn from the seed, the same for every tuner)")
	f.IntVar(&o.base.BudgetGames, "budget-games", 0, "games budget of each tuner")
	f.StringVar(&o.algos, "algos", "genetic,knockout,spsa,cmaes,texel", "tuners to compare, comma-separated")
	f.StringVar(&o.out, "out", "", "directory to create for the runs and the comparison")
	f.StringVar(&o.base.Openings, "openings", "random:8", "openings of every run (random:N or a file)")
	f.IntVar(&o.base.Depth, "depth", 4, "search depth of every game")
	f.Uint64Var(&o.base.Seed, "seed", 1, "seed of every run")
	f.IntVar(&o.pairs, "pairs", 0, "pairs per pairing of the final ladder (0: about a tenth of the games spent)")
	f.IntVar(&o.champions, "champions", 4, "champions of each run in the final ladder")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.BoolVar(&o.json, "json", false, "print the table as JSON")
	return c
}
