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

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
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
			c.Flags().Visit(func(f *pflag.Flag) {
				if _, ok := o.flags.apply[f.Name]; ok {
					o.set = append(o.set, f.Name)
				}
			})
			return runRun(c.Context(), o, *g, outputOf(c))
		},
	}
	f := c.Flags()
	f.StringVar(&o.out, "out", "", "run directory to create (must not exist)")
	f.StringVar(&o.config, "config", "", "YAML config file (keys are the flag names)")
	f.StringVar(&o.preset, "preset", "", "start from a preset: "+strings.Join(population.PresetNames(), ", "))
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	o.cluster.bind(f)
	bindCommonFlags(f, &o.flags)
	bindGeneticFlags(f, &o.flags)
	bindFitFlags(f, &o.flags)
	return c
}

// conf is the config its flags set.
type conf = population.Config

// bindCommonFlags binds the flags of the settings every tuner has.
func bindCommonFlags(f *pflag.FlagSet, cf *configFlags) {
	f.Var(algoValue{&cf.values.Algo}, "algo", "genetic, knockout, spsa, cmaes or texel")
	cf.apply["algo"] = func(dst *population.Config) { dst.Algo = cf.values.Algo }
	configFlag(cf, f.StringVar, "game", "game to tune (see 'tune games')", func(c *conf) *string { return &c.Game })
	configFlag(cf, f.StringVar, "evaluator", "evaluator to tune (default: the game's first)", func(c *conf) *string { return &c.Evaluator })
	configFlag(cf, f.Uint64Var, "seed", "run seed: the same seed and config give the same run", func(c *conf) *uint64 { return &c.Seed })
	configFlag(cf, f.IntVar, "depth", fmt.Sprintf("search depth of every game, 1-%d", engine.MaxDepth), func(c *conf) *int { return &c.Depth })
	configFlag(cf, f.Int64Var, "nodes", "node limit per move (instead of or with --depth)", func(c *conf) *int64 { return &c.Nodes })
	configFlag(cf, f.StringVar, "openings", "openings: random:N (N random plies, balanced), a file of positions, or 'start'", func(c *conf) *string { return &c.Openings })
	configFlag(cf, f.IntVar, "max-plies", "ply cap of a game, drawn when reached (0: 400)", func(c *conf) *int { return &c.MaxPlies })
	configFlag(cf, f.StringVar, "start", "weights file to start from, 'default' for the evaluator's defaults, or 'random' for one weight vector drawn from the seed (none: a random population for genetic, zeros for knockout, the defaults for spsa, cmaes and texel)", func(c *conf) *string { return &c.Start })
	configFlag(cf, f.IntVar, "ladder-pairs", "pairs per pairing of the ladder played at the end (0: about a tenth of the run's games; -1: no ladder)", func(c *conf) *int { return &c.LadderPairs })
	configFlag(cf, f.IntVar, "budget-games", "end the run at the first generation boundary after this many games (0: no budget)", func(c *conf) *int { return &c.BudgetGames })
	configFlag(cf, f.StringVar, "budget-time", "end the run at the first generation boundary after this much time, e.g. 8h or 90m (none: no budget)", func(c *conf) *string { return &c.BudgetTime })
	configFlag(cf, f.IntVar, "yardstick-pairs", "pairs of games of the best genome against the default weights", func(c *conf) *int { return &c.YardstickPairs })
	configFlag(cf, f.IntVar, "yardstick-every", "measure the yardstick every g generations", func(c *conf) *int { return &c.YardstickEvery })
}

