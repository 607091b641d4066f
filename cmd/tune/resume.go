package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/cobra"
)

type resumeOptions struct {
	dir     string
	workers int
	config  string
	force   bool
	cluster clusterOptions
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
	want, diff, err := tuning.ResumeConfig(cfg, o.dir, o.config, o.force, planSources)
	if err != nil {
		return usageError{err}
	}
	info, err := run.Info()
	if err != nil {
		return err
	}
	if info.Status == results.StatusDone && len(diff) == 0 {
		fmt.Fprintf(out.Stdout, "%s is finished already (%d generations, %d games); nothing to resume\n", o.dir,
			info.Generations, info.Games)
		return nil
	}
	plan, err := resolvePlan(ctx, want)
	if err != nil {
		return err
	}
	if len(diff) > 0 {
		fmt.Fprintf(out.Stderr, "resume: going on with the changed config (%s)\n", strings.Join(diff, "; "))
		if err := run.SetConfig(plan.Config().Marshal()); err != nil {
			return err
		}
	}
	if !gopts.quiet {
		fmt.Fprintf(out.Stdout, "resuming %s: %s %s, %d games recorded\n", o.dir, cfg.Game,
			strings.TrimSpace(string(cfg.Algo)), info.Games)
	}
	return brokerHint(tuning.Tune(ctx, plan, run, runnerOf(o.workers, co, out.Stderr),
		tuning.Output{Stdout: out.Stdout, Stderr: out.Stderr, Quiet: gopts.quiet}))
}

// resumeCluster is where a resumed run's games are played: the cluster
// options given, else those recorded with the run; checked.
func resumeCluster(o resumeOptions) (co clusterOptions, err error) {
	co = o.cluster
	if co.Options, err = co.Resumed(o.dir); err == nil && !co.Enabled() {
		_, err = checkWorkers(o.workers)
	}
	return co, err
}

// openRun opens a run directory to work on it (locked; see results.Open)
// with its recorded config.
func openRun(dir string) (*results.Run, population.Config, error) {
	run, err := results.Open(dir)
	if err != nil {
		return nil, population.Config{}, usageError{err}
	}
	cfg, err := run.ReadConfig()
	if err != nil {
		run.Close()
		return nil, population.Config{}, err
	}
	return run, cfg, nil
}

func newResumeCommand(g *globalOptions) *cobra.Command {
	var o resumeOptions
	c := command("resume DIR", "Continue an interrupted run to the result an uninterrupted run would have given",
		`resume continues the tuning run in DIR with the config recorded there. Games already
recorded are not played again; since every game is seeded from its place in the run,
the resumed run ends with exactly the genomes an uninterrupted run would have, whatever
the number of workers.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runResume(ctx, o, *g, out) }, &o.dir)
	c.Flags().IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(c.Flags())
	c.Flags().StringVar(&o.config, "config", "",
		"check the run against this YAML config; a different config is refused unless --force")
	c.Flags().BoolVar(&o.force, "force", false, "go on with the --config given although it differs from the recorded one")
	return c
}
