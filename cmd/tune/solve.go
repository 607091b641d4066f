package main

import (
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/spf13/cobra"
)

type solveOptions struct {
	position string
	maxDepth int
	json     bool
}

func newSolveCommand(g *globalOptions) *cobra.Command {
	var o solveOptions
	c := &cobra.Command{
		Use:   "solve GAME",
		Short: "Find the exact value (win, loss, draw) of a position whose tree can be exhausted",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runSolve(c, args[0], o)
		},
	}
	c.Flags().StringVar(&o.position, "position", "", "position in the game's notation (default: the start)")
	c.Flags().IntVar(&o.maxDepth, "max-depth", engine.MaxPly/2, "give up beyond this depth")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type solveJSON struct {
	Game     string  `json:"game"`
	Position string  `json:"position"`
	Value    string  `json:"value"`
	Move     string  `json:"move"`
	Plies    int     `json:"plies,omitempty"`
	Depth    int     `json:"depth"`
	Nodes    int64   `json:"nodes"`
	Seconds  float64 `json:"seconds"`
}

func runSolve(c *cobra.Command, gameName string, o solveOptions) error {
	g, err := findGame(gameName)
	if err != nil {
		return err
	}
	p, err := position(g, o.position)
	if err != nil {
		return err
	}
	s, err := engine.New(engine.Options{})
	if err != nil {
		return err
	}
	start := now()
	sol, err := s.Solve(c.Context(), p, g.Evaluators()[0], o.maxDepth)
	if err != nil {
		return usageError{err}
	}
	r := solveJSON{Game: g.Name(), Position: p.String(), Value: sol.Value.String(), Move: p.FormatMove(sol.Move),
		Plies: sol.Plies, Depth: sol.Depth, Nodes: sol.Nodes, Seconds: since(start)}
	if o.json {
		return writeJSON(c.OutOrStdout(), r)
	}
	out := c.OutOrStdout()
	switch sol.Value {
	case engine.Unknown:
		fmt.Fprintf(out, "unknown: the tree is not exhausted at depth %d (best move so far %s)\n", sol.Depth, r.Move)
	case engine.Win, engine.Loss:
		fmt.Fprintf(out, "%s for the side to move in %d plies, best move %s (%d nodes, %.3f s)\n", r.Value, sol.Plies, r.Move, sol.Nodes, r.Seconds)
	default:
		fmt.Fprintf(out, "draw with best play, e.g. %s (%d nodes, %.3f s)\n", r.Move, sol.Nodes, r.Seconds)
	}
	return nil
}