// bindGeneticFlags binds the flags of the genetic and knockout tuners.
func bindGeneticFlags(f *pflag.FlagSet, cf *configFlags) {
	configFlag(cf, f.IntVar, "population", fmt.Sprintf("genetic: genomes per generation, 2-%d", population.MaxPopulation), func(c *conf) *int { return &c.Population })
	configFlag(cf, f.IntVar, "generations", "genetic: generations", func(c *conf) *int { return &c.Generations })
	configFlag(cf, f.IntVar, "games", "genetic: opponents each genome meets (a colour-swapped pair each)", func(c *conf) *int { return &c.Games })
	configFlag(cf, f.StringVar, "fitness", "genetic: score (points per game) or exp (2^wins/games)", func(c *conf) *string { return &c.Fitness })
	configFlag(cf, f.StringVar, "selection", "genetic: roulette, sus or tournament", func(c *conf) *string { return &c.Selection })
	configFlag(cf, f.IntVar, "tournament-size", "genetic: genomes per selection tournament", func(c *conf) *int { return &c.TournamentSize })
	configFlag(cf, f.StringVar, "crossover", "genetic: uniform, blend or none", func(c *conf) *string { return &c.Crossover })
	configFlag(cf, f.Float64Var, "redraw", "genetic: probability that a child's weights are all re-drawn (the report's mutation)", func(c *conf) *float64 { return &c.Redraw })
	configFlag(cf, f.Float64Var, "mutation-rate", "genetic: probability of a Gaussian step per weight", func(c *conf) *float64 { return &c.MutationRate })
	configFlag(cf, f.Float64Var, "sigma", "genetic: Gaussian step as a fraction of the weight's range", func(c *conf) *float64 { return &c.Sigma })
	configFlag(cf, f.IntVar, "elite", "genetic: best genomes kept unchanged", func(c *conf) *int { return &c.Elite })
	configFlag(cf, f.Float64Var, "converge", "genetic: stop when diversity falls below this (0: never)", func(c *conf) *float64 { return &c.Converge })
	configFlag(cf, f.IntVar, "candidates", fmt.Sprintf("knockout: candidates per round, 2-%d", population.MaxCandidates), func(c *conf) *int { return &c.Candidates })
	configFlag(cf, f.IntVar, "rounds", "knockout: rounds at most", func(c *conf) *int { return &c.Rounds })
	configFlag(cf, f.IntVar, "best-of", "knockout: games per match", func(c *conf) *int { return &c.BestOf })
	configFlag(cf, f.StringVar, "ties", "knockout: random or extra (extra pairs until one leads)", func(c *conf) *string { return &c.Ties })
	configFlag(cf, f.Float64Var, "scale", "knockout: scale of the ten-draw step around the winner", func(c *conf) *float64 { return &c.Scale })
	configFlag(cf, f.IntVar, "window", "knockout: rounds of small moves that mean convergence", func(c *conf) *int { return &c.Window })
	configFlag(cf, f.Float64Var, "threshold", "knockout: distance below which a move is small", func(c *conf) *float64 { return &c.Threshold })
}

// bindFitFlags binds the flags of CMA-ES, Texel, SPSA and engine tuning.
func bindFitFlags(f *pflag.FlagSet, cf *configFlags) {
	configFlag(cf, f.IntVar, "cmaes-generations", "cmaes: generations", func(c *conf) *int { return &c.CMAESGenerations })
	configFlag(cf, f.IntVar, "cmaes-population", "cmaes: candidates per generation (0: gonum's default, 4 + 3 ln n)", func(c *conf) *int { return &c.CMAESPopulation })
	configFlag(cf, f.IntVar, "cmaes-pairs", "cmaes: colour-swapped pairs of each candidate against the mean", func(c *conf) *int { return &c.CMAESPairs })
	configFlag(cf, f.Float64Var, "cmaes-sigma", "cmaes: initial step as a fraction of each range", func(c *conf) *float64 { return &c.CMAESSigma })
	configFlag(cf, f.IntVar, "texel-rounds", "texel: rounds of self-play games then a fit", func(c *conf) *int { return &c.TexelRounds })
	configFlag(cf, f.IntVar, "texel-games", "texel: self-play games per round, counted against the budget", func(c *conf) *int { return &c.TexelGames })
	configFlag(cf, f.StringSliceVar, "positions-from", "texel: also fit on the games of this run directory (repeatable)", func(c *conf) *[]string { return &c.TexelPositionsFrom })
	configFlag(cf, f.StringVar, "positions", "texel: also fit on this file of positions with results: 'POSITION | 1-0' lines, or EPD with c9 \"1-0\"", func(c *conf) *string { return &c.TexelPositions })
	configFlag(cf, f.IntVar, "texel-opening-plies", "texel: random plies after the opening of each self-play game", func(c *conf) *int { return &c.TexelOpeningPlies })
	configFlag(cf, f.IntVar, "spsa-iterations", fmt.Sprintf("spsa: iterations N (one colour-swapped pair each), 1-%d", population.MaxSPSAIterations), func(c *conf) *int { return &c.SPSAIterations })
	configFlag(cf, f.IntVar, "spsa-block", "spsa: iterations per generation, played in parallel from the same theta", func(c *conf) *int { return &c.SPSABlock })
	configFlag(cf, f.Float64Var, "spsa-a-ratio", "spsa: A as a fraction of the iterations (fishtest: 0.1)", func(c *conf) *float64 { return &c.SPSAARatio })
	configFlag(cf, f.Float64Var, "spsa-alpha", "spsa: decay exponent of a_k (fishtest: 0.602)", func(c *conf) *float64 { return &c.SPSAAlpha })
	configFlag(cf, f.Float64Var, "spsa-gamma", "spsa: decay exponent of c_k (fishtest: 0.101)", func(c *conf) *float64 { return &c.SPSAGamma })
	configFlag(cf, f.Float64Var, "spsa-c-end", "spsa: c_end of every feature as a fraction of its range, without --spsa-params", func(c *conf) *float64 { return &c.SPSACEnd })
	configFlag(cf, f.Float64Var, "spsa-r-end", "spsa: r_end of every feature, without --spsa-params", func(c *conf) *float64 { return &c.SPSAREnd })
	configFlag(cf, f.StringVar, "tune-engine", "tune this external engine's own options instead of an evaluator: cmd=PATH,proto=uci,... (see 'tune match --help'); needs --params", func(c *conf) *string { return &c.TuneEngine })
	configFlag(cf, f.StringVar, "params", "with --tune-engine: file of lines 'name, int|float, start, min, max, c_end, r_end', one per engine option to tune", func(c *conf) *string { return &c.EngineParams })
	configFlag(cf, f.StringVar, "spsa-params", "spsa: file of parameter lines 'name, int|float, start, min, max, c_end, r_end' (the features to tune)", func(c *conf) *string { return &c.SPSAParams })
}

