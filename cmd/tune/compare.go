package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/spf13/cobra"
)

type compareOptions struct {
	game, evaluator, start, algos, out, openings string
	budget, workers, depth, pairs, champions     int
	seed                                         uint64
	json, quiet                                  bool
	cluster                                      clusterOptions
}

// allAlgos are the tuners tune compare knows, in its default order.
var allAlgos = []population.Algo{population.Genetic, population.Knockout, population.SPSA, population.CMAES, population.Texel}

func newCompareCommand(g *globalOptions) *cobra.Command {
	o := compareOptions{}
	c := &cobra.Command{
		Use:   "compare --game G --budget-games N --out DIR [flags]",
		Short: "Run several tuners from the same start on the same budget, then rate their champions in one ladder",
		Long: `compare runs each tuner of --algos (genetic, knockout, spsa, cmaes, texel) from
the same start, seed and games budget, each in its own run directory DIR/<algo>
(its defaults, stopped by the budget); then rates the champions of every run
(up to --champions each, evenly spaced, the last always) with the start and the
defaults in one ladder (DIR/ladder), prints a table of the Elo each tuner gained
over the start and draws Elo against games spent, one curve per tuner
(DIR/compare.png and .svg).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.quiet = g.quiet
			return runCompare(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), o)
		},
	}
	f := c.Flags()
	o.cluster.bind(f)
	f.StringVar(&o.game, "game", "", "game to tune")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator to tune (default: the game's first)")
	f.StringVar(&o.start, "start", "default", "weights file to start from, 'default', or 'random' (one vector drawn from the seed, the same for every tuner)")
	f.IntVar(&o.budget, "budget-games", 0, "games budget of each tuner")
	f.StringVar(&o.algos, "algos", "genetic,knockout,spsa,cmaes,texel", "tuners to compare, comma-separated")
	f.StringVar(&o.out, "out", "", "directory to create for the runs and the comparison")
	f.StringVar(&o.openings, "openings", "random:8", "openings of every run (random:N or a file)")
	f.IntVar(&o.depth, "depth", 4, "search depth of every game")
	f.Uint64Var(&o.seed, "seed", 1, "seed of every run")
	f.IntVar(&o.pairs, "pairs", 0, "pairs per pairing of the final ladder (0: about a tenth of the games spent)")
	f.IntVar(&o.champions, "champions", 4, "champions of each run in the final ladder")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.BoolVar(&o.json, "json", false, "print the table as JSON")
	return c
}

// compareRow is one tuner's line of the comparison.
type compareRow struct {
	Algo     string    `json:"algo"`
	Champion string    `json:"champion"`
	Elo      jsonFloat `json:"elo"` // over the start
	Low      jsonFloat `json:"low"`
	High     jsonFloat `json:"high"`
	Games    int       `json:"games"`
	Seconds  float64   `json:"seconds"`
}

// compareConfig is a tuner's config in a comparison: its defaults, the
// shared settings, and plans long enough for the budget to end the run.
func compareConfig(o compareOptions, algo population.Algo) population.Config {
	cfg := population.Defaults()
	cfg.Game, cfg.Evaluator, cfg.Start, cfg.Seed, cfg.Depth, cfg.Openings = o.game, o.evaluator, o.start, o.seed, o.depth, o.openings
	cfg.Algo, cfg.BudgetGames, cfg.LadderPairs = algo, o.budget, -1
	cfg.Generations, cfg.Rounds, cfg.CMAESGenerations = population.MaxGenerations, population.MaxRounds, population.MaxGenerations
	cfg.SPSAIterations = max(1, o.budget/2)
	cfg.SPSABlock = min(cfg.SPSABlock, cfg.SPSAIterations)
	cfg.TexelRounds, cfg.TexelGames = 4, max(1, o.budget/5)
	return cfg
}

func runCompare(ctx context.Context, stdout, stderr io.Writer, o compareOptions) error {
	if o.out == "" || o.game == "" {
		return usageError{errors.New("compare: --game and --out DIR are required")}
	}
	if o.budget <= 0 {
		return usageError{fmt.Errorf("compare: --budget-games %d: want a positive number of games per tuner", o.budget)}
	}
	if o.champions < 1 || o.champions > population.MaxLadderChampions {
		return usageError{fmt.Errorf("compare: --champions %d: 1 to %d", o.champions, population.MaxLadderChampions)}
	}
	var algos []population.Algo
	for _, a := range strings.Split(o.algos, ",") {
		a := population.Algo(strings.TrimSpace(a))
		if !slices.Contains(allAlgos, a) {
			return usageError{fmt.Errorf("compare: unknown algo %q in --algos (genetic, knockout, spsa, cmaes, texel)", a)}
		}
		if slices.Contains(algos, a) {
			return usageError{fmt.Errorf("compare: %q twice in --algos", a)}
		}
		algos = append(algos, a)
	}
	workers := o.workers
	if !o.cluster.enabled() {
		if _, err := checkWorkers(workers); err != nil {
			return err
		}
	}
	for _, a := range algos {
		if err := compareConfig(o, a).Validate(); err != nil {
			return usageError{fmt.Errorf("compare: %s: %w", a, err)}
		}
	}
	if err := os.Mkdir(o.out, 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			return usageError{fmt.Errorf("compare: %s exists already (choose a new --out)", o.out)}
		}
		return err
	}
	to := tuningOutput{io.Discard, stderr, o.quiet}
	var rows []compareRow
	var entries []population.LadderEntry
	var curves [][]int // each tuner's entries
	var last population.Config
	for ai, a := range algos {
		cfg := compareConfig(o, a)
		dir := filepath.Join(o.out, string(a))
		if !o.quiet {
			fmt.Fprintf(stderr, "compare: %s (%s)\n", a, dir)
		}
		if err := createAndRun(ctx, to, cfg, dir, workers, o.cluster); err != nil {
			return fmt.Errorf("compare: %s: %w", a, err)
		}
		run, err := results.OpenReadOnly(dir)
		if err != nil {
			return err
		}
		hist, err := run.Generations()
		info, ierr := run.Info()
		recorded, cerr := population.ParseConfig(run.Config())
		run.Close()
		if err = errors.Join(err, ierr, cerr); err != nil {
			return err
		}
		last = recorded
		rows = append(rows, compareRow{Algo: string(a), Games: hist[len(hist)-1].Spent, Seconds: info.Seconds})
		// Up to o.champions champions, evenly spaced, the last always.
		var mine []int
		n := len(hist)
		for k := 0; k < min(o.champions, n); k++ {
			i := n - 1
			if o.champions > 1 && n > 1 {
				i = (n - 1) * (k + 1) / min(o.champions, n)
			}
			if len(mine) > 0 && entries[mine[len(mine)-1]].Generation == hist[i].Index {
				continue
			}
			for _, x := range hist[i].Genomes {
				if x.ID == hist[i].Best {
					entries = append(entries, population.LadderEntry{Label: fmt.Sprintf("%s:g%d", a, hist[i].Index),
						Genome: (ai+1)*1_000_000_000 + x.ID, Generation: hist[i].Index, Spent: hist[i].Spent, Weights: x.Weights})
					mine = append(mine, len(entries)-1)
				}
			}
		}
		curves = append(curves, mine)
	}
	// The ladder: the defaults, the start when it differs, every champion.
	lcfg := last
	lcfg.Algo, lcfg.LadderPairs = population.Genetic, 0
	prep, err := prepareTuning(ctx, lcfg)
	if err != nil {
		return err
	}
	def := prep.ev.Defaults()
	players := []population.LadderEntry{{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: def}}
	if prep.start != nil && !slices.Equal(prep.start, def) {
		players = append(players, population.LadderEntry{Label: "start", Genome: population.StartID, Generation: -1, Weights: prep.start})
	}
	offset := len(players)
	players = append(players, entries...)
	ladderRun, err := results.Create(filepath.Join(o.out, "ladder"), lcfg.Marshal(), lcfg.Game, "compare", lcfg.Seed, version)
	if err != nil {
		return err
	}
	defer ladderRun.Close()
	pool, err := tournament.NewPool(workers, poolTableMiB)
	if err != nil {
		return usageError{err}
	}
	tuner, err := population.NewTuner(lcfg, prep.game, prep.openings, prep.start, pool, ladderRun)
	if err != nil {
		return err
	}
	pairs := o.pairs
	if pairs <= 0 {
		spent := 0
		for _, r := range rows {
			spent += r.Games
		}
		pairs = population.AutoLadderPairs(len(players), spent)
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "compare: ladder of %d players, %d pairs per pairing\n", len(players), pairs)
	}
	l, err := tuner.RateEntries(ctx, players, pairs)
	if err != nil {
		return err
	}
	if err := ladderRun.RecordLadder(*l); err != nil {
		return err
	}
	ref := l.Entries[l.Reference]
	var figCurves []reports.CompareCurve
	for i, mine := range curves {
		c := reports.CompareCurve{Name: rows[i].Algo}
		for _, k := range mine {
			c.Points = append(c.Points, l.Entries[offset+k])
		}
		if len(mine) > 0 {
			e := l.Entries[offset+mine[len(mine)-1]]
			rows[i].Champion = e.Label
			rows[i].Elo = jsonFloat(e.Elo - ref.Elo)
			rows[i].Low, rows[i].High = jsonFloat(e.Low-ref.Elo), jsonFloat(e.High-ref.Elo)
		}
		figCurves = append(figCurves, c)
	}
	fig := reports.Comparison(figCurves, ref.Elo)
	for _, format := range []string{"png", "svg"} {
		data, err := map[string]func() ([]byte, error){"png": fig.PNG, "svg": fig.SVG}[format]()
		if err != nil {
			return err
		}
		if err := results.WriteFileAtomic(filepath.Join(o.out, "compare."+format), data, false); err != nil {
			return err
		}
	}
	var table bytes.Buffer
	printLadder(&table, l)
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tuner\tlast champion\tElo over the %s [95%%]\tgames\ttime\t\n", ref.Label)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.0f s\t\n", r.Algo, r.Champion, eloString(float64(r.Elo), float64(r.Low), float64(r.High)), r.Games, r.Seconds)
	}
	tw.Flush()
	if err := results.WriteFileAtomic(filepath.Join(o.out, "compare.txt"), table.Bytes(), false); err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	_, err = stdout.Write(table.Bytes())
	fmt.Fprintf(stdout, "plot: %s\n", filepath.Join(o.out, "compare.png"))
	return err
}
