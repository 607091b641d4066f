package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type resumeOptions struct {
	quiet   bool
	workers int
	config  string
	force   bool
	cluster clusterOptions
}

func newResumeCommand(g *globalOptions) *cobra.Command {
	var o resumeOptions
	c := &cobra.Command{
		Use:   "resume DIR",
		Short: "Continue an interrupted run to the result an uninterrupted run would have given",
		Long: `resume continues the tuning run in DIR with the config recorded there. Games already
recorded are not played again; since every game is seeded from its place in the run,
the resumed run ends with exactly the genomes an uninterrupted run would have, whatever
the number of workers.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.quiet = g.quiet
			return runResume(c.Context(), tuningOutput{c.OutOrStdout(), c.ErrOrStderr(), g.quiet}, args[0], o)
		},
	}
	c.Flags().IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(c.Flags())
	c.Flags().StringVar(&o.config, "config", "", "check the run against this YAML config; a different config is refused unless --force")
	c.Flags().BoolVar(&o.force, "force", false, "go on with the --config given although it differs from the recorded one")
	return c
}

func runResume(ctx context.Context, to tuningOutput, dir string, o resumeOptions) error {
	co := o.cluster
	if !co.enabled() {
		recorded, err := loadClusterOptions(dir)
		if err != nil {
			return err
		}
		if co.TokenFile == "" || !recorded.enabled() {
			co.NATS, co.BrokerListen = recorded.NATS, recorded.BrokerListen
			if co.TokenFile == "" {
				co.TokenFile = recorded.TokenFile
			}
		}
	}
	if !co.enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return err
		}
	}
	run, cfg, err := openRun(dir)
	if err != nil {
		return err
	}
	defer run.Close()
	changed := false
	if o.config != "" {
		data, err := readUserFile(o.config)
		if err != nil {
			return usageError{fmt.Errorf("--config: %w", err)}
		}
		want := population.Defaults()
		if err := population.MergeConfig(&want, data); err != nil {
			return usageError{fmt.Errorf("%s: %w", o.config, err)}
		}
		// The recorded config holds what its sources resolved to (the
		// openings file's positions, the start weights): the same sources
		// resolve to the same.
		if want.Openings == cfg.Openings {
			want.OpeningList = cfg.OpeningList
		}
		if want.Start == cfg.Start {
			want.StartWeights = cfg.StartWeights
		}
		if diff := cfg.Diff(want); len(diff) > 0 {
			if err := cfg.CheckResume(want); err != nil {
				return usageError{fmt.Errorf("resume: %s: %w", o.config, err)}
			}
			if !o.force {
				return usageError{fmt.Errorf("resume: %s differs from the config recorded in %s (%s); resuming with it would not give the run's result: use --force to go on anyway", o.config, dir, strings.Join(diff, "; "))}
			}
			if err := want.Validate(); err != nil {
				return usageError{err}
			}
			fmt.Fprintf(to.stderr, "resume: going on with the changed config (%s)\n", strings.Join(diff, "; "))
			if err := run.SetConfig(want.Marshal()); err != nil {
				return err
			}
			cfg, changed = want, true
		}
	}
	info, err := run.Info()
	if err != nil {
		return err
	}
	if info.Status == results.StatusDone && !changed {
		fmt.Fprintf(to.stdout, "%s is finished already (%d generations, %d games); nothing to resume\n", dir, info.Generations, info.Games)
		return nil
	}
	if !o.quiet {
		fmt.Fprintf(to.stdout, "resuming %s: %s %s, %d games recorded\n", dir, cfg.Game, strings.TrimSpace(string(cfg.Algo)), info.Games)
	}
	return runTuning(ctx, to, cfg, run, o.workers, co)
}
