package main

import (
	"fmt"
	"math"
	"text/tabwriter"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/spf13/cobra"
)

type showOptions struct {
	json bool
}

func newShowCommand(g *globalOptions) *cobra.Command {
	var o showOptions
	c := &cobra.Command{
		Use:   "show DIR",
		Short: "Summarise a run: status, progress, the best with its evidence, the ladder, the yardstick per generation",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runShow(c, args[0], o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

// progressOf writes "generations done/planned".
func progressOf(r *results.Run, in results.Info) string {
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return fmt.Sprint(in.Generations)
	}
	return fmt.Sprintf("%d/%d", in.Generations, cfg.PlannedGenerations())
}

type showJSON struct {
	results.Info
	Progress   string             `json:"progress"`
	Evaluator  string             `json:"evaluator"`
	Best       map[string]float64 `json:"best_weights,omitempty"`
	BestGenome int                `json:"best_genome"`
	Choice     *choiceJSON        `json:"best,omitempty"`
	Ladder     *ladderJSON        `json:"ladder,omitempty"`
	Spent      int                `json:"games_spent"`
	// The cost of the gain: games and seconds per Elo of the best over the
	// reference; null when tuning has not shown a gain.
	GamesPerElo   jsonFloat  `json:"games_per_elo"`
	SecondsPerElo jsonFloat  `json:"seconds_per_elo"`
	Yardstick     []yardJSON `json:"yardstick"`
}

type yardJSON struct {
	Generation int       `json:"generation"`
	Genome     int       `json:"genome"`
	Wins       int       `json:"wins"`
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Elo        jsonFloat `json:"elo"`
	Low        jsonFloat `json:"elo_low"`
	High       jsonFloat `json:"elo_high"`
	Previous   int       `json:"previous_champion"`
	PrevWins   int       `json:"previous_wins"`
	PrevDraws  int       `json:"previous_draws"`
	PrevLosses int       `json:"previous_losses"`
}

func runShow(c *cobra.Command, dir string, o showOptions) error {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return usageError{err}
	}
	defer r.Close()
	in, err := r.Info()
	if err != nil {
		return err
	}
	cfg, err := population.ParseConfig(r.Config())
	if err != nil {
		return err
	}
	hist, err := r.Generations()
	if err != nil {
		return err
	}
	s := showJSON{Info: in, Progress: progressOf(r, in), BestGenome: -1}
	var ev *games.Evaluator
	if g, err := findGame(cfg.Game); err == nil {
		if ev, err = cfg.TunedEvaluator(g); err == nil {
			s.Evaluator = ev.Name
		}
	}
	if ev != nil {
		if err := results.CheckWeights(hist, len(ev.Features)); err != nil {
			return err
		}
	}
	var choice population.Choice
	var ladder *population.Ladder
	s.GamesPerElo, s.SecondsPerElo = jsonFloat(math.NaN()), jsonFloat(math.NaN())
	if ev != nil && len(hist) > 0 {
		if choice, ladder, err = runBest(r, cfg, ev, hist); err != nil {
			return err
		}
		names := featureNames(ev.Features)
		cj := choiceToJSON(choice, names)
		s.Choice, s.Best, s.BestGenome = &cj, cj.Weights, choice.Genome
		if ladder != nil {
			lj := ladderToJSON(ladder, choice, names)
			s.Ladder = &lj
		}
		s.Spent = hist[len(hist)-1].Spent
		if choice.Confident && choice.Elo > 0 {
			s.GamesPerElo = jsonFloat(float64(s.Spent) / choice.Elo)
			s.SecondsPerElo = jsonFloat(in.Seconds / choice.Elo)
		}
	}
	for _, g := range hist {
		if y := g.Yardstick; y != nil {
			s.Yardstick = append(s.Yardstick, yardJSON{g.Index, y.Genome, y.Wins, y.Draws, y.Losses, jsonFloat(y.Elo), jsonFloat(y.EloLow), jsonFloat(y.EloHigh),
				y.Previous, y.VsPrevious.Wins, y.VsPrevious.Draws, y.VsPrevious.Losses})
		}
	}
	out := c.OutOrStdout()
	if o.json {
		return writeJSON(out, s)
	}
	fmt.Fprintf(out, "run %s: %s %s, evaluator %s, seed %d\n", dir, in.Game, in.Algo, s.Evaluator, in.Seed)
	fmt.Fprintf(out, "status %s, progress %s, %d games, %.1f s running", in.Status, s.Progress, in.Games, in.Seconds)
	if in.Seconds > 0 {
		fmt.Fprintf(out, " (%.1f games/s)", float64(in.Games)/in.Seconds)
	}
	fmt.Fprintln(out)
	if s.Choice != nil {
		fmt.Fprintf(out, "best: %s\n", choice.Summary())
		if choice.Confident && choice.Elo > 0 {
			fmt.Fprintf(out, "cost of the gain: %.0f games and %.1f s per Elo (%d games, %.0f s)\n", float64(s.GamesPerElo), float64(s.SecondsPerElo), s.Spent, in.Seconds)
		}
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  feature\tweight\trange\tdefault")
		for _, f := range ev.Features {
			fmt.Fprintf(tw, "  %s\t%g\t[%g, %g]\t%g\n", f.Name, s.Best[f.Name], f.Min, f.Max, f.Default)
		}
		tw.Flush()
	}
	if ladder != nil {
		printLadder(out, ladder)
	}
	if len(s.Yardstick) > 0 {
		fmt.Fprintln(out, "yardstick (each champion against the defaults and the previous champion; rating from every yardstick game, the defaults = 0):")
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  generation\tgenome\tgames spent\tvs defaults\tvs previous\trating [95%]")
		for _, y := range hist {
			if y.Yardstick != nil {
				x := y.Yardstick
				prev := "-"
				if x.Previous != population.NoGenome {
					prev = fmt.Sprintf("%d-%d-%d (genome %d)", x.VsPrevious.Wins, x.VsPrevious.Draws, x.VsPrevious.Losses, x.Previous)
				}
				fmt.Fprintf(tw, "  %d\t%d\t%d\t%d-%d-%d\t%s\t%s\n", y.Index, x.Genome, y.Spent, x.Wins, x.Draws, x.Losses, prev, eloString(x.Elo, x.EloLow, x.EloHigh))
			}
		}
		tw.Flush()
	}
	return nil
}
