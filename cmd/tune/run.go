package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
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
	quiet   bool
	cluster clusterOptions
	// flags are the config flags, by name; applied to the resolved config
	// for the names the user set (set).
	flags configFlags
	set   []string
}

// configFlags is the explicit mapping from a config flag to its field: the
// flag's value lives in values, and apply copies it into a config.
type configFlags struct {
	values population.Config
	apply  map[string]func(dst *population.Config)
}

// configFlag binds the flag name to the config field that field returns:
// its default is the field's value in the defaults, bind is the pflag
// function of the field's type.
func configFlag[T any](f *configFlags, bind func(p *T, name string, value T, usage string), name, usage string, field func(*population.Config) *T) {
	bind(field(&f.values), name, *field(&f.values), usage)
	f.apply[name] = func(dst *population.Config) { *field(dst) = *field(&f.values) }
}

// algoValue is the --algo flag: a population.Algo checked when set.
type algoValue struct{ p *population.Algo }

func (a algoValue) String() string { return string(*a.p) }
func (a algoValue) Type() string   { return "algo" }
func (a algoValue) Set(s string) error {
	*a.p = population.Algo(s)
	return nil
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := runOptions{flags: configFlags{values: population.Defaults(), apply: map[string]func(*population.Config){}}}
	c := &cobra.Command{
		Use:   "run --game G --out DIR [flags]",
		Short: "Run a tuning job (genetic, knockout, SPSA, CMA-ES or Texel), ending with a ladder of its champions",
		Long: `run evolves an evaluator's weights by playing games between weight vectors and
keeping the winners. Every finished game and generation is stored in DIR at once;
'tune resume DIR' continues an interrupted run to the identical result. It ends
(after --generations, on convergence, or at a generation boundary once
--budget-games or --budget-time is spent) with a ladder rating its champions,
the start and the defaults on openings it never used; its best is the ladder's
strongest genome when it beats the start (or the defaults) with 95% confidence,
family-wise, and the start (or the defaults) otherwise.

Settings come from, in order: the defaults, --preset, --config FILE.yaml (keys are
the flag names), and the flags given. The run directory keeps the resolved config.

Presets: ` + strings.Join(population.PresetNames(), ", ") + ` (othello-report: the Othello
report's genetic algorithm, 25 genomes, 35 generations, 10 games each, depth 6;
checkers-paper: the checkers report's knockout tournaments, best-of-5, ten-draw
initialisation).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.quiet = g.quiet
			c.Flags().Visit(func(f *pflag.Flag) {
				if _, ok := o.flags.apply[f.Name]; ok {
					o.set = append(o.set, f.Name)
				}
			})
			return runRun(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.out, "out", "", "run directory to create (must not exist)")
	f.StringVar(&o.config, "config", "", "YAML config file (keys are the flag names)")
	f.StringVar(&o.preset, "preset", "", "start from a preset: "+strings.Join(population.PresetNames(), ", "))
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(f)
	cf := &o.flags
	f.Var(algoValue{&cf.values.Algo}, "algo", "genetic, knockout, spsa, cmaes or texel")
	cf.apply["algo"] = func(dst *population.Config) { dst.Algo = cf.values.Algo }
	type C = population.Config
	configFlag(cf, f.StringVar, "game", "game to tune (see 'tune games')", func(c *C) *string { return &c.Game })
	configFlag(cf, f.StringVar, "evaluator", "evaluator to tune (default: the game's first)", func(c *C) *string { return &c.Evaluator })
	configFlag(cf, f.Uint64Var, "seed", "run seed: the same seed and config give the same run", func(c *C) *uint64 { return &c.Seed })
	configFlag(cf, f.IntVar, "depth", fmt.Sprintf("search depth of every game, 1-%d", population.MaxDepth), func(c *C) *int { return &c.Depth })
	configFlag(cf, f.Int64Var, "nodes", "node limit per move (instead of or with --depth)", func(c *C) *int64 { return &c.Nodes })
	configFlag(cf, f.StringVar, "openings", "openings: random:N (N random plies, balanced), a file of positions, or 'start'", func(c *C) *string { return &c.Openings })
	configFlag(cf, f.IntVar, "max-plies", "ply cap of a game, drawn when reached (0: 400)", func(c *C) *int { return &c.MaxPlies })
	configFlag(cf, f.StringVar, "start", "weights file to start from, 'default' for the evaluator's defaults, or 'random' for one weight vector drawn from the seed (none: a random population for genetic, zeros for knockout, the defaults for spsa, cmaes and texel)", func(c *C) *string { return &c.Start })
	configFlag(cf, f.IntVar, "ladder-pairs", "pairs per pairing of the ladder played at the end (0: about a tenth of the run's games; -1: no ladder)", func(c *C) *int { return &c.LadderPairs })
	configFlag(cf, f.IntVar, "budget-games", "end the run at the first generation boundary after this many games (0: no budget)", func(c *C) *int { return &c.BudgetGames })
	configFlag(cf, f.StringVar, "budget-time", "end the run at the first generation boundary after this much time, e.g. 8h or 90m (none: no budget)", func(c *C) *string { return &c.BudgetTime })
	configFlag(cf, f.IntVar, "yardstick-pairs", "pairs of games of the best genome against the default weights", func(c *C) *int { return &c.YardstickPairs })
	configFlag(cf, f.IntVar, "yardstick-every", "measure the yardstick every g generations", func(c *C) *int { return &c.YardstickEvery })
	configFlag(cf, f.IntVar, "population", fmt.Sprintf("genetic: genomes per generation, 2-%d", population.MaxPopulation), func(c *C) *int { return &c.Population })
	configFlag(cf, f.IntVar, "generations", "genetic: generations", func(c *C) *int { return &c.Generations })
	configFlag(cf, f.IntVar, "games", "genetic: opponents each genome meets (a colour-swapped pair each)", func(c *C) *int { return &c.Games })
	configFlag(cf, f.StringVar, "fitness", "genetic: score (points per game) or exp (2^wins/games)", func(c *C) *string { return &c.Fitness })
	configFlag(cf, f.StringVar, "selection", "genetic: roulette, sus or tournament", func(c *C) *string { return &c.Selection })
	configFlag(cf, f.IntVar, "tournament-size", "genetic: genomes per selection tournament", func(c *C) *int { return &c.TournamentSize })
	configFlag(cf, f.StringVar, "crossover", "genetic: uniform, blend or none", func(c *C) *string { return &c.Crossover })
	configFlag(cf, f.Float64Var, "redraw", "genetic: probability that a child's weights are all re-drawn (the report's mutation)", func(c *C) *float64 { return &c.Redraw })
	configFlag(cf, f.Float64Var, "mutation-rate", "genetic: probability of a Gaussian step per weight", func(c *C) *float64 { return &c.MutationRate })
	configFlag(cf, f.Float64Var, "sigma", "genetic: Gaussian step as a fraction of the weight's range", func(c *C) *float64 { return &c.Sigma })
	configFlag(cf, f.IntVar, "elite", "genetic: best genomes kept unchanged", func(c *C) *int { return &c.Elite })
	configFlag(cf, f.Float64Var, "converge", "genetic: stop when diversity falls below this (0: never)", func(c *C) *float64 { return &c.Converge })
	configFlag(cf, f.IntVar, "candidates", fmt.Sprintf("knockout: candidates per round, 2-%d", population.MaxCandidates), func(c *C) *int { return &c.Candidates })
	configFlag(cf, f.IntVar, "rounds", "knockout: rounds at most", func(c *C) *int { return &c.Rounds })
	configFlag(cf, f.IntVar, "best-of", "knockout: games per match", func(c *C) *int { return &c.BestOf })
	configFlag(cf, f.StringVar, "ties", "knockout: random or extra (extra pairs until one leads)", func(c *C) *string { return &c.Ties })
	configFlag(cf, f.Float64Var, "scale", "knockout: scale of the ten-draw step around the winner", func(c *C) *float64 { return &c.Scale })
	configFlag(cf, f.IntVar, "window", "knockout: rounds of small moves that mean convergence", func(c *C) *int { return &c.Window })
	configFlag(cf, f.Float64Var, "threshold", "knockout: distance below which a move is small", func(c *C) *float64 { return &c.Threshold })
	configFlag(cf, f.IntVar, "cmaes-generations", "cmaes: generations", func(c *C) *int { return &c.CMAESGenerations })
	configFlag(cf, f.IntVar, "cmaes-population", "cmaes: candidates per generation (0: gonum's default, 4 + 3 ln n)", func(c *C) *int { return &c.CMAESPopulation })
	configFlag(cf, f.IntVar, "cmaes-pairs", "cmaes: colour-swapped pairs of each candidate against the mean", func(c *C) *int { return &c.CMAESPairs })
	configFlag(cf, f.Float64Var, "cmaes-sigma", "cmaes: initial step as a fraction of each range", func(c *C) *float64 { return &c.CMAESSigma })
	configFlag(cf, f.IntVar, "texel-rounds", "texel: rounds of self-play games then a fit", func(c *C) *int { return &c.TexelRounds })
	configFlag(cf, f.IntVar, "texel-games", "texel: self-play games per round, counted against the budget", func(c *C) *int { return &c.TexelGames })
	configFlag(cf, f.StringSliceVar, "positions-from", "texel: also fit on the games of this run directory (repeatable)", func(c *C) *[]string { return &c.TexelPositionsFrom })
	configFlag(cf, f.StringVar, "positions", "texel: also fit on this file of positions with results: 'POSITION | 1-0' lines, or EPD with c9 \"1-0\"", func(c *C) *string { return &c.TexelPositions })
	configFlag(cf, f.IntVar, "texel-opening-plies", "texel: random plies after the opening of each self-play game", func(c *C) *int { return &c.TexelOpeningPlies })
	configFlag(cf, f.IntVar, "spsa-iterations", fmt.Sprintf("spsa: iterations N (one colour-swapped pair each), 1-%d", population.MaxSPSAIterations), func(c *C) *int { return &c.SPSAIterations })
	configFlag(cf, f.IntVar, "spsa-block", "spsa: iterations per generation, played in parallel from the same theta", func(c *C) *int { return &c.SPSABlock })
	configFlag(cf, f.Float64Var, "spsa-a-ratio", "spsa: A as a fraction of the iterations (fishtest: 0.1)", func(c *C) *float64 { return &c.SPSAARatio })
	configFlag(cf, f.Float64Var, "spsa-alpha", "spsa: decay exponent of a_k (fishtest: 0.602)", func(c *C) *float64 { return &c.SPSAAlpha })
	configFlag(cf, f.Float64Var, "spsa-gamma", "spsa: decay exponent of c_k (fishtest: 0.101)", func(c *C) *float64 { return &c.SPSAGamma })
	configFlag(cf, f.Float64Var, "spsa-c-end", "spsa: c_end of every feature as a fraction of its range, without --spsa-params", func(c *C) *float64 { return &c.SPSACEnd })
	configFlag(cf, f.Float64Var, "spsa-r-end", "spsa: r_end of every feature, without --spsa-params", func(c *C) *float64 { return &c.SPSAREnd })
	configFlag(cf, f.StringVar, "tune-engine", "tune this external engine's own options instead of an evaluator: cmd=PATH,proto=uci,... (see 'tune match --help'); needs --params", func(c *C) *string { return &c.TuneEngine })
	configFlag(cf, f.StringVar, "params", "with --tune-engine: file of lines 'name, int|float, start, min, max, c_end, r_end', one per engine option to tune", func(c *C) *string { return &c.EngineParams })
	configFlag(cf, f.StringVar, "spsa-params", "spsa: file of parameter lines 'name, int|float, start, min, max, c_end, r_end' (the features to tune)", func(c *C) *string { return &c.SPSAParams })
	return c
}

// resolveConfig builds the run's config: defaults, preset, file, then the
// flags the user set.
func resolveConfig(o runOptions) (population.Config, error) {
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
	for _, name := range o.set {
		o.flags.apply[name](&cfg)
	}
	if slices.Contains(o.set, "budget-games") && cfg.BudgetGames <= 0 {
		return cfg, usageError{fmt.Errorf("--budget-games %d: want a positive number of games (leave it out for no budget)", cfg.BudgetGames)}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

func runRun(ctx context.Context, stdout, stderr io.Writer, o runOptions) error {
	if o.out == "" {
		return usageError{fmt.Errorf("run: --out DIR is required (a new directory for the run's results)")}
	}
	if !o.cluster.enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return err
		}
	}
	cfg, err := resolveConfig(o)
	if err != nil {
		return err
	}
	return createAndRun(ctx, tuningOutput{stdout, stderr, o.quiet}, cfg, o.out, o.workers, o.cluster)
}

// createAndRun creates the run directory out for the resolved config cfg
// and runs it to its end, its games played by workers here and, with co,
// through a broker.
func createAndRun(ctx context.Context, to tuningOutput, cfg population.Config, out string, workers int, co clusterOptions) error {
	if cfg.TuneEngine != "" {
		// The engine's options are the genome: read their lines into the
		// config, and check the engine answers and lists them before
		// anything is created.
		data, err := readUserFile(cfg.EngineParams)
		if err != nil {
			return usageError{fmt.Errorf("--params: %w", err)}
		}
		cfg.EngineParamList = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		game, err := findGame(cfg.Game)
		if err != nil {
			return err
		}
		ev, _, err := population.EngineEvaluator(cfg.EngineParamList)
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", cfg.EngineParams, err)}
		}
		cfg.Evaluator = ev.Name
		spec, err := external.Parse(cfg.TuneEngine)
		if err != nil {
			return usageError{err}
		}
		// With the options at their starts: an option the engine does
		// not list is refused here.
		if err := external.Check(ctx, game, spec.WithOptions(population.EngineOptions(ev, ev.Defaults())...), nil); err != nil {
			if errors.Is(err, external.ErrSpec) {
				return usageError{err}
			}
			return err
		}
	}
	// Read the start weights and the openings file now, into the config, so
	// that the run directory holds everything a resume needs.
	if cfg.Start != "" {
		game, err := findGame(cfg.Game)
		if err != nil {
			return err
		}
		var ev *games.Evaluator
		var w []float64
		switch cfg.Start {
		case population.StartDefaults, population.StartRandom:
			if ev, err = cfg.TunedEvaluator(game); err != nil {
				return usageError{err}
			}
			w = ev.Defaults()
			if cfg.Start == population.StartRandom {
				w = population.RandomStart(ev, cfg.Seed)
			}
		default:
			if ev, w, err = games.ReadWeights(cfg.Start, game); err != nil {
				return usageError{err}
			}
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
	if cfg.SPSAParams != "" {
		data, err := readUserFile(cfg.SPSAParams)
		if err != nil {
			return usageError{fmt.Errorf("--spsa-params: %w", err)}
		}
		cfg.SPSAParamList = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	}
	t, err := prepareTuning(ctx, cfg)
	if err != nil {
		return err
	}
	if cfg.Algo == population.Texel {
		if _, err := texelData(cfg, t); err != nil { // refused before the run exists
			return err
		}
	}
	run, err := results.Create(out, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, version)
	if errors.Is(err, results.ErrExists) {
		return usageError{fmt.Errorf("%w (choose a new --out, or continue it with 'tune resume %s')", err, out)}
	}
	if err != nil {
		return err
	}
	defer run.Close()
	if err := saveClusterOptions(run.Dir(), co); err != nil {
		return err
	}
	return runTuning(ctx, to, cfg, run, workers, co)
}

// tuning is what a run needs besides its config and store.
type tuning struct {
	game     games.Game
	ev       *games.Evaluator
	start    []float64
	openings []string
	engine   *external.Spec // the engine whose options are tuned; nil for an evaluator
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
	ev, err := cfg.TunedEvaluator(game)
	if err != nil {
		return nil, usageError{err}
	}
	t := &tuning{game: game, ev: ev}
	if cfg.TuneEngine != "" {
		spec, err := external.Parse(cfg.TuneEngine)
		if err != nil {
			return nil, usageError{err}
		}
		t.engine = &spec
	}
	if len(cfg.SPSAParamList) > 0 {
		if _, err := population.ParseSPSAParams(cfg.SPSAParamList, ev); err != nil {
			if cfg.SPSAParams != "" {
				err = fmt.Errorf("%s: %w", cfg.SPSAParams, err)
			}
			return nil, usageError{err}
		}
	}
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

// tuningOutput is where a tuning job reports: results on stdout, progress
// and notes on stderr (none of the chatter when quiet).
type tuningOutput struct {
	stdout, stderr io.Writer
	quiet          bool
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

// newRunTuner resolves what cfg names and makes the tuner of a run, its
// games played by workers here and, with co, through a broker (see
// openRunner). Close the runner it returns when done.
func newRunTuner(ctx context.Context, cfg population.Config, run *results.Run, workers int, co clusterOptions, stderr io.Writer) (*population.Tuner, *tuning, *gameRunner, error) {
	t, err := prepareTuning(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	name, err := runName(run)
	if err != nil {
		return nil, nil, nil, err
	}
	games, err := openRunner(ctx, co, workers, name, false, filepath.Join(run.Dir(), "broker"), stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	var data population.TexelData
	if cfg.Algo == population.Texel {
		if data, err = texelData(cfg, t); err != nil {
			return nil, nil, nil, err
		}
	}
	var tuner *population.Tuner
	if t.engine != nil {
		tuner, err = population.NewEngineTuner(cfg, t.game, *t.engine, t.ev, t.openings, t.start, games, run)
	} else {
		tuner, err = population.NewTuner(cfg, t.game, t.openings, t.start, games, run)
	}
	if err != nil {
		games.Close()
		return nil, nil, nil, usageError{err}
	}
	tuner.TexelData = data
	return tuner, t, games, nil
}

// texelData reads the games and positions a Texel run fits on besides its
// own: the finished games of the runs in texel-positions-from (of the same
// game) and the texel-positions file.
func texelData(cfg population.Config, t *tuning) (population.TexelData, error) {
	var d population.TexelData
	for _, dir := range cfg.TexelPositionsFrom {
		r, err := results.OpenReadOnly(dir)
		if err != nil {
			return d, usageError{fmt.Errorf("--positions-from: %w", err)}
		}
		other, err := population.ParseConfig(r.Config())
		if err == nil && other.Game != t.game.Name() {
			err = fmt.Errorf("%s is a run of %s, not %s", dir, other.Game, t.game.Name())
		}
		var recorded []population.GameResult
		if err == nil {
			recorded, err = r.LastGames(population.MaxPopulationGames * 4)
		}
		r.Close()
		if err != nil {
			return d, usageError{fmt.Errorf("--positions-from: %w", err)}
		}
		for i := len(recorded) - 1; i >= 0; i-- { // oldest first
			if recorded[i].Record.Outcome != games.Ongoing {
				d.Games = append(d.Games, recorded[i].Record)
			}
		}
	}
	if cfg.TexelPositions != "" {
		data, err := readUserFile(cfg.TexelPositions)
		if err != nil {
			return d, usageError{fmt.Errorf("--positions: %w", err)}
		}
		if d.Positions, err = population.ReadLabelledPositions(t.game, data); err != nil {
			return d, usageError{fmt.Errorf("%s: %w", cfg.TexelPositions, err)}
		}
	}
	return d, nil
}

// runTuning runs (or resumes) the tuning job of a run directory to its end.
// workers and co choose where the games are played (see openRunner).
func runTuning(ctx context.Context, to tuningOutput, cfg population.Config, run *results.Run, workers int, co clusterOptions) error {
	quiet := to.quiet
	out := to.stdout
	tuner, _, games, err := newRunTuner(ctx, cfg, run, workers, co, to.stderr)
	if err != nil {
		return err
	}
	defer games.Close()
	total := cfg.PlannedGenerations()
	info, err := run.Info()
	if err != nil {
		return err
	}
	start := now()
	tuner.Elapsed = func() time.Duration {
		return time.Duration(info.Seconds*float64(time.Second)) + time.Since(start)
	}
	played := 0
	progress := reports.NewProgress(to.stderr, quiet, 0)
	defer progress.Finish()
	stage, stageGen := "", -1
	tuner.OnGame = func(p population.Progress) {
		if p.Played {
			played++
		}
		if p.Stage != stage || p.Generation != stageGen {
			stage, stageGen = p.Stage, p.Generation
			label := fmt.Sprintf("%s %d/%d", stageName(cfg), p.Generation+1, total)
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
		line := fmt.Sprintf("%s %d/%d: best %d fitness %.3f (mean %.3f), diversity %.3f", stageName(cfg), g.Index+1, total, g.Best, g.BestFitness, g.MeanFitness, g.Diversity)
		if cfg.Algo == population.Knockout {
			line += fmt.Sprintf(", moved %.3f", g.Distance)
		}
		if y := g.Yardstick; y != nil {
			line += ", yardstick " + eloString(y.Elo, y.EloLow, y.EloHigh)
		}
		if g.Stop != "" && g.Stop != population.StopGenerations {
			line += ", stopped: " + g.Stop
		}
		line += fmt.Sprintf(", %.1f games/s", float64(played)/max(since(start), 1e-9))
		progress.Line(line)
		if err := run.RecordTime(); err != nil && !quiet {
			progress.Line("could not record the running time: " + err.Error())
		}
		if err := refreshReports(run.Dir()); err != nil && !quiet {
			progress.Line("could not refresh the plots: " + err.Error())
		}
	}
	if err := run.SetStatus(results.StatusRunning); err != nil {
		return err
	}
	res, err := tuner.Run(ctx)
	if !quiet {
		games.report(to.stderr)
	}
	err = brokerHint(err)
	if err != nil {
		status := results.StatusFailed
		if ctx.Err() != nil {
			status = results.StatusInterrupted
			fmt.Fprintf(to.stderr, "run interrupted; every finished game is saved. Continue with: tune resume %s\n", run.Dir())
		}
		if serr := run.SetStatus(status); serr != nil {
			return fmt.Errorf("%w (and recording the status: %w)", err, serr)
		}
		return err
	}
	if err := run.SetStatus(results.StatusDone); err != nil {
		return err
	}
	progress.Finish()
	if err := refreshReports(run.Dir()); err != nil {
		fmt.Fprintln(to.stderr, "could not draw the plots:", err)
	}
	hist, err := run.Generations()
	if err != nil {
		return err
	}
	choice, err := population.ChooseBest(tuner.Evaluator(), cfg, hist, res.Ladder)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d %ss, %d games (%s)\n", res.Generations, stageName(cfg), res.Spent, res.Stop)
	if res.Ladder != nil {
		printLadder(out, res.Ladder)
	}
	fmt.Fprintf(out, "best: %s\n", choice.Summary())
	for i, f := range tuner.Evaluator().Features {
		fmt.Fprintf(out, "  %-24s %g\n", f.Name, choice.Weights[i])
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
	switch cfg.Algo {
	case population.Knockout:
		return "round"
	case population.SPSA:
		return "block"
	case population.Texel:
		return "round"
	}
	return "generation"
}

// eloString writes an Elo difference with its 95% interval.
func eloString(elo, lo, hi float64) string {
	r := func(x float64) float64 { return math.Round(x) + 0 } // no "-0"
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]", r(elo), r(lo), r(hi))
}
