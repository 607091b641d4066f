package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/reports"
	"github.com/spf13/cobra"
)

type plotOptions struct{ dir, format string }

func runPlot(ctx context.Context, o plotOptions, gopts globalOptions, out output) error {
	if o.format != "png" && o.format != "svg" && o.format != "both" {
		return usageError{fmt.Errorf("plot: --format %q: want png, svg or both", o.format)}
	}
	r, err := reports.Load(o.dir)
	if err != nil {
		return usageError{err}
	}
	files, err := reports.WritePlots(r, filepath.Join(o.dir, "plots"), o.format)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(out.Stdout, f)
	}
	return nil
}

func newPlotCommand(g *globalOptions) *cobra.Command {
	var o plotOptions
	c := command("plot DIR", "Draw a run's convergence plots into DIR/plots",
		`plot draws, from the run store in DIR, into DIR/plots/: coefficients.* (each
coefficient's population mean per generation with a ±1 sd band and the best genome's
value), fitness.*, yardstick.* (Elo of the best genome against the default weights with
its 95% interval), diversity.*, and for knockout runs winners.* and distance.*.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runPlot(ctx, o, *g, out) }, &o.dir)
	c.Flags().StringVar(&o.format, "format", "png", "png, svg or both")
	return c
}
