package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type showOptions struct {
	dir  string
	json bool
}

func newShowCommand(g *globalOptions) *cobra.Command {
	var o showOptions
	c := &cobra.Command{
		Use:   "show DIR",
		Short: "Summarise a run: status, progress, the best with its evidence, the ladder, the yardstick per generation",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.dir = args[0]
			return runShow(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

// viewRun reads a run to show it (results.ReadView): a directory that
// holds no run is the user's mistake.
func viewRun(dir string) (*results.View, error) {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return nil, usageError{err}
	}
	defer r.Close()
	return results.ReadView(r)
}

func runShow(ctx context.Context, o showOptions, gopts globalOptions, out output) error {
	v, err := viewRun(o.dir)
	if err != nil {
		return err
	}
	s := v.JSON()
	if o.json {
		return writeJSON(out.Stdout, s)
	}
	w, in := out.Stdout, v.Info
	fmt.Fprintf(w, "run %s: %s %s, evaluator %s, seed %d\n", o.dir, in.Game, in.Algo, s.Evaluator, in.Seed)
	fmt.Fprintf(w, "status %s, progress %s, %d games, %.1f s running", in.Status, s.Progress, in.Games, in.Seconds)
	if in.Seconds > 0 {
		fmt.Fprintf(w, " (%.1f games/s)", float64(in.Games)/in.Seconds)
	}
	fmt.Fprintln(w)
	if s.Best != nil {
		printBest(w, v.Best, s)
	}
	if v.Ladder != nil {
		printLadder(w, v.Ladder)
	}
	printYardstick(w, v.Generations)
	return nil
}

// printBest writes the best genome, what its gain cost, and its weights.
func printBest(w io.Writer, c population.Choice, s results.RunJSON) {
	fmt.Fprintf(w, "best: %s\n", c.Summary())
	if c.Confident && c.Elo > 0 {
		fmt.Fprintf(w, "cost of the gain: %.0f games and %.1f s per Elo (%d games, %.0f s)\n", float64(s.GamesPerElo), float64(s.SecondsPerElo), s.Spent, s.Seconds)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  feature\tweight\trange\tdefault")
	for _, x := range s.Weights {
		fmt.Fprintf(tw, "  %s\t%g\t[%g, %g]\t%g\n", x.Name, x.Value, x.Min, x.Max, x.Default)
	}
	tw.Flush()
}

// printYardstick writes each generation's yardstick match, if any.
func printYardstick(w io.Writer, hist []population.Generation) {
	var tw *tabwriter.Writer
	for _, g := range hist {
		y := g.Yardstick
		if y == nil {
			continue
		}
		if tw == nil {
			fmt.Fprintln(w, "yardstick (each champion against the defaults and the previous champion; rating from every yardstick game, the defaults = 0):")
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  generation\tgenome\tgames spent\tvs defaults\tvs previous\trating [95%]")
		}
		prev := "-"
		if y.Previous != population.NoGenome {
			prev = fmt.Sprintf("%d-%d-%d (genome %d)", y.VsPrevious.Wins, y.VsPrevious.Draws, y.VsPrevious.Losses, y.Previous)
		}
		fmt.Fprintf(tw, "  %d\t%d\t%d\t%d-%d-%d\t%s\t%s\n", g.Index, y.Genome, g.Spent, y.Wins, y.Draws, y.Losses, prev, eloString(y.Elo, y.EloLow, y.EloHigh))
	}
	if tw != nil {
		tw.Flush()
	}
}
