package main

import (
	"fmt"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type resumeOptions struct {
	workers int
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
			return runResume(c, args[0], o)
		},
	}
	c.Flags().IntVar(&o.workers, "workers", 0, "games played at once (default: one per core); results do not depend on it")
	return c
}

func runResume(c *cobra.Command, dir string, o resumeOptions) error {
	if o.workers < 0 {
		return usageError{fmt.Errorf("resume: --workers %d: want 1 or more, or 0 for one per core", o.workers)}
	}
	run, err := results.Open(dir)
	if err != nil {
		return usageError{err}
	}
	defer run.Close()
	cfg, err := population.ParseConfig(run.Config())
	if err != nil {
		return fmt.Errorf("resume: the config recorded in %s: %w", dir, err)
	}
	info, err := run.Info()
	if err != nil {
		return err
	}
	if info.Status == "done" {
		fmt.Fprintf(c.OutOrStdout(), "%s is finished already (%d generations, %d games); nothing to resume\n", dir, info.Generations, info.Games)
		return nil
	}
	quiet, _ := c.Flags().GetBool("quiet")
	if !quiet {
		fmt.Fprintf(c.OutOrStdout(), "resuming %s: %s %s, %d games recorded\n", dir, cfg.Game, strings.TrimSpace(cfg.Algo), info.Games)
	}
	return runTuning(c.Context(), c, cfg, run, o.workers)
}
