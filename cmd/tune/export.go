package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type exportOptions struct {
	format     string
	generation int
	out        string
	force      bool
}

func newExportCommand(g *globalOptions) *cobra.Command {
	var o exportOptions
	c := &cobra.Command{
		Use:   "export DIR --format json|go|c|uci|csv [-o FILE]",
		Short: "Write a run's best weights (or its history, csv) in the formats game programs read",
		Long: `export writes the run's best genome (what 'tune show' names best: the ladder's
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
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runExport(c, args[0], o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.format, "format", "json", "json, go, c, uci or csv")
	f.IntVar(&o.generation, "generation", -1, "export the best genome of this generation (default: the last)")
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of standard output")
	f.BoolVar(&o.force, "force", false, "overwrite the output file")
	return c
}

func runExport(c *cobra.Command, dir string, o exportOptions) error {
	if !slices.Contains(results.Formats, o.format) {
		return usageError{fmt.Errorf("export: unknown format %q (formats: %s)", o.format, strings.Join(results.Formats, ", "))}
	}
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return usageError{err}
	}
	defer r.Close()
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return err
	}
	g, err := findGame(cfg.Game)
	if err != nil {
		return err
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return err
	}
	hist, err := r.Generations()
	if err != nil {
		return err
	}
	if err := results.CheckWeights(hist, len(ev.Features)); err != nil {
		return err
	}
	source := map[string]any{"run": dir, "seed": cfg.Seed, "algo": cfg.Algo}
	var data []byte
	if o.generation >= 0 || o.format == "csv" {
		data, err = results.Export(o.format, g, ev, hist, o.generation, source)
	} else {
		var choice population.Choice
		if choice, _, err = runBest(r, cfg, ev, hist); err != nil {
			return err
		}
		source["best"] = choice.Summary()
		if cfg.TuneEngine != "" && o.format == "uci" {
			// The engine's own options, in its own units.
			data = []byte(strings.Join(population.SetOptionLines(ev, choice.Weights), "\n") + "\n")
		} else {
			data, err = results.ExportWeights(o.format, g, ev, choice, source)
		}
	}
	if err != nil {
		return usageError{err}
	}
	if o.out == "" {
		_, err := c.OutOrStdout().Write(data)
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
