package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/reports"
	"github.com/spf13/cobra"
)

type reportOptions struct{ dir string }

func runReport(ctx context.Context, o reportOptions, gopts globalOptions, out output) error {
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
	return command("report DIR", "Write DIR/report.html: one self-contained page with the run's config, best weights, yardstick and plots", "",
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runReport(ctx, o, *g, out) }, &o.dir)
}
