package tuning

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// Ladder plays the ladder of run, planned by plan (tune ladder): a round
// robin of its champions, its start and the defaults, pairs colour-swapped
// pairs per pairing (0: the run's ladder-pairs), its games played by the
// runner open makes and its progress shown on out.Stderr. It records the
// ladder, refreshes the report (noting a failure) and returns the run's
// view with the ladder and the best it names. A run of fewer than two
// generations gives an error wrapping population.ErrLadderTooShort.
func Ladder(ctx context.Context, plan *population.Plan, run *results.Run, open Opener, pairs int, out Output) (*results.View, error) {
	tuner, games, err := newTuner(ctx, plan, run, open)
	if err != nil {
		return nil, err
	}
	defer games.Close()
	v, err := results.ReadView(run)
	if err != nil {
		return nil, err
	}
	if pairs == 0 {
		pairs = v.Config.LadderPairs
	}
	l, err := playLadder(ctx, tuner, v.Generations, pairs, out)
	if err != nil {
		return nil, err
	}
	if err := run.RecordLadder(*l); err != nil {
		return nil, err
	}
	if err := reports.Refresh(run.Dir()); err != nil {
		fmt.Fprintln(out.Stderr, "could not refresh the report:", err)
	}
	return v, v.SetLadder(l)
}

// playLadder plays the ladder of the generations hist, showing its
// progress on out.Stderr.
func playLadder(ctx context.Context, tuner *population.Tuner, hist []population.Generation, pairs int, out Output) (*population.Ladder, error) {
	progress := reports.NewProgress(out.Stderr, out.Quiet, 0)
	defer progress.Finish()
	started := false
	tuner.OnGame = func(p population.Progress) {
		if !started {
			progress.Start("ladder", p.Total)
			started = true
		}
		progress.Set(p.Done)
	}
	return tuner.Ladder(ctx, hist, pairs)
}
