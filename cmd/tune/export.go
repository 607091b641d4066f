package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type exportOptions struct {
	dir, format, out string
	generation       int
	force            bool
}

func runExport(ctx context.Context, o exportOptions, gopts globalOptions, out output) error {
	if !slices.Contains(results.Formats, o.format) {
		return usageError{fmt.Errorf("export: unknown format %q (formats: %s)", o.format, strings.Join(results.Formats, ", "))}
	}
	v, err := viewRun(o.dir)
	if err != nil {
		return err
	}
	data, err := v.Export(o.format, o.generation, map[string]any{"run": o.dir})
	if err != nil {
		return usageError{err}
	}
	if o.out == "" {
		_, err := out.Stdout.Write(data)
		return err
	}
	err = results.WriteFileAtomic(o.out, data, o.force)
	if errors.Is(err, results.ErrFileExists) {
		return usageError{fmt.Errorf("%w (use --force to replace it)", err)}
	}
	if errors.Is(err, results.ErrNotRegular) {
		return usageError{err}
	}
	return err
}

func newExportCommand(g *globalOptions) *cobra.Command {
	var o exportOptions
	c := command("export DIR --format json|go|c|uci|csv [-o FILE]", "Write a run's best weights (or its history, csv) in the formats game programs read",
		`export writes the run's best genome (what 'tune show' names best: the ladder's
strongest genome when it beats the start weights, or the defaults, with 95%
confidence; otherwise the start, or the defaults), or with --generation N the
fittest genome of generation N:
  json  the weights file every --weights flag reads
  go    a gofmt-ed Go file with a map of the weights
  c     a C header with the feature names and a static const double array
  uci   setoption lines
  csv   the whole history: generation, genome, parents, fitness, record, weights
Without -o the result goes to standard output; -o writes a file atomically and
never overwrites one without --force.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runExport(ctx, o, *g, out) }, &o.dir)
	f := c.Flags()
	f.StringVar(&o.format, "format", "json", "json, go, c, uci or csv")
	f.IntVar(&o.generation, "generation", -1, "export the best genome of this generation (default: the last)")
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of standard output")
	f.BoolVar(&o.force, "force", false, "overwrite the output file")
	return c
}
