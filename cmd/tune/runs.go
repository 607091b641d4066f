package main

import (
	"context"
	"fmt"
	"math"
	"text/tabwriter"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type runsOptions struct {
	root string
	json bool
}

func newRunsCommand(g *globalOptions) *cobra.Command {
	var o runsOptions
	c := &cobra.Command{
		Use:   "runs [ROOT]",
		Short: "List the runs under a folder (default: runs)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.root = "runs"
			if len(args) == 1 {
				o.root = args[0]
			}
			return runRuns(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type runLine struct {
	results.Info
	Progress string `json:"progress"`
	// Best is the run's best genome as show and export name it; null
	// until a generation is finished. BestElo and its bounds are its
	// rating over the reference (null when not measured).
	Best    *results.BestJSON `json:"best"`
	BestElo results.Float     `json:"best_elo"`
	EloLow  results.Float     `json:"best_elo_low"`
	EloHigh results.Float     `json:"best_elo_high"`
	best    string
}

func runRuns(ctx context.Context, o runsOptions, gopts globalOptions, out output) error {
	infos, errs := results.List(o.root)
	if len(infos) == 0 && len(errs) > 0 {
		return usageError{errs[0]}
	}
	lines := make([]runLine, len(infos))
	for i, in := range infos {
		lines[i] = lineOf(in)
	}
	if o.json {
		return writeJSON(out.Stdout, lines)
	}
	tw := tabwriter.NewWriter(out.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tgame\talgorithm\tprogress\tstatus\tbest")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Dir, l.Game, l.Algo, l.Progress, l.Status, l.best)
	}
	tw.Flush()
	for _, err := range errs {
		fmt.Fprintln(out.Stderr, "skipped:", err)
	}
	return nil
}

// lineOf is a run's line in the list: its best as show names it, or why
// the run cannot be read.
func lineOf(in results.Info) runLine {
	nan := results.Float(math.NaN())
	l := runLine{Info: in, Progress: fmt.Sprint(in.Generations), BestElo: nan, EloLow: nan, EloHigh: nan, best: "-"}
	v, err := results.OpenView(in.Dir)
	if err != nil {
		l.best = "damaged: " + err.Error()
		return l
	}
	l.Progress = v.Progress()
	if b := v.BestJSON(); b != nil {
		l.Best, l.BestElo, l.EloLow, l.EloHigh, l.best = b, b.Elo, b.Low, b.High, b.Label
		if !math.IsNaN(float64(b.Elo)) {
			l.best += " " + reports.EloInterval(float64(b.Elo), float64(b.Low), float64(b.High)) + " over the " + b.Reference
		}
		if !b.Confident {
			l.best += " (no gain shown)"
		}
	}
	return l
}
