package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type resumeOptions struct {
	dir     string
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
			o.dir = args[0]
			return runResume(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(c.Flags())
	c.Flags().StringVar(&o.config, "config", "", "check the run against this YAML config; a different config is refused unless --force")
	c.Flags().BoolVar(&o.force, "force", false, "go on with the --config given although it differs from the recorded one")
	return c
}

func runResume(ctx context.Context, o resumeOptions, gopts globalOptions, out output) error {
	co, err := resumeCluster(o)
	if err != nil {
		return err
	}
	run, cfg, err := openRun(o.dir)
	if err != nil {
		return err
	}
	defer run.Close()
	plan, err := changedPlan(ctx, o, run, cfg, out.Stderr)
	if err != nil {
		return err
	}
	info, err := run.Info()
	if err != nil {
		return err
	}
	if info.Status == results.StatusDone && plan == nil {
		fmt.Fprintf(out.Stdout, "%s is finished already (%d generations, %d games); nothing to resume\n", o.dir, info.Generations, info.Games)
		return nil
	}
	if plan == nil {
		if plan, err = resolvePlan(ctx, cfg); err != nil {
			return err
		}
	}
	if !gopts.quiet {
		fmt.Fprintf(out.Stdout, "resuming %s: %s %s, %d games recorded\n", o.dir, cfg.Game, strings.TrimSpace(string(cfg.Algo)), info.Games)
	}
	return runTuning(ctx, tuningOutput{out.Stdout, out.Stderr, gopts.quiet}, plan, run, o.workers, co)
}

// resumeCluster is where a resumed run's games are played: the cluster
// options given, else those recorded with the run; checked.
func resumeCluster(o resumeOptions) (clusterOptions, error) {
	co := o.cluster
	if !co.enabled() {
		recorded, err := loadClusterOptions(o.dir)
		if err != nil {
			return co, err
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
			return co, err
		}
	}
	return co, nil
}

// changedPlan checks the run's recorded config cfg against --config, and
// with --force records and returns the plan of the config given when it
// differs (nil when it does not, or none is given).
func changedPlan(ctx context.Context, o resumeOptions, run *results.Run, cfg population.Config, stderr io.Writer) (*population.Plan, error) {
	if o.config == "" {
		return nil, nil
	}
	data, err := readUserFile(o.config)
	if err != nil {
		return nil, usageError{fmt.Errorf("--config: %w", err)}
	}
	want, diff, err := cfg.ResumeWith(data)
	if errors.Is(err, population.ErrNotResumable) {
		return nil, usageError{fmt.Errorf("resume: %s: %w", o.config, err)}
	}
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: %w", o.config, err)}
	}
	if len(diff) == 0 {
		return nil, nil
	}
	if !o.force {
		return nil, usageError{fmt.Errorf("resume: %s differs from the config recorded in %s (%s); resuming with it would not give the run's result: use --force to go on anyway", o.config, o.dir, strings.Join(diff, "; "))}
	}
	plan, err := resolvePlan(ctx, want)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "resume: going on with the changed config (%s)\n", strings.Join(diff, "; "))
	return plan, run.SetConfig(plan.Config().Marshal())
}
