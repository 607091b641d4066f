package main

import (
	"fmt"
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
	Progress string    `json:"progress"`
	BestElo  jsonFloat `json:"best_elo"` // null: no yardstick yet
	EloLow   jsonFloat `json:"best_elo_low"`
	EloHigh  jsonFloat `json:"best_elo_high"`
}

func runRuns(c *cobra.Command, root string, o runsOptions) error {
	infos, errs := results.List(root)
	if len(infos) == 0 && len(errs) > 0 {
		return usageError{errs[0]}
	}
	var lines []runLine
	for _, in := range infos {
		l := runLine{Info: in, BestElo: jsonFloat(math.NaN()), EloLow: jsonFloat(math.NaN()), EloHigh: jsonFloat(math.NaN())}
		if r, err := results.OpenReadOnly(in.Dir); err == nil {
			if hist, err := r.Generations(); err == nil {
				for _, g := range hist {
					if y := g.Yardstick; y != nil && (math.IsNaN(float64(l.BestElo)) || y.Elo > float64(l.BestElo)) {
						l.BestElo, l.EloLow, l.EloHigh = jsonFloat(y.Elo), jsonFloat(y.EloLow), jsonFloat(y.EloHigh)
					}
				}
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
	fmt.Fprintln(tw, "run\tgame\talgorithm\tprogress\tstatus\tbest yardstick")
	for _, l := range lines {
		elo := "-"
		if !math.IsNaN(float64(l.BestElo)) {
			elo = eloString(float64(l.BestElo), float64(l.EloLow), float64(l.EloHigh))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Dir, l.Game, l.Algo, l.Progress, l.Status, elo)
	}
	tw.Flush()
	for _, err := range errs {
		fmt.Fprintln(c.ErrOrStderr(), "skipped:", err)
	}
	return nil
}
