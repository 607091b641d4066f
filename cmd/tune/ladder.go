package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/cobra"
)

type ladderOptions struct {
	dir     string
	pairs   int
	workers int
	json    bool
}

func runLadder(ctx context.Context, o ladderOptions, gopts globalOptions, out output) error {
	if o.pairs < 0 || o.pairs > population.MaxLadderPairs {
		return usageError{fmt.Errorf("ladder: --pairs %d: want 1 to %d, or 0 for the run's own", o.pairs,
			population.MaxLadderPairs)}
	}
	if _, err := checkWorkers(o.workers); err != nil {
		return err
	}
	run, cfg, err := openRun(o.dir)
	if err != nil {
		return err
	}
	defer run.Close()
	plan, err := resolvePlan(ctx, cfg)
	if err != nil {
		return err
	}
	v, err := tuning.Ladder(ctx, plan, run, runnerOf(o.workers, clusterOptions{}, out.Stderr), o.pairs,
		tuning.Output{Stdout: out.Stdout, Stderr: out.Stderr, Quiet: gopts.quiet})
	if errors.Is(err, population.ErrLadderTooShort) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out.Stdout, struct {
			Ladder *results.LadderJSON `json:"ladder"`
			Best   *results.BestJSON   `json:"best"`
		}{v.LadderJSON(), v.BestJSON()})
	}
	reports.WriteLadder(out.Stdout, v.Ladder)
	fmt.Fprintf(out.Stdout, "best: %s\n", v.Best.Summary())
	return nil
}

func newLadderCommand(g *globalOptions) *cobra.Command {
	var o ladderOptions
	c := command("ladder DIR [--pairs N] [--json]",
		"Rate a run's champions, its start and the defaults in one pool (an Elo ladder)",
		`ladder plays a round robin between the champion of every generation (evenly
spaced ones, at most 12, when there are more), the run's start weights and the
evaluator's defaults, on openings the run never used, and rates them by maximum
likelihood with draws (BayesElo's model), the defaults being 0 Elo, with 95%
intervals. The run keeps the ladder: show, export, runs and the report then name
its best genome, or the start (or the defaults) when no champion beats it with
95% confidence. tune run plays a ladder at its end (--ladder-pairs); this
command plays one for any run, again with another --pairs if you like. Its games
are stored, so an interrupted ladder resumes.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runLadder(ctx, o, *g, out) }, &o.dir)
	c.Flags().IntVar(&o.pairs, "pairs", 0,
		fmt.Sprintf("colour-swapped pairs per pairing, 1-%d (0: the run's ladder-pairs, or about a tenth of its games)",
			population.MaxLadderPairs))
	c.Flags().IntVar(&o.workers, "workers", 0, workersHelp)
	bindJSON(c, &o.json)
	return c
}
