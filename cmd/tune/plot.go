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
		`plot draws, from the run store in DIR, into DIR/plots/: first elo.* (the Elo of the
champions against the games spent: the yardstick's and the ladder's ratings with their 95%
intervals, the defaults = 0), then the tuner's own: coefficients.*, fitness.*, diversity.*
for the genetic tuner; winners.*, distance.* for knockout; spsa-theta.*, spsa.*, spsa-c.*
for SPSA; cmaes-sigma.*, cmaes-mean.* for CMA-ES; texel-loss.* for Texel; bayes-optimum.*,
bayes-path.*, bayes-landscape.* (partial dependence), bayes-pair.* (a heat map) for Bayes.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runPlot(ctx, o, *g, out) }, &o.dir)
	c.Flags().StringVar(&o.format, "format", "png", "png, svg or both")
	return c
}
