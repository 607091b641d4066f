package main

import (
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/reports"
	"github.com/spf13/cobra"
)

type plotOptions struct {
	format string
}

func newPlotCommand(g *globalOptions) *cobra.Command {
	var o plotOptions
	c := &cobra.Command{
		Use:   "plot DIR",
		Short: "Draw a run's convergence plots into DIR/plots",
		Long: `plot draws, from the run store in DIR, into DIR/plots/: coefficients.* (each
coefficient's population mean per generation with a ±1 sd band and the best genome's
value), fitness.*, yardstick.* (Elo of the best genome against the default weights with
its 95% interval), diversity.*, and for knockout runs winners.* and distance.*.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runPlot(c, g, args[0], o)
		},
	}
	c.Flags().StringVar(&o.format, "format", "png", "png, svg or both")
	return c
}

func runPlot(c *cobra.Command, g *globalOptions, dir string, o plotOptions) error {
	if o.format != "png" && o.format != "svg" && o.format != "both" {
		return usageError{fmt.Errorf("plot: --format %q: want png, svg or both", o.format)}
	}
	r, err := reports.Load(dir)
	if err != nil {
		return usageError{err}
	}
	files, err := reports.WritePlots(r, filepath.Join(dir, "plots"), o.format)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(c.OutOrStdout(), f)
	}
	return nil
}
