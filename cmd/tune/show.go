package main

import (
	"fmt"
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
		Short: "Summarise a run: status, progress, best weights, yardstick per generation",
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
	total := cfg.Generations
	if cfg.Algo == "knockout" {
		total = cfg.Rounds
	}
	return fmt.Sprintf("%d/%d", in.Generations, total)
}

type showJSON struct {
	results.Info
	Progress   string             `json:"progress"`
	Evaluator  string             `json:"evaluator"`
	Best       map[string]float64 `json:"best_weights,omitempty"`
	BestGenome int                `json:"best_genome"`
	Yardstick  []yardJSON         `json:"yardstick"`
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
		if ev, err = games.FindEvaluator(g, cfg.Evaluator); err == nil {
			s.Evaluator = ev.Name
		}
	}
	if ev != nil {
		if err := results.CheckWeights(hist, len(ev.Features)); err != nil {
			return err
		}
	}
	if best, _, err := results.Best(hist, -1); err == nil && ev != nil {
		s.BestGenome = best.ID
		s.Best = map[string]float64{}
		for i, f := range ev.Features {
			s.Best[f.Name] = best.Weights[i]
		}
	}
	for _, g := range hist {
		if y := g.Yardstick; y != nil {
			s.Yardstick = append(s.Yardstick, yardJSON{g.Index, y.Genome, y.Wins, y.Draws, y.Losses, jsonFloat(y.Elo), jsonFloat(y.EloLow), jsonFloat(y.EloHigh)})
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
	if s.Best != nil && ev != nil {
		fmt.Fprintf(out, "best genome %d:\n", s.BestGenome)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  feature\tweight\trange\tdefault")
		for _, f := range ev.Features {
			fmt.Fprintf(tw, "  %s\t%g\t[%g, %g]\t%g\n", f.Name, s.Best[f.Name], f.Min, f.Max, f.Default)
		}
		tw.Flush()
	}
	if len(s.Yardstick) > 0 {
		fmt.Fprintln(out, "against the default weights:")
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  generation\tgenome\tW-D-L\tElo [95%]")
		for _, y := range hist {
			if y.Yardstick != nil {
				x := y.Yardstick
				fmt.Fprintf(tw, "  %d\t%d\t%d-%d-%d\t%s\n", y.Index, x.Genome, x.Wins, x.Draws, x.Losses, eloString(x.Elo, x.EloLow, x.EloHigh))
			}
		}
		tw.Flush()
	}
	return nil
}
