package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type runsOptions struct {
	root string
	json bool
}

func runRuns(ctx context.Context, o runsOptions, gopts globalOptions, out output) error {
	removed, err := results.RemoveAbandoned(o.root)
	for _, dir := range removed {
		fmt.Fprintf(out.Stderr, "removed %s: a run's creation abandoned by a process that is gone\n", dir)
	}
	if err != nil {
		fmt.Fprintln(out.Stderr, "warning:", err)
	}
	lines, errs := results.ListLines(o.root)
	if len(lines) == 0 && len(errs) > 0 {
		return usageError{errs[0]}
	}
	if o.json {
		return writeJSON(out.Stdout, lines)
	}
	reports.WriteRuns(out.Stdout, lines)
	for _, err := range errs {
		fmt.Fprintln(out.Stderr, "skipped:", err)
	}
	return nil
}

func newRunsCommand(g *globalOptions) *cobra.Command {
	o := runsOptions{root: "runs"}
	c := command("runs [ROOT]", "List the runs and comparisons under a folder (default: runs)",
		`runs lists the runs in the folders directly below ROOT (and ROOT itself):
each one's progress, status and best. A comparison of tuners (tune compare)
is one line, its progress the games of its tuners' runs summed and its best
the best tuner's last champion on the shared ladder, with each tuner's run
indented beneath it.`,
		cobra.MaximumNArgs(1), func(ctx context.Context, out output) error { return runRuns(ctx, o, *g, out) }, &o.root)
	bindJSON(c, &o.json)
	return c
}
