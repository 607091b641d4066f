package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/spf13/cobra"
)

type solveOptions struct {
	game     string
	engine   engineFlags
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
			o.game = args[0]
			return runSolve(c.Context(), o, *g, outputOf(c))
		},
	}
	o.engine.bind(c.Flags(), withPosition)
	c.Flags().IntVar(&o.maxDepth, "max-depth", engine.MaxDepth, "give up beyond this depth")
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

func runSolve(ctx context.Context, o solveOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	searcher, err := engine.New(engine.Options{})
	if err != nil {
		return err
	}
	start := time.Now()
	sol, err := searcher.Solve(ctx, s.pos, s.game.Evaluators()[0], o.maxDepth)
	if err != nil {
		return usageError{err}
	}
	r := solveJSON{Game: s.game.Name(), Position: s.pos.String(), Value: sol.Value.String(), Move: s.pos.FormatMove(sol.Move),
		Plies: sol.Plies, Depth: sol.Depth, Nodes: sol.Nodes, Seconds: time.Since(start).Seconds()}
	if o.json {
		return writeJSON(out.Stdout, r)
	}
	switch sol.Value {
	case engine.Unknown:
		fmt.Fprintf(out.Stdout, "unknown: the tree is not exhausted at depth %d (best move so far %s)\n", sol.Depth, r.Move)
	case engine.Win, engine.Loss:
		fmt.Fprintf(out.Stdout, "%s for the side to move in %d plies, best move %s (%d nodes, %.3f s)\n", r.Value, sol.Plies, r.Move, sol.Nodes, r.Seconds)
	default:
		fmt.Fprintf(out.Stdout, "draw with best play, e.g. %s (%d nodes, %.3f s)\n", r.Move, sol.Nodes, r.Seconds)
	}
	return nil
}
