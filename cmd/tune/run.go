package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/external"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// bindConfig binds a flag to each key of a run's config (population.Keys),
// its value in values.
func bindConfig(f *pflag.FlagSet, values *population.Config) {
	f.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		return pflag.NormalizedName(population.AliasFlag(name))
	})
	for _, k := range population.Keys {
		switch p := values.Field(k.Name).(type) {
		case *string:
			f.StringVar(p, k.FlagName(), *p, k.Help)
		case *int:
			f.IntVar(p, k.FlagName(), *p, k.Help)
		case *int64:
			f.Int64Var(p, k.FlagName(), *p, k.Help)
		case *uint64:
			f.Uint64Var(p, k.FlagName(), *p, k.Help)
		case *float64:
			f.Float64Var(p, k.FlagName(), *p, k.Help)
		case *[]string:
			f.StringSliceVar(p, k.FlagName(), *p, k.Help)
		case *population.Algo:
			f.Var(algoValue{p}, k.FlagName(), k.Help)
		case *population.Specs:
			f.Var(specsValue{p}, k.FlagName(), k.Help)
		}
	}
}

// algoValue is the --algo flag, a population.Algo.
type algoValue struct{ p *population.Algo }

func (a algoValue) String() string     { return string(*a.p) }
func (a algoValue) Type() string       { return "algo" }
func (a algoValue) Set(s string) error { *a.p = population.Algo(s); return nil }

// specsValue is a flag of player specs (--opponents): repeatable, each
// value split at ';' (population.SplitSpecs), since specs hold commas.
type specsValue struct{ p *population.Specs }

func (v specsValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ";")
}
func (v specsValue) Type() string { return "specs" }
func (v specsValue) Set(s string) error {
	*v.p = append(*v.p, population.SplitSpecs(s)...)
	return nil
}

type runOptions struct {
	out, config, preset string
	workers             int
	cluster             clusterOptions
	values              population.Config      // the config flags' values
	changed             func(flag string) bool // whether a flag was given
}

func runRun(ctx context.Context, o runOptions, gopts globalOptions, out output) error {
	if o.out == "" {
		return usageError{fmt.Errorf("run: --out DIR is required (a new directory for the run's results)")}
	}
	if !o.cluster.Enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return err
		}
	}
	cfg, err := tuning.Settings{Preset: o.preset, File: o.config, Flags: &o.values, Changed: o.changed}.Config(planSources)
	if err != nil {
		return usageError{err}
	}
	plan, err := resolvePlan(ctx, cfg)
	if err != nil {
		return err
	}
	return createAndRun(ctx, tuning.Output{Stdout: out.Stdout, Stderr: out.Stderr, Quiet: gopts.quiet}, plan, o.out,
		o.workers, o.cluster)
}

// planSources is where a plan reads what its config names (a variable, so
// that a test can count the plans a command resolves).
var planSources population.Sources = tuning.Sources{MaxFile: maxUserFile}

// resolvePlan validates cfg and reads what it names (population.Resolve).
func resolvePlan(ctx context.Context, cfg population.Config) (*population.Plan, error) {
	plan, err := population.Resolve(ctx, cfg, planSources)
	if err != nil {
		return nil, usageError{err}
	}
	return plan, nil
}

// createAndRun creates the run directory dir for plan and runs it to its
// end, its games played by workers here and, with co, through a broker.
func createAndRun(ctx context.Context, to tuning.Output, plan *population.Plan, dir string, workers int,
	co clusterOptions) error {
	run, err := tuning.Create(ctx, dir, plan)
	switch {
	case errors.Is(err, external.ErrSpec):
		return usageError{err}
	case errors.Is(err, results.ErrExists):
		return usageError{fmt.Errorf("%w (choose a new --out, or continue it with 'tune resume %s')", err, dir)}
	case err != nil:
		return err
	}
	defer run.Close()
	if err := co.Save(run.Dir()); err != nil {
		return err
	}
	return brokerHint(tuning.Tune(ctx, plan, run, runnerOf(workers, co, to.Stderr), to))
}

// runnerOf opens the runner of a run's games: workers here and, with co,
// through a broker (openRunner), a broker started here keeping its data in
// the run's directory.
func runnerOf(workers int, co clusterOptions, stderr io.Writer) tuning.Opener {
	return func(ctx context.Context, name, dir string) (tuning.Runner, error) {
		return openRunner(ctx, co, workers, tuning.Place{Run: name, BrokerStore: filepath.Join(dir, "broker"), Log: stderr})
	}
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := runOptions{values: population.Defaults()}
	c := command("run --game G --out DIR [flags]",
		"Run a tuning job (genetic, knockout, SPSA, CMA-ES or Texel), ending with a ladder of its champions",
		`run evolves an evaluator's weights by playing games between weight vectors and
keeping the winners. Every finished game and generation is stored in DIR at once;
'tune resume DIR' continues an interrupted run to the identical result. It ends
(after --generations, on convergence, or at a generation boundary once
--budget-games or --budget-time is spent) with a ladder rating its champions,
the start and the defaults on openings it never used; its best is the ladder's
strongest genome when it beats the start (or the defaults) with 95% confidence,
family-wise, and the start (or the defaults) otherwise.

Settings come from, in order: the defaults, --preset, --config FILE.yaml (keys are
the flag names), and the flags given. The run directory keeps the resolved config.

A pair is two games from one opening, colours swapped; --games of the genetic
tuner counts pairs (--pairs is the same flag).

--opponents SPEC makes other players part of the tuning and of the yardstick:
an external engine (cmd=/usr/games/gtp-rhino,proto=gtp,arg=-l,arg=1) or a
built-in player (default:full,depth=2). Repeat the flag for several, or
separate them with ';' in one value (a spec holds commas). Through --nats an
external engine plays on the workers that allow it ('tune worker --engines');
a GTP opponent needs openings as moves (random:N draws them so).

Presets:
`+population.PresetHelp(), cobra.NoArgs, func(ctx context.Context, out output) error { return runRun(ctx, o, *g, out) })
	o.changed = c.Flags().Changed
	f := c.Flags()
	f.StringVar(&o.out, "out", "", "run directory to create (must not exist)")
	f.StringVar(&o.config, "config", "", "YAML config file (keys are the flag names)")
	f.StringVar(&o.preset, "preset", "", "start from a preset: "+strings.Join(population.PresetNames(), ", "))
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(f)
	bindConfig(f, &o.values)
	return c
}
