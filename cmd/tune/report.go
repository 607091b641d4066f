package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type reportOptions struct {
	dir                string
	weights, game, out string
	force              bool
}

func runReport(ctx context.Context, o reportOptions, gopts globalOptions, out output) error {
	if o.weights != "" || o.game != "" {
		return runTablesReport(o, out)
	}
	if o.dir == "" {
		return usageError{errors.New("report: give a run directory (tune report DIR), or a weights file with --weights FILE --game GAME")}
	}
	if o.out != "" || o.force {
		return usageError{errors.New("report: -o and --force go with --weights FILE --game GAME; a run's page is always DIR/report.html")}
	}
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
	if err := files.CheckWritable(path, true); err != nil {
		return usageError{err}
	}
	if err := reports.WriteHTML(r, path); err != nil {
		return err
	}
	fmt.Fprintln(out.Stdout, path)
	return nil
}

// runTablesReport writes the page of a weights file's tables
// (reports.WriteTablesPage): to -o, or FILE.html beside the file.
func runTablesReport(o reportOptions, out output) error {
	switch {
	case o.dir != "":
		return usageError{fmt.Errorf("report: give either a run directory (%s) or --weights FILE --game GAME, not both", o.dir)}
	case o.weights == "" || o.game == "":
		return usageError{errors.New("report: the page of a weights file's tables needs both --weights FILE and --game GAME")}
	}
	g, err := findGame(o.game)
	if err != nil {
		return err
	}
	ev, w, err := player(g, "", o.weights)
	if err != nil {
		return err
	}
	if len(ev.Tables) == 0 || ev.Pictures == nil {
		return usageError{fmt.Errorf("report: %s holds weights of %s/%s, an evaluator without tables: nothing to draw (evaluators with tables, such as othello's patterns, have pictures)", o.weights, g.Name(), ev.Name)}
	}
	path := cmp.Or(o.out, o.weights+".html")
	if err := files.CheckWritable(path, o.force); err != nil {
		return usageError{outputError(err)}
	}
	title := fmt.Sprintf("Tables of %s (%s/%s)", filepath.Base(o.weights), g.Name(), ev.Name)
	if err := outputError(reports.WriteTablesPage(path, title, g, ev, w, o.force)); err != nil {
		return err
	}
	fmt.Fprintln(out.Stdout, path)
	return nil
}

func newReportCommand(g *globalOptions) *cobra.Command {
	var o reportOptions
	c := command("report [DIR]", "Write DIR/report.html: one self-contained page with the run's config, best weights, yardstick and plots",
		`report writes the page of the run in DIR (DIR/report.html). On the
directory of a comparison of tuners (tune compare --out DIR) it writes the
comparison's page instead (DIR/compare.html): a row per tuner, the ladder
plot of every tuner and each tuner's champions on the shared ladder.

With --weights FILE --game GAME instead of DIR, it draws the tables of a
weights file of an evaluator with tables (such as othello's patterns): each
square's average contribution by stage as heatmaps, and each table's best
and worst configurations, in one page (FILE.html, or -o PAGE), never
overwriting a file without --force.`,
		cobra.MaximumNArgs(1), func(ctx context.Context, out output) error { return runReport(ctx, o, *g, out) }, &o.dir)
	f := c.Flags()
	f.StringVar(&o.weights, "weights", "", "a weights file of an evaluator with tables, to draw instead of a run")
	f.StringVar(&o.game, "game", "", "the game of the --weights file")
	f.StringVarP(&o.out, "output", "o", "", "the page to write for --weights (default FILE.html)")
	f.BoolVar(&o.force, "force", false, "replace the page if it exists")
	return c
}
