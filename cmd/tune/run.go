package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// version is gametune's version, recorded with every run.
const version = "0.1.0"

type runOptions struct {
	out     string
	config  string
	preset  string
	workers int
	cfg     population.Config // flag values; only those the user set are applied
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := runOptions{cfg: population.Defaults()}
	c := &cobra.Command{
		Use:   "run --game G --out DIR [flags]",
		Short: "Run a tuning job (genetic algorithm or knockout tournaments)",
		Long: `run evolves an evaluator's weights by playing games between weight vectors and
keeping the winners. Every finished game and generation is stored in DIR at once;
'tune resume DIR' continues an interrupted run to the identical result.

Settings come from, in order: the defaults, --preset, --config FILE.yaml (keys are
the flag names), and the flags given. The run directory keeps the resolved config.

Presets: othello-report (the Othello report's genetic algorithm: 25 genomes,
35 generations, 10 games each, depth 6), checkers-paper (the checkers report's
knockout tournaments, best-of-5, ten-draw initialisation).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runRun(c, g, &o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.out, "out", "", "run directory to create (must not exist)")
	f.StringVar(&o.config, "config", "", "YAML config file (keys are the flag names)")
	f.StringVar(&o.preset, "preset", "", "start from a preset: othello-report, checkers-paper")
	f.IntVar(&o.workers, "workers", 0, "games played at once (default: one per core); results do not depend on it")
	cf := &o.cfg
	f.StringVar(&cf.Game, "game", "", "game to tune (see 'tune games')")
	f.StringVar(&cf.Evaluator, "evaluator", "", "evaluator to tune (default: the game's first)")
	f.StringVar((*string)(&cf.Algo), "algo", string(cf.Algo), "genetic or knockout")
	f.Uint64Var(&cf.Seed, "seed", cf.Seed, "run seed: the same seed and config give the same run")
	f.IntVar(&cf.Depth, "depth", cf.Depth, "search depth of every game")
	f.Int64Var(&cf.Nodes, "nodes", cf.Nodes, "node limit per move (instead of or with --depth)")
	f.StringVar(&cf.Openings, "openings", cf.Openings, "openings: random:N (N random plies, balanced), a file of positions, or 'start'")
	f.IntVar(&cf.MaxPlies, "max-plies", cf.MaxPlies, "ply cap of a game, drawn when reached (0: 400)")
	f.StringVar(&cf.Start, "start", cf.Start, "weights file to start from (default: random for genetic, zeros for knockout)")
	f.IntVar(&cf.YardstickPairs, "yardstick-pairs", cf.YardstickPairs, "pairs of games of the best genome against the default weights")
	f.IntVar(&cf.YardstickEvery, "yardstick-every", cf.YardstickEvery, "measure the yardstick every g generations")
	f.IntVar(&cf.Population, "population", cf.Population, "genetic: genomes per generation")
	f.IntVar(&cf.Generations, "generations", cf.Generations, "genetic: generations")
	f.IntVar(&cf.Games, "games", cf.Games, "genetic: opponents each genome meets (a colour-swapped pair each)")
	f.StringVar(&cf.Fitness, "fitness", cf.Fitness, "genetic: score (points per game) or exp (2^wins/games)")
	f.StringVar(&cf.Selection, "selection", cf.Selection, "genetic: roulette, sus or tournament")
	f.IntVar(&cf.TournamentSize, "tournament-size", cf.TournamentSize, "genetic: genomes per selection tournament")
	f.StringVar(&cf.Crossover, "crossover", cf.Crossover, "genetic: uniform, blend or none")
	f.Float64Var(&cf.Redraw, "redraw", cf.Redraw, "genetic: probability that a child's weights are all re-drawn (the report's mutation)")
	f.Float64Var(&cf.MutationRate, "mutation-rate", cf.MutationRate, "genetic: probability of a Gaussian step per weight")
	f.Float64Var(&cf.Sigma, "sigma", cf.Sigma, "genetic: Gaussian step as a fraction of the weight's range")
	f.IntVar(&cf.Elite, "elite", cf.Elite, "genetic: best genomes kept unchanged")
	f.Float64Var(&cf.Converge, "converge", cf.Converge, "genetic: stop when diversity falls below this (0: never)")
	f.IntVar(&cf.Candidates, "candidates", cf.Candidates, "knockout: candidates per round")
	f.IntVar(&cf.Rounds, "rounds", cf.Rounds, "knockout: rounds at most")
	f.IntVar(&cf.BestOf, "best-of", cf.BestOf, "knockout: games per match")
	f.StringVar(&cf.Ties, "ties", cf.Ties, "knockout: random or extra (extra pairs until one leads)")
	f.Float64Var(&cf.Scale, "scale", cf.Scale, "knockout: scale of the ten-draw step around the winner")
	f.IntVar(&cf.Window, "window", cf.Window, "knockout: rounds of small moves that mean convergence")
	f.Float64Var(&cf.Threshold, "threshold", cf.Threshold, "knockout: distance below which a move is small")
	return c
}

// resolveConfig builds the run's config: defaults, preset, file, then the
// flags the user set. Config flags are named after the config's YAML keys,
// so a set flag is copied field by field.
func resolveConfig(c *cobra.Command, o *runOptions) (population.Config, error) {
	cfg := population.Defaults()
	if o.preset != "" {
		if err := population.ApplyPreset(&cfg, o.preset); err != nil {
			return cfg, usageError{err}
		}
	}
	if o.config != "" {
		data, err := readUserFile(o.config)
		if err != nil {
			return cfg, usageError{fmt.Errorf("--config: %w", err)}
		}
		if err := population.MergeConfig(&cfg, data); err != nil {
			return cfg, usageError{fmt.Errorf("%s: %w", o.config, err)}
		}
	}
	from, to := reflect.ValueOf(o.cfg), reflect.ValueOf(&cfg).Elem()
	c.Flags().Visit(func(f *pflag.Flag) {
		for i := 0; i < from.NumField(); i++ {
			if strings.Split(from.Type().Field(i).Tag.Get("yaml"), ",")[0] == f.Name {
				to.Field(i).Set(from.Field(i))
			}
		}
	})
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

func runRun(c *cobra.Command, g *globalOptions, o *runOptions) error {
	if o.out == "" {
		return usageError{fmt.Errorf("run: --out DIR is required (a new directory for the run's results)")}
	}
	if o.workers < 0 {
		return usageError{fmt.Errorf("run: --workers %d: want 1 or more, or 0 for one per core", o.workers)}
	}
	cfg, err := resolveConfig(c, o)
	if err != nil {
		return err
	}
	// Read the start weights and the openings file now, into the config, so
	// that the run directory holds everything a resume needs.
	if cfg.Start != "" {
		game, err := findGame(cfg.Game)
		if err != nil {
			return err
		}
		ev, w, err := games.ReadWeights(cfg.Start, game)
		if err != nil {
			return usageError{err}
		}
		if cfg.Evaluator != "" && cfg.Evaluator != ev.Name {
			return usageError{fmt.Errorf("run: --start %s holds weights of evaluator %q, not %q", cfg.Start, ev.Name, cfg.Evaluator)}
		}
		cfg.Evaluator = ev.Name
		cfg.StartWeights = map[string]float64{}
		for i, f := range ev.Features {
			cfg.StartWeights[f.Name] = w[i]
		}
	}
	if cfg.Openings != "" && cfg.Openings != "start" && !tournament.IsRandomOpenings(cfg.Openings) {
		game, err := findGame(cfg.Game)
		if err != nil {
			return err
		}
		list, err := tournament.ReadOpenings(cfg.Openings, game)
		if err != nil {
			return usageError{err}
		}
		cfg.OpeningList = list
	}
	if _, err := prepareTuning(c.Context(), cfg); err != nil {
		return err
	}
	run, err := results.Create(o.out, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, version)
	if errors.Is(err, results.ErrExists) {
		return usageError{fmt.Errorf("%w (choose a new --out, or continue it with 'tune resume %s')", err, o.out)}
	}
	if err != nil {
		return err
	}
	defer run.Close()
	return runTuning(c.Context(), c, cfg, run, o.workers)
}

// tuning is what a run needs besides its config and store.
type tuning struct {
	game     games.Game
	ev       *games.Evaluator
	start    []float64
	openings []string
}

// prepareTuning resolves and checks everything a config names: the game,
// the evaluator, the start weights and the openings.
func prepareTuning(ctx context.Context, cfg population.Config) (*tuning, error) {
	if err := cfg.Validate(); err != nil {
		return nil, usageError{err}
	}
	game, err := findGame(cfg.Game)
	if err != nil {
		return nil, err
	}
	ev, err := games.FindEvaluator(game, cfg.Evaluator)
	if err != nil {
		return nil, usageError{err}
	}
	t := &tuning{game: game, ev: ev}
	if cfg.StartWeights != nil {
		t.start = make([]float64, len(ev.Features))
		for i, f := range ev.Features {
			v, ok := cfg.StartWeights[f.Name]
			if !ok {
				return nil, usageError{fmt.Errorf("run: start weights lack feature %q", f.Name)}
			}
			t.start[i] = v
		}
		if err := ev.Check(t.start); err != nil {
			return nil, usageError{err}
		}
	}
	switch {
	case len(cfg.OpeningList) > 0:
		t.openings = cfg.OpeningList
	case tournament.IsRandomOpenings(cfg.Openings):
		t.openings, err = tournament.RandomOpenings(ctx, game, cfg.Openings, cfg.Seed)
		if err != nil {
			return nil, usageError{err}
		}
	}
	return t, nil
}

// runTuning runs (or resumes) the tuning job of a run directory to its end.
func runTuning(ctx context.Context, c *cobra.Command, cfg population.Config, run *results.Run, workers int) error {
	quiet, _ := c.Flags().GetBool("quiet")
	out := c.OutOrStdout()
	t, err := prepareTuning(ctx, cfg)
	if err != nil {
		return err
	}
	pool, err := tournament.NewPool(workers, poolTableMiB)
	if err != nil {
		return usageError{err}
	}
	tuner, err := population.NewTuner(cfg, t.game, t.openings, t.start, pool, run)
	if err != nil {
		return usageError{err}
	}
	total := cfg.Generations
	if cfg.Algo == "knockout" {
		total = cfg.Rounds
	}
	start := now()
	played := 0
	progress := reports.NewProgress(c.ErrOrStderr(), quiet, 0)
	defer progress.Finish()
	stage, stageGen := "", -1
	tuner.OnGame = func(p population.Progress) {
		if p.Played {
			played++
		}
		if p.Stage != stage || p.Generation != stageGen {
			stage, stageGen = p.Stage, p.Generation
			label := fmt.Sprintf("%s %d/%d", stageName(cfg), p.Generation+1, total)
			if p.Stage == population.StageYardstick {
				label = fmt.Sprintf("yardstick %d/%d", p.Generation+1, total)
			}
			progress.Start(label, p.Total)
		}
		progress.Set(p.Done)
	}
	tuner.OnGeneration = func(g population.Generation) {
		line := fmt.Sprintf("%s %d/%d: best %d fitness %.3f (mean %.3f), diversity %.3f", stageName(cfg), g.Index+1, total, g.Best, g.BestFitness, g.MeanFitness, g.Diversity)
		if cfg.Algo == "knockout" {
			line += fmt.Sprintf(", moved %.3f", g.Distance)
		}
		if y := g.Yardstick; y != nil {
			line += ", vs defaults " + eloString(y.Elo, y.EloLow, y.EloHigh)
		}
		line += fmt.Sprintf(", %.1f games/s", float64(played)/max(since(start), 1e-9))
		progress.Line(line)
		if err := refreshReports(run.Dir()); err != nil && !quiet {
			progress.Line("could not refresh the plots: " + err.Error())
		}
	}
	if err := run.SetStatus("running"); err != nil {
		return err
	}
	res, err := tuner.Run(ctx)
	if err != nil {
		status := "failed"
		if ctx.Err() != nil {
			status = "interrupted"
			fmt.Fprintf(c.ErrOrStderr(), "run interrupted; every finished game is saved. Continue with: tune resume %s\n", run.Dir())
		}
		if serr := run.SetStatus(status); serr != nil {
			return fmt.Errorf("%w (and recording the status: %v)", err, serr)
		}
		return err
	}
	if err := run.SetStatus("done"); err != nil {
		return err
	}
	progress.Finish()
	if err := refreshReports(run.Dir()); err != nil {
		fmt.Fprintln(c.ErrOrStderr(), "could not draw the plots:", err)
	}
	fmt.Fprintf(out, "best genome %d after %d %ss:\n", res.Best.ID, res.Generations, stageName(cfg))
	for i, f := range tuner.Evaluator().Features {
		fmt.Fprintf(out, "  %-24s %g\n", f.Name, res.Best.Weights[i])
	}
	if y := res.Yardstick; y != nil {
		fmt.Fprintf(out, "against the default weights: %d-%d-%d, %s\n", y.Wins, y.Draws, y.Losses, eloString(y.Elo, y.EloLow, y.EloHigh))
	}
	fmt.Fprintf(out, "results in %s: report.html, plots/ (tune show %s; tune export %s --format json)\n", run.Dir(), run.Dir(), run.Dir())
	return nil
}

// refreshReports redraws the plots and the HTML report of a run directory.
func refreshReports(dir string) error {
	r, err := reports.Load(dir)
	if err != nil {
		return err
	}
	if _, err := reports.WritePlots(r, filepath.Join(dir, "plots"), "both"); err != nil {
		return err
	}
	return reports.WriteHTML(r, filepath.Join(dir, "report.html"))
}

func stageName(cfg population.Config) string {
	if cfg.Algo == "knockout" {
		return "round"
	}
	return "generation"
}

// eloString writes an Elo difference with its 95% interval.
func eloString(elo, lo, hi float64) string {
	r := func(x float64) float64 { return math.Round(x) + 0 } // no "-0"
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]", r(elo), r(lo), r(hi))
}
