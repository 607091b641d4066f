package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/learn"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/cobra"
)

type learnOptions struct {
	game, evaluator, start, out, positions, endPlay   string
	budget, rounds, depth, workers, epochs, gatePairs int
	seed                                              uint64
	l2, lambda, rate                                  float64
	force, json                                       bool
	tables                                            []string
	cluster                                           clusterOptions
}

func runLearn(ctx context.Context, o learnOptions, gopts globalOptions, out output) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	o.cluster.scores = true // self-play labels positions with the movers' scores
	run, err := openRunner(ctx, o.cluster, o.workers,
		tuning.Place{Run: learn.RunName(cfg), BrokerStore: o.out + ".broker", Log: out.Stderr})
	if cfg.Runner = run; err != nil {
		return err
	}
	defer run.Close()
	if !gopts.quiet {
		cfg.Log = func(r learn.Round) { fmt.Fprintln(out.Stderr, r.LogLine()) }
		cfg.Progress = func(p learn.Progress) { fmt.Fprintln(out.Stderr, p.LogLine()) }
		defer run.Report(out.Stderr) // after the summary, before the runner closes
	}
	res, runErr := learn.Learn(ctx, cfg)
	if errors.Is(runErr, learn.ErrConfig) || errors.Is(runErr, learn.ErrBadPositionsFile) {
		return usageError{runErr}
	}
	if runErr != nil && (res == nil || ctx.Err() == nil) {
		return runErr
	}
	written, err := learn.Finish(cfg, res, runErr, o.out, o.force, o.source(res))
	if err != nil {
		return err
	}
	summary := learn.NewSummary(res, cfg.Game.Name(), cfg.Evaluator.Name, written, runErr != nil)
	if err := emit(out, o.json, summary, summary.WriteTable); err != nil {
		return err
	}
	return runErr
}

// config checks the flags and resolves the game, the evaluator and the
// start; the output file must not exist without --force (checked before
// the games, again when written).
func (o learnOptions) config() (learn.Config, error) {
	switch {
	case o.out == "":
		return learn.Config{}, usageError{errors.New("learn: -o FILE is required: the weights file to write")}
	case o.budget <= 0:
		return learn.Config{}, usageError{fmt.Errorf("learn: --budget-games %d: "+
			"want the number of games to play, 1 or more", o.budget)}
	case o.rounds < 1 || o.rounds > 1000:
		return learn.Config{}, usageError{fmt.Errorf("learn: --rounds %d: want 1 to 1000", o.rounds)}
	case o.epochs < 0 || o.l2 < 0 || o.rate < 0:
		return learn.Config{}, usageError{fmt.Errorf("learn: --epochs %d, --l2 %v, --rate %v: want 0 (the fit's default) "+
			"or more", o.epochs, o.l2, o.rate)}
	}
	if err := files.CheckWritable(o.out, o.force); errors.Is(err, files.ErrExists) {
		return learn.Config{}, usageError{fmt.Errorf("learn: %s exists already (use --force to replace it)", o.out)}
	} else if err != nil {
		return learn.Config{}, usageError{fmt.Errorf("learn: -o: %w", err)}
	}
	lim := engine.Limits{Depth: o.depth}
	if err := lim.Check(); err != nil || o.depth < 1 {
		return learn.Config{}, usageError{fmt.Errorf("learn: --depth %d: want 1 to %d", o.depth, engine.MaxDepth)}
	}
	g, err := findGame(o.game)
	if err != nil {
		return learn.Config{}, err
	}
	ev, w, err := learn.Start(g, o.evaluator, o.start)
	if err != nil {
		return learn.Config{}, usageError{err}
	}
	return learn.Config{Game: g, Evaluator: ev, Weights: w, Limits: lim, Budget: o.budget, Rounds: o.rounds,
		Seed: o.seed, PositionsFile: o.positions, State: o.out + ".resume", Lambda: o.lambda,
		Gate: learn.Gate{MaxPairs: o.gatePairs}, EndPlay: learn.EndPlay(o.endPlay),
		Fit: learn.FitOptions{Epochs: o.epochs, L2: o.l2, Rate: o.rate, Workers: o.workers, Tables: o.tables}}, nil
}

