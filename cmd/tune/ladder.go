package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type ladderOptions struct {
	pairs   int
	workers int
	json    bool
	quiet   bool
}

func newLadderCommand(g *globalOptions) *cobra.Command {
	var o ladderOptions
	c := &cobra.Command{
		Use:   "ladder DIR [--pairs N] [--json]",
		Short: "Rate a run's champions, its start and the defaults in one pool (an Elo ladder)",
		Long: `ladder plays a round robin between the champion of every generation (evenly
spaced ones, at most 12, when there are more), the run's start weights and the
evaluator's defaults, on openings the run never used, and rates them by maximum
likelihood with draws (BayesElo's model), the defaults being 0 Elo, with 95%
intervals. The run keeps the ladder: show, export, runs and the report then name
its best genome, or the start (or the defaults) when no champion beats it with
95% confidence. tune run plays a ladder at its end (--ladder-pairs); this
command plays one for any run, again with another --pairs if you like. Its games
are stored, so an interrupted ladder resumes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.quiet = g.quiet
			return runLadder(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.pairs, "pairs", 0, fmt.Sprintf("colour-swapped pairs per pairing, 1-%d (0: the run's ladder-pairs, or about a tenth of its games)", population.MaxLadderPairs))
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type ladderJSON struct {
	Pairs   int               `json:"pairs"`
	DrawElo float64           `json:"draw_elo"`
	Entries []ladderEntryJSON `json:"entries"`
	Best    choiceJSON        `json:"best"`
}

type ladderEntryJSON struct {
	Label      string             `json:"label"`
	Genome     int                `json:"genome"`
	Generation int                `json:"generation"`
	Spent      int                `json:"games_spent"`
	Wins       int                `json:"wins"`
	Draws      int                `json:"draws"`
	Losses     int                `json:"losses"`
	Elo        jsonFloat          `json:"elo"`
	Low        jsonFloat          `json:"elo_low"`
	High       jsonFloat          `json:"elo_high"`
	Weights    map[string]float64 `json:"weights,omitempty"`
}

// choiceJSON is a run's best genome for scripts.
type choiceJSON struct {
	Label      string             `json:"label"`
	Genome     int                `json:"genome"`
	Generation int                `json:"generation"`
	Reference  string             `json:"reference"`
	Source     string             `json:"source"`
	Candidate  string             `json:"candidate,omitempty"`
	Elo        jsonFloat          `json:"elo_over_reference"`
	Low        jsonFloat          `json:"elo_over_reference_low"`
	High       jsonFloat          `json:"elo_over_reference_high"`
	Confident  bool               `json:"confident"`
	Summary    string             `json:"summary"`
	Weights    map[string]float64 `json:"weights"`
}

func choiceToJSON(c population.Choice, names []string) choiceJSON {
	w := map[string]float64{}
	for i, n := range names {
		w[n] = c.Weights[i]
	}
	return choiceJSON{c.Label, c.Genome, c.Generation, c.Reference, c.Source, c.Candidate,
		jsonFloat(c.Elo), jsonFloat(c.Low), jsonFloat(c.High), c.Confident, c.Summary(), w}
}

func runLadder(ctx context.Context, stdout, stderr io.Writer, dir string, o ladderOptions) error {
	if o.pairs < 0 || o.pairs > population.MaxLadderPairs {
		return usageError{fmt.Errorf("ladder: --pairs %d: want 1 to %d, or 0 for the run's own", o.pairs, population.MaxLadderPairs)}
	}
	workers := o.workers
	if _, err := checkWorkers(workers); err != nil {
		return err
	}
	run, cfg, err := openRun(dir)
	if err != nil {
		return err
	}
	defer run.Close()
	tuner, t, games, err := newRunTuner(ctx, cfg, run, workers, clusterOptions{}, stderr)
	if err != nil {
		return err
	}
	defer games.Close()
	hist, err := run.Generations()
	if err != nil {
		return err
	}
	if err := results.CheckWeights(hist, len(t.Evaluator().Features)); err != nil {
		return err
	}
	progress := reports.NewProgress(stderr, o.quiet, 0)
	defer progress.Finish()
	started := false
	tuner.OnGame = func(p population.Progress) {
		if !started {
			progress.Start("ladder", p.Total)
			started = true
		}
		progress.Set(p.Done)
	}
	pairs := o.pairs
	if pairs == 0 {
		pairs = cfg.LadderPairs
	}
	l, err := tuner.Ladder(ctx, hist, pairs)
	if errors.Is(err, population.ErrLadderTooShort) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if err := run.RecordLadder(*l); err != nil {
		return err
	}
	progress.Finish()
	if err := refreshReports(dir); err != nil {
		fmt.Fprintln(stderr, "could not refresh the report:", err)
	}
	choice, err := population.ChooseBest(t.Evaluator(), cfg, hist, l)
	if err != nil {
		return err
	}
	names := featureNames(t.Evaluator().Features)
	if o.json {
		return writeJSON(stdout, ladderToJSON(l, choice, names))
	}
	printLadder(stdout, l)
	fmt.Fprintf(stdout, "best: %s\n", choice.Summary())
	return nil
}

func ladderToJSON(l *population.Ladder, choice population.Choice, names []string) ladderJSON {
	j := ladderJSON{Pairs: l.Pairs, DrawElo: l.DrawElo, Best: choiceToJSON(choice, names)}
	for _, e := range l.Entries {
		w := map[string]float64{}
		for i, n := range names {
			w[n] = e.Weights[i]
		}
		j.Entries = append(j.Entries, ladderEntryJSON{e.Label, e.Genome, e.Generation, e.Spent, e.Wins, e.Draws, e.Losses,
			jsonFloat(e.Elo), jsonFloat(e.Low), jsonFloat(e.High), w})
	}
	return j
}

// printLadder writes a ladder as a table, in the order of the run.
func printLadder(w io.Writer, l *population.Ladder) {
	fmt.Fprintf(w, "ladder (%d pairs per pairing, the defaults = 0):\n", l.Pairs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  player\tgames spent\tW-D-L\tElo [95%]\t")
	for i, e := range l.Entries {
		mark := ""
		switch i {
		case l.Best:
			mark = "strongest"
		case l.Reference:
			mark = "reference"
		}
		if i == l.Best && i == l.Reference {
			mark = "strongest, reference"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d-%d-%d\t%s\t%s\n", e.Label, e.Spent, e.Wins, e.Draws, e.Losses, eloString(e.Elo, e.Low, e.High), mark)
	}
	tw.Flush()
}

func featureNames(fs []games.Feature) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}
