package main

import (
	"context"
	"io"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

// viewRun reads a run to show it (results.ReadView): a directory that
// holds no run is the user's mistake.
func viewRun(dir string) (*results.View, error) {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return nil, usageError{err}
	}
	defer r.Close()
	return results.ReadView(r)
}

type showOptions struct {
	dir  string
	json bool
}

func runShow(ctx context.Context, o showOptions, gopts globalOptions, out output) error {
	v, err := viewRun(o.dir)
	if err != nil {
		return err
	}
	return emit(out, o.json, v.JSON(), func(w io.Writer) { reports.WriteSummary(w, v, o.dir) })
}

func newShowCommand(g *globalOptions) *cobra.Command {
	var o showOptions
	c := command("show DIR",
		"Summarise a run: status, progress, the best with its evidence, the ladder, the yardstick per generation", "",
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runShow(ctx, o, *g, out) }, &o.dir)
	bindJSON(c, &o.json)
	return c
}