// resolveConfig builds the run's config: defaults, preset, file, then the
// flags the user set. Resolve validates it.
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
	return cfg, nil
}

func runRun(ctx context.Context, o runOptions, gopts globalOptions, out output) error {
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
	plan, err := resolvePlan(ctx, cfg)
	if err != nil {
		return err
	}
	return createAndRun(ctx, tuningOutput{out.Stdout, out.Stderr, gopts.quiet}, plan, o.out, o.workers, o.cluster)
}

// resolvePlan validates cfg and reads what it names (population.Resolve).
func resolvePlan(ctx context.Context, cfg population.Config) (*population.Plan, error) {
	plan, err := population.Resolve(ctx, cfg, runSources{})
	if err != nil {
		return nil, usageError{err}
	}
	return plan, nil
}

// runSources is where a plan reads what its config names.
type runSources struct{}

func (runSources) Game(name string) (games.Game, error) { return findGame(name) }
func (runSources) ReadFile(path string) ([]byte, error) { return readUserFile(path) }

func (runSources) RunGames(dir string, n int) (string, []population.GameResult, error) {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return "", nil, err
	}
	recent, err := r.LastGames(n)
	return cfg.Game, recent, err
}

// createAndRun creates the run directory dir for plan and runs it to its
// end, its games played by workers here and, with co, through a broker.
func createAndRun(ctx context.Context, to tuningOutput, plan *population.Plan, dir string, workers int, co clusterOptions) error {
	if err := plan.CheckEngine(ctx); err != nil {
		if errors.Is(err, external.ErrSpec) {
			return usageError{err}
		}
		return err
	}
	cfg := plan.Config()
	run, err := results.Create(dir, cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, version)
	if errors.Is(err, results.ErrExists) {
		return usageError{fmt.Errorf("%w (choose a new --out, or continue it with 'tune resume %s')", err, dir)}
	}
	if err != nil {
		return err
	}
	defer run.Close()
	if err := saveClusterOptions(run.Dir(), co); err != nil {
		return err
	}
	return runTuning(ctx, to, plan, run, workers, co)
}

// tuningOutput is where a tuning job reports: results on stdout, progress
// and notes on stderr (none of the chatter when quiet).
type tuningOutput struct {
	stdout, stderr io.Writer
	quiet          bool
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

// eloString writes an Elo difference with its 95% interval.
func eloString(elo, lo, hi float64) string {
	r := func(x float64) float64 { return math.Round(x) + 0 } // no "-0"
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]", r(elo), r(lo), r(hi))
}
