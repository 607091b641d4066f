package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type exportOptions struct {
	dir, format, out        string
	weights, game, encoding string
	generation              int
	force                   bool
}

func runExport(ctx context.Context, o exportOptions, gopts globalOptions, out output) error {
	if !slices.Contains(results.Formats, o.format) {
		return usageError{fmt.Errorf("export: unknown format %q (formats: %s)", o.format, strings.Join(results.Formats, ", "))}
	}
	if (o.dir == "") == (o.weights == "") {
		return usageError{errors.New("export: give a run directory or --weights FILE (or --weights default:EVALUATOR --game GAME), one of them")}
	}
	if o.encoding != games.EncodingInt16 && o.encoding != games.EncodingFloat32 {
		return usageError{fmt.Errorf("export: encoding %q (accepted: %s, %s)", o.encoding, games.EncodingInt16, games.EncodingFloat32)}
	}
	if err := files.CheckWritable(o.out, o.force); o.out != "" && err != nil {
		return usageError{outputError(err)}
	}
	var data []byte
	var err error
	if o.weights != "" {
		data, err = convertWeights(o)
	} else {
		data, err = exportRun(o)
	}
	if err != nil {
		return err
	}
	if o.out == "" {
		_, err := out.Stdout.Write(data)
		return err
	}
	return outputError(files.WriteOrKeep(o.out, data, o.force))
}

// outputError marks the errors of a file the user named to write that are
// the user's to fix as usage errors: an existing file (without --force), a
// special file.
func outputError(err error) error {
	switch {
	case errors.Is(err, files.ErrExists):
		return usageError{fmt.Errorf("%w (use --force to replace it)", err)}
	case errors.Is(err, files.ErrNotRegular):
		return usageError{err}
	}
	return err
}

// exportRun exports a run's best weights (or its history, csv).
func exportRun(o exportOptions) ([]byte, error) {
	if o.game != "" {
		return nil, usageError{errors.New("export: --game goes with --weights; a run directory knows its game")}
	}
	v, err := viewRun(o.dir)
	if err != nil {
		return nil, err
	}
	data, err := v.Export(o.format, o.generation, map[string]any{"run": o.dir})
	if err != nil {
		return nil, usageError{err}
	}
	return data, nil
}

// convertWeights writes a weights file, or an evaluator's defaults, in
// another format (results.ConvertWeights).
func convertWeights(o exportOptions) ([]byte, error) {
	if o.format == "csv" || o.generation >= 0 {
		return nil, usageError{errors.New("export: --weights converts one set of weights: formats json, go, c and uci, no --generation")}
	}
	data, err := results.ConvertWeights(o.weights, o.game, o.format, games.WeightsOptions{Encoding: o.encoding})
	if err != nil {
		return nil, usageError{err}
	}
	return data, nil
}

func newExportCommand(g *globalOptions) *cobra.Command {
	var o exportOptions
	c := command("export [DIR] --format json|go|c|uci|csv [-o FILE]", "Write a run's best weights (or its history, csv), or convert a weights file, in the formats game programs read",
		`export writes the run's best genome (what 'tune show' names best: the ladder's
strongest genome when it beats the start weights, or the defaults, with 95%
confidence; otherwise the start, or the defaults), or with --generation N the
fittest genome of generation N:
  json  the weights file every --weights flag reads (for an evaluator with
        tables, the compact gzip-compressed file: a JSON header line, then
        each table's values)
  go    a gofmt-ed Go file with a map of the weights (and each table as an
        array with its scale)
  c     a C header with the feature names and a static const double array
        (and each table as a static const array, its shape and scale as
        #defines)
  uci   setoption lines (the features only: tables are not UCI options)
  csv   the whole history: generation, genome, parents, fitness, record, weights
With --weights FILE instead of DIR, export converts a weights file (either
kind; it names its game) to json, go, c or uci; --weights default:EVALUATOR
--game GAME writes an evaluator's own defaults, tables included.
--encoding float32 writes tables exactly, rather than as int16 entries with
a scale per table (within half the scale).
Without -o the result goes to standard output; -o writes a file atomically and
never overwrites one without --force.`,
		cobra.MaximumNArgs(1), func(ctx context.Context, out output) error { return runExport(ctx, o, *g, out) }, &o.dir)
	f := c.Flags()
	f.StringVar(&o.format, "format", "json", "json, go, c, uci or csv")
	f.IntVar(&o.generation, "generation", -1, "export the best genome of this generation (default: the last)")
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of standard output")
	f.BoolVar(&o.force, "force", false, "overwrite the output file")
	f.StringVar(&o.weights, "weights", "", "convert this weights file (or default:EVALUATOR, with --game) instead of a run's")
	f.StringVar(&o.game, "game", "", "the game of --weights default:EVALUATOR")
	f.StringVar(&o.encoding, "encoding", games.EncodingInt16, "tables as int16 (scaled per table) or float32")
	return c
}
