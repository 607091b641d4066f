package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
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
		plan, err = resolvePlan(ctx, cfg)
	}
	if err != nil {
		return err
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
		_, err := checkWorkers(o.workers)
		return co, err
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

// openRun opens a run directory to work on it (locked; see results.Open)
// with its recorded config.
func openRun(dir string) (*results.Run, population.Config, error) {
	run, err := results.Open(dir)
	if err != nil {
		return nil, population.Config{}, usageError{err}
	}
	cfg, err := population.ParseConfig(run.Config())
	if err != nil {
		run.Close()
		return nil, population.Config{}, fmt.Errorf("the config recorded in %s: %w", dir, err)
	}
	return run, cfg, nil
}

// newRunTuner resolves the plan of a run's config and makes its tuner (see
// newTuner). Close the runner it returns when done.
func newRunTuner(ctx context.Context, cfg population.Config, run *results.Run, workers int, co clusterOptions, stderr io.Writer) (*population.Tuner, *population.Plan, *gameRunner, error) {
	plan, err := resolvePlan(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	tuner, games, err := newTuner(ctx, plan, run, workers, co, stderr)
	return tuner, plan, games, err
}

// newTuner makes the tuner of a run, its games played by workers here
// and, with co, through a broker (see openRunner). Close the runner it
// returns when done.
func newTuner(ctx context.Context, plan *population.Plan, run *results.Run, workers int, co clusterOptions, stderr io.Writer) (*population.Tuner, *gameRunner, error) {
	name, err := runName(run)
	if err != nil {
		return nil, nil, err
	}
	games, err := openRunner(ctx, co, workers, name, false, filepath.Join(run.Dir(), "broker"), stderr)
	if err != nil {
		return nil, nil, err
	}
	tuner, err := population.New(plan, games, run)
	if err != nil {
		games.Close()
		return nil, nil, usageError{err}
	}
	return tuner, games, nil
}

// runTuning runs (or resumes) the tuning job of a run directory to its end.
// workers and co choose where the games are played (see openRunner).
func runTuning(ctx context.Context, to tuningOutput, plan *population.Plan, run *results.Run, workers int, co clusterOptions) error {
	tuner, games, err := newTuner(ctx, plan, run, workers, co, to.stderr)
	if err != nil {
		return err
	}
	defer games.Close()
	info, err := run.Info()
	if err != nil {
		return err
	}
	start := now()
	tuner.Elapsed = func() time.Duration { return time.Duration(info.Seconds*float64(time.Second)) + time.Since(start) }
	progress := reports.NewProgress(to.stderr, to.quiet, 0)
	defer progress.Finish()
	watch(tuner, plan.Config(), run, progress, start, to.quiet)
	if err := run.SetStatus(results.StatusRunning); err != nil {
		return err
	}
	res, err := tuner.Run(ctx)
	if !to.quiet {
		games.report(to.stderr)
	}
	if err := endRun(ctx, run, brokerHint(err), to.stderr); err != nil {
		return err
	}
	progress.Finish()
	if err := refreshReports(run.Dir()); err != nil {
		fmt.Fprintln(to.stderr, "could not draw the plots:", err)
	}
	return printRun(to.stdout, plan, run, res)
}

// watch shows a run's progress: a bar per batch of games and a line per
// generation, after which the running time is recorded and the plots
// redrawn.
func watch(tuner *population.Tuner, cfg population.Config, run *results.Run, progress *reports.Progress, start time.Time, quiet bool) {
	total, name := cfg.PlannedGenerations(), cfg.GenerationName()
	played, stage, stageGen := 0, "", -1
	tuner.OnGame = func(p population.Progress) {
		if p.Played {
			played++
		}
		if p.Stage != stage || p.Generation != stageGen {
			stage, stageGen = p.Stage, p.Generation
			label := fmt.Sprintf("%s %d/%d", name, p.Generation+1, total)
			switch p.Stage {
			case population.StageYardstick:
				label = fmt.Sprintf("yardstick %d/%d", p.Generation+1, total)
			case population.StageLadder:
				label = "ladder"
			}
			progress.Start(label, p.Total)
		}
		progress.Set(p.Done)
	}
	tuner.OnGeneration = func(g population.Generation) {
		line := fmt.Sprintf("%s %d/%d: best %d fitness %.3f (mean %.3f), diversity %.3f", name, g.Index+1, total, g.Best, g.BestFitness, g.MeanFitness, g.Diversity)
		if cfg.Algo == population.Knockout {
			line += fmt.Sprintf(", moved %.3f", g.Distance)
		}
		if y := g.Yardstick; y != nil {
			line += ", yardstick " + eloString(y.Elo, y.EloLow, y.EloHigh)
		}
		if g.Stop != "" && g.Stop != population.StopGenerations {
			line += ", stopped: " + g.Stop
		}
		progress.Line(line + fmt.Sprintf(", %.1f games/s", float64(played)/max(since(start), 1e-9)))
		if err := run.RecordTime(); err != nil && !quiet {
			progress.Line("could not record the running time: " + err.Error())
		}
		if err := refreshReports(run.Dir()); err != nil && !quiet {
			progress.Line("could not refresh the plots: " + err.Error())
		}
	}
}

// endRun records how a run ended: done, or with err failed (or
// interrupted, when ctx is done), and returns err.
func endRun(ctx context.Context, run *results.Run, err error, stderr io.Writer) error {
	if err == nil {
		return run.SetStatus(results.StatusDone)
	}
	status := results.StatusFailed
	if ctx.Err() != nil {
		status = results.StatusInterrupted
		fmt.Fprintf(stderr, "run interrupted; every finished game is saved. Continue with: tune resume %s\n", run.Dir())
	}
	if serr := run.SetStatus(status); serr != nil {
		return fmt.Errorf("%w (and recording the status: %w)", err, serr)
	}
	return err
}

// printRun prints a finished run: its length, its ladder and its best.
func printRun(out io.Writer, plan *population.Plan, run *results.Run, res population.Result) error {
	hist, err := run.Generations()
	if err != nil {
		return err
	}
	cfg, ev := plan.Config(), plan.Evaluator()
	choice, err := population.ChooseBest(ev, cfg, hist, res.Ladder)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d %ss, %d games (%s)\n", res.Generations, cfg.GenerationName(), res.Spent, res.Stop)
	if res.Ladder != nil {
		printLadder(out, res.Ladder)
	}
	fmt.Fprintf(out, "best: %s\n", choice.Summary())
	for i, f := range ev.Features {
		fmt.Fprintf(out, "  %-24s %g\n", f.Name, choice.Weights[i])
	}
	fmt.Fprintf(out, "results in %s: report.html, plots/ (tune show %s; tune export %s --format json)\n", run.Dir(), run.Dir(), run.Dir())
	return nil
}
