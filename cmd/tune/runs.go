package main

import (
	"fmt"
	"github.com/gametune/gametune/population"
	"math"
	"text/tabwriter"

	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type runsOptions struct {
	json bool
}

func newRunsCommand(g *globalOptions) *cobra.Command {
	var o runsOptions
	c := &cobra.Command{
		Use:   "runs [ROOT]",
		Short: "List the runs under a folder (default: runs)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			root := "runs"
			if len(args) == 1 {
				root = args[0]
			}
			return runRuns(c, root, o)
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
	Best    *choiceJSON `json:"best"`
	BestElo jsonFloat   `json:"best_elo"`
	EloLow  jsonFloat   `json:"best_elo_low"`
	EloHigh jsonFloat   `json:"best_elo_high"`
	best    string
}

func runRuns(c *cobra.Command, root string, o runsOptions) error {
	infos, errs := results.List(root)
	if len(infos) == 0 && len(errs) > 0 {
		return usageError{errs[0]}
	}
	var lines []runLine
	for _, in := range infos {
		l := runLine{Info: in, BestElo: jsonFloat(math.NaN()), EloLow: jsonFloat(math.NaN()), EloHigh: jsonFloat(math.NaN())}
		l.best = "-"
		if r, err := results.OpenReadOnly(in.Dir); err == nil {
			if c, err := bestOfRun(r); err == nil && c != nil {
				l.Best = c
				l.BestElo, l.EloLow, l.EloHigh = c.Elo, c.Low, c.High
				l.best = c.Label
				if !math.IsNaN(float64(c.Elo)) {
					l.best += " " + eloString(float64(c.Elo), float64(c.Low), float64(c.High)) + " over the " + c.Reference
				}
				if !c.Confident {
					l.best += " (no gain shown)"
				}
			} else if err != nil {
				l.best = "damaged: " + err.Error()
			}
			l.Progress = progressOf(r, in)
			r.Close()
		}
		lines = append(lines, l)
	}
	out := c.OutOrStdout()
	if o.json {
		return writeJSON(out, lines)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tgame\talgorithm\tprogress\tstatus\tbest")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Dir, l.Game, l.Algo, l.Progress, l.Status, l.best)
	}
	tw.Flush()
	for _, err := range errs {
		fmt.Fprintln(c.ErrOrStderr(), "skipped:", err)
	}
	return nil
}

// bestOfRun is a run's best genome for scripts; nil before its first
// finished generation.
func bestOfRun(r *results.Run) (*choiceJSON, error) {
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return nil, err
	}
	g, err := findGame(cfg.Game)
	if err != nil {
		return nil, err
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return nil, err
	}
	hist, err := r.Generations()
	if err != nil || len(hist) == 0 {
		return nil, err
	}
	if err := results.CheckWeights(hist, len(ev.Features)); err != nil {
		return nil, err
	}
	c, _, err := runBest(r, cfg, ev, hist)
	if err != nil {
		return nil, err
	}
	j := choiceToJSON(c, featureNames(ev.Features))
	return &j, nil
}
