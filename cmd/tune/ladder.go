package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type ladderOptions struct {
	dir     string
	pairs   int
	workers int
	json    bool
}

func newLadderCommand(g *globalOptions) *cobra.Command {
	var o ladderOptions
	c := &cobra.Command{
		Use:   "ladder DIR [--pairs N] [--json]",
		Short: "Rate a run's champions, its start and the defaults in one pool (an Elo ladder)",
		Long: `ladder plays a round robin between the champion of every generation (evenly
spaced ones, at most 12, when there are more), the run's start weights and the
evaluator's defaults, on openings the run never used, and rates them by maximum
likelihood with draws (BayesElo's model), the defaults being 0 Elo, with 95%
intervals. The run keeps the ladder: show, export, runs and the report then name
its best genome, or the start (or the defaults) when no champion beats it with
95% confidence. tune run plays a ladder at its end (--ladder-pairs); this
command plays one for any run, again with another --pairs if you like. Its games
are stored, so an interrupted ladder resumes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.dir = args[0]
			return runLadder(c.Context(), o, *g, outputOf(c))
		},
	}
	f := c.Flags()
	f.IntVar(&o.pairs, "pairs", 0, fmt.Sprintf("colour-swapped pairs per pairing, 1-%d (0: the run's ladder-pairs, or about a tenth of its games)", population.MaxLadderPairs))
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.BoolVar(&o.json, "json", false, "print JSON")
	return c
}

func runLadder(ctx context.Context, o ladderOptions, gopts globalOptions, out output) error {
	if o.pairs < 0 || o.pairs > population.MaxLadderPairs {
		return usageError{fmt.Errorf("ladder: --pairs %d: want 1 to %d, or 0 for the run's own", o.pairs, population.MaxLadderPairs)}
	}
	if _, err := checkWorkers(o.workers); err != nil {
		return err
	}
	run, cfg, err := openRun(o.dir)
	if err != nil {
		return err
	}
	defer run.Close()
	tuner, _, games, err := newRunTuner(ctx, cfg, run, o.workers, clusterOptions{}, out.Stderr)
	if err != nil {
		return err
	}
	defer games.Close()
	v, err := results.ReadView(run)
	if err != nil {
		return err
	}
	l, err := playLadder(ctx, tuner, v, o.pairs, gopts.quiet, out.Stderr)
	if err != nil {
		return err
	}
	if err := run.RecordLadder(*l); err != nil {
		return err
	}
	if err := refreshReports(o.dir); err != nil {
		fmt.Fprintln(out.Stderr, "could not refresh the report:", err)
	}
	if err := v.SetLadder(l); err != nil {
		return err
	}
	if o.json {
		return writeJSON(out.Stdout, struct {
			Ladder *results.LadderJSON `json:"ladder"`
			Best   *results.BestJSON   `json:"best"`
		}{v.LadderJSON(), v.BestJSON()})
	}
	printLadder(out.Stdout, l)
	fmt.Fprintf(out.Stdout, "best: %s\n", v.Best.Summary())
	return nil
}

// playLadder plays the run's ladder, pairs per pairing (0: the run's
// own), showing its progress on stderr.
func playLadder(ctx context.Context, tuner *population.Tuner, v *results.View, pairs int, quiet bool, stderr io.Writer) (*population.Ladder, error) {
	progress := reports.NewProgress(stderr, quiet, 0)
	defer progress.Finish()
	started := false
	tuner.OnGame = func(p population.Progress) {
		if !started {
			progress.Start("ladder", p.Total)
			started = true
		}
		progress.Set(p.Done)
	}
	if pairs == 0 {
		pairs = v.Config.LadderPairs
	}
	l, err := tuner.Ladder(ctx, v.Generations, pairs)
	if errors.Is(err, population.ErrLadderTooShort) {
		return nil, usageError{err}
	}
	return l, err
}

// printLadder writes a ladder as a table, in the order of the run.
var printLadder = reports.WriteLadder
