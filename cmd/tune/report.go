package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type reportOptions struct{ dir string }

func runReport(ctx context.Context, o reportOptions, gopts globalOptions, out output) error {
	if results.IsComparison(o.dir) {
		if err := reports.RefreshComparison(o.dir); err != nil {
			return usageError{err}
		}
		fmt.Fprintln(out.Stdout, filepath.Join(o.dir, reports.ComparePage))
		return nil
	}
	r, err := reports.Load(o.dir)
	if err != nil {
		return usageError{err}
	}
	path := filepath.Join(o.dir, "report.html")
	if err := reports.WriteHTML(r, path); err != nil {
		return err
	}
	fmt.Fprintln(out.Stdout, path)
	return nil
}

func newReportCommand(g *globalOptions) *cobra.Command {
	var o reportOptions
	return command("report DIR", "Write DIR/report.html: one self-contained page with the run's config, best weights, yardstick and plots",
		`report writes the page of the run in DIR (DIR/report.html). On the
directory of a comparison of tuners (tune compare --out DIR) it writes the
comparison's page instead (DIR/compare.html): a row per tuner, the ladder
plot of every tuner and each tuner's champions on the shared ladder.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runReport(ctx, o, *g, out) }, &o.dir)
}
