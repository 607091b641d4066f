// Package tuning runs tuning jobs in their run directories: it creates a
// run for a plan (population.Resolve), opens the runner of its games,
// builds the tuner, shows its progress, records how it ended, refreshes its
// report and prints what it gave. It holds the lifecycle that tune run,
// resume, ladder and compare share; the commands only wire flags to it.
//
// It sits above reports (which draws and writes), results (the run store)
// and population (the tuner): a tuning job is the place where the three
// meet.
package tuning

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// Version is gametune's version, recorded with every run.
const Version = "0.1.0"

// Runner plays a job's games; Close releases it. A runner that can say
// who played the games (a cluster's) also has Report(w io.Writer), called
// after the games unless the output is quiet.
type Runner interface {
	tournament.Runner
	Close()
}

// Opener opens the runner of the games of the run in directory dir, named
// name on a broker (cluster.RunName: the same when the run is resumed).
// On an error, the runner it returns is not used.
type Opener func(ctx context.Context, name, dir string) (Runner, error)

// Output is where a job reports: its results on Stdout, its progress and
// notes on Stderr (none of the chatter when Quiet).
type Output struct {
	Stdout, Stderr io.Writer
	Quiet          bool
}

// Create makes the run directory dir for plan (results.Create, which
// refuses a directory that exists with results.ErrExists), recording the
// plan's config and Version. When the plan tunes an
// engine's options, or plays external opponents, it first checks that
// each engine starts (population.Plan.CheckEngine; an error wrapping
// external.ErrSpec when its spec is wrong).
func Create(ctx context.Context, dir string, plan *population.Plan) (*results.Run, error) {
	if err := plan.CheckEngine(ctx); err != nil {
		return nil, err
	}
	cfg := plan.Config()
	return results.Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, Version)
}

// Tune runs (or resumes) the tuning job of run, planned by plan, to its
// end: its games are played by the runner open makes; it first notes when
// the tuner's length ends the run before its budget
// (population.BudgetNote); its progress shows
// on out.Stderr (a bar per batch of games, a line per generation, after
// which the running time is recorded and the report refreshed); how it
// ended is recorded (done, failed or interrupted); and what it gave is
// written on out.Stdout (reports.WriteResult).
func Tune(ctx context.Context, plan *population.Plan, run *results.Run, open Opener, out Output) error {
	tuner, games, err := newTuner(ctx, plan, run, open)
	if err != nil {
		return err
	}
	defer games.Close()
	info, err := run.Info()
	if err != nil {
		return err
	}
	if note := population.BudgetNote(plan.Config(), plan.Evaluator()); note != "" && !out.Quiet {
		fmt.Fprintln(out.Stderr, "note:", note)
	}
	start := time.Now()
	tuner.Elapsed = func() time.Duration { return time.Duration(info.Seconds*float64(time.Second)) + time.Since(start) }
	progress := reports.NewProgress(out.Stderr, out.Quiet, 0)
	defer progress.Finish()
	watch(tuner, plan, run, games, progress, start, out.Quiet)
	if err := run.SetStatus(results.StatusRunning); err != nil {
		return err
	}
	res, err := tuner.Run(ctx)
	if r, ok := games.(interface{ Report(io.Writer) }); ok && !out.Quiet {
		r.Report(out.Stderr)
	}
	err = end(ctx, run, err, out.Stderr)
	progress.Finish()
	// The report is drawn however the run ended: while it ran, it was
	// refreshed at most every refreshEvery.
	if err := refresh(run.Dir()); err != nil {
		fmt.Fprintln(out.Stderr, "could not draw the plots:", err)
	}
	if err != nil {
		return err
	}
	return writeResult(out.Stdout, plan, run, res)
}

// newTuner makes the tuner of plan, its games played by the runner open
// makes (the run named as a broker knows it: cluster.RunName) and recorded
// in run. Close the runner when done.
func newTuner(ctx context.Context, plan *population.Plan, run *results.Run, open Opener) (*population.Tuner, Runner, error) {
	info, err := run.Info()
	if err != nil {
		return nil, nil, err
	}
	games, err := open(ctx, cluster.RunName(run.Config(), info.Created), run.Dir())
	if err != nil {
		return nil, nil, err
	}
	tuner, err := population.New(plan, games, run)
	if err != nil {
		games.Close()
		return nil, nil, err
	}
	return tuner, games, nil
}

// end records how a run ended: done, or with err failed (or interrupted,
// when ctx is done, saying how to go on), and returns err.
func end(ctx context.Context, run *results.Run, err error, stderr io.Writer) error {
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

// writeResult writes what the finished run gave, its best chosen from its
// generations and the ladder res played.
func writeResult(w io.Writer, plan *population.Plan, run *results.Run, res population.Result) error {
	hist, err := run.Generations()
	if err != nil {
		return err
	}
	best, err := population.ChooseBest(plan.Evaluator(), plan.Config(), hist, res.Ladder, res.Verification)
	if err != nil {
		return err
	}
	reports.WriteResult(w, plan.Config(), plan.Evaluator(), res, best, run.Dir())
	return nil
}

// Sources is where a plan reads what its config names
// (population.Sources): games from the registry (games/all), a user's
// files up to MaxFile bytes (files.ReadLimited), and the games of
// other runs from their directories.
type Sources struct {
	MaxFile int64
}

// Game finds the game name in the registry.
func (Sources) Game(name string) (games.Game, error) { return all.Find(name) }

// ReadFile reads a file a user named, refusing one over MaxFile bytes.
func (s Sources) ReadFile(path string) ([]byte, error) {
	return files.ReadLimited(path, s.MaxFile)
}

// RunGames returns the game of the run in dir and its last n games, newest
// first.
func (Sources) RunGames(dir string, n int) (string, []population.GameResult, error) {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	cfg, err := r.ReadConfig()
	if err != nil {
		return "", nil, err
	}
	recent, err := r.LastGames(n)
	return cfg.Game, recent, err
}
