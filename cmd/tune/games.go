package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/gametune/gametune/games/all"
	"github.com/spf13/cobra"
)

type gamesOptions struct {
	json bool
}

func newGamesCommand(g *globalOptions) *cobra.Command {
	var o gamesOptions
	c := &cobra.Command{
		Use:   "games",
		Short: "List the games, their notation, evaluators and features",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runGames(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type featureJSON struct {
	Name    string  `json:"name"`
	Doc     string  `json:"doc"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Step    float64 `json:"step"`
}

type evaluatorJSON struct {
	Name     string        `json:"name"`
	Doc      string        `json:"doc"`
	Features []featureJSON `json:"features"`
}

type gameJSON struct {
	Name       string          `json:"name"`
	Doc        string          `json:"doc"`
	Notation   string          `json:"notation"`
	Start      string          `json:"start"`
	Evaluators []evaluatorJSON `json:"evaluators"`
}

func runGames(_ context.Context, o gamesOptions, _ globalOptions, out output) error {
	list := gamesList()
	if o.json {
		return writeJSON(out.Stdout, list)
	}
	w := out.Stdout
	for i, g := range list {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n  notation: %s\n  start: %s\n", g.Name, g.Doc, g.Notation, g.Start)
		for j, e := range g.Evaluators {
			def := ""
			if j == 0 {
				def = " (default)"
			}
			fmt.Fprintf(w, "  evaluator %s%s: %s\n", e.Name, def, e.Doc)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    feature\tdefault\tmin\tmax\tstep\tmeaning")
			for _, f := range e.Features {
				fmt.Fprintf(tw, "    %s\t%g\t%g\t%g\t%g\t%s\n", f.Name, f.Default, f.Min, f.Max, f.Step, f.Doc)
			}
			tw.Flush()
		}
	}
	return nil
}

// gamesList describes every game of the registry.
func gamesList() []gameJSON {
	var list []gameJSON
	for _, g := range all.Games() {
		gj := gameJSON{Name: g.Name(), Doc: g.Doc(), Notation: g.Notation(), Start: g.Start().String()}
		for _, e := range g.Evaluators() {
			ej := evaluatorJSON{Name: e.Name, Doc: e.Doc}
			for _, f := range e.Features {
				ej.Features = append(ej.Features, featureJSON(f))
			}
			gj.Evaluators = append(gj.Evaluators, ej)
		}
		list = append(list, gj)
	}
	return list
}