// source is what the learned weights file records of the command.
func (o learnOptions) source(res *learn.Result) map[string]any {
	return map[string]any{"command": "learn", "seed": o.seed, "budget_games": o.budget, "depth": o.depth,
		"rounds": len(res.Rounds), "start": o.start, "lambda": o.lambda, "end_play": string(res.EndPlay),
		"gate_pairs": o.gatePairs, "epochs": o.epochs, "rate": o.rate, "l2": o.l2, "tables": o.tables,
		"games": len(res.Set.Games), "positions": res.Set.Positions()}
}

func newLearnCommand(g *globalOptions) *cobra.Command {
	var o learnOptions
	c := command("learn --game G --evaluator E --budget-games N -o FILE [flags]",
		"Learn an evaluator's tables from self-play: rounds of games, a fit, and an SPRT gate",
		`learn fits the tables of an evaluator with tables (othello patterns, chess pst,
checkers patterns) from its own games. Each round plays self-play games with the
current weights (random openings of 4 to 14 plies; Othello games are solved
exactly from 12 empties; a position is fitted at its quiescence leaf, labelled
by its game's result, or with --lambda L by (1-L) times it plus L times its
mover's search score as a probability), adds them to the positions (and to the
--positions file, read and appended to),
fits the tables and weights on all the positions, and keeps the fit only when it
beats the current weights in colour-swapped pairs: a pentanomial SPRT (H0 0, H1
5 normalized Elo) accepts, or at the gate's last pair the Elo interval lies
above 0. The budget counts every game: a quarter for the gates, the rest
self-play, later rounds playing more. Results do not depend on --workers.
With --nats the games go to workers, each round's tables with them: the same result.
-o is written atomically and never replaced without --force. Interrupted, learn
keeps its weights so far in FILE.resume and its games in --positions (or
FILE.resume.games): run again, it goes on to the result of an unbroken run.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runLearn(ctx, o, *g, out) })
	f := c.Flags()
	f.StringVar(&o.game, "game", "othello", "the game")
	f.StringVar(&o.evaluator, "evaluator", "patterns", "the evaluator with tables to learn")
	f.StringVar(&o.start, "start", "default",
		`the weights to start from: "default" (the evaluator's), a weights file, or "empty" (from scratch)`)
	f.IntVar(&o.budget, "budget-games", 0, "games to play in all, self-play and gates (required)")
	f.IntVar(&o.rounds, "rounds", learn.DefaultRounds, "rounds of self-play, fit and gate")
	f.IntVar(&o.depth, "depth", 4, fmt.Sprintf("search depth of every game, 1-%d", engine.MaxDepth))
	f.Uint64Var(&o.seed, "seed", 1, "seed of the openings and the fits")
	f.StringVarP(&o.out, "output", "o", "", "the weights file to write (required)")
	f.StringVar(&o.positions, "positions", "", "a positions file: its games are learned from, the new ones appended")
	f.StringVar(&o.endPlay, "end-play", "", "play from 12 empties, exact either way: solver (faster; "+
		"a new run's default) or engine (the play before it); a run going on keeps its own")
	f.IntVar(&o.gatePairs, "gate-pairs", 0,
		"each gate's pairs at most (0: a quarter of the budget over the rounds); --gate-pairs N --budget-games 2N+1 "+
			"--rounds 1 refits a --positions file with one new game")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.IntVar(&o.epochs, "epochs", 0, "passes of each fit over the positions (0: the fit's default)")
	f.Float64Var(&o.l2, "l2", 0, "L2 regularisation of the fit (0: the fit's default)")
	f.Float64Var(&o.rate, "rate", 0,
		"Adam's step of the fit, in the evaluation's units (0: the fit's default, 0.5); "+
			"smaller keeps a warm start's tables closer")
	f.Float64Var(&o.lambda, "lambda", 0,
		"share of each label taken from the mover's search score, 0-1 "+
			"(sigmoid of K times the score; the rest from the game's result)")
	f.StringSliceVar(&o.tables, "tables", nil,
		"fit only these tables (comma-separated names, as 'tune games' lists them); "+
			"the others and the scalars keep the starting weights'")
	f.BoolVar(&o.force, "force", false, "overwrite the output file")
	o.cluster.bind(f)
	bindJSON(c, &o.json)
	return c
}
