package main

import (
	"context"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/spf13/cobra"
)

type solveOptions struct {
	game     string
	engine   engineFlags
	maxDepth int
	json     bool
}

func runSolve(ctx context.Context, o solveOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	r, err := thinker.Solve(ctx, s.game, s.pos, o.maxDepth)
	if err != nil {
		return usageError{err}
	}
	return emit(out, o.json, r, r.WriteText)
}

func newSolveCommand(g *globalOptions) *cobra.Command {
	var o solveOptions
	c := command("solve GAME", "Find the exact value (win, loss, draw) of a position whose tree can be exhausted", "",
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runSolve(ctx, o, *g, out) }, &o.game)
	o.engine.bind(c.Flags(), withPosition)
	c.Flags().IntVar(&o.maxDepth, "max-depth", engine.MaxDepth, "give up beyond this depth")
	bindJSON(c, &o.json)
	return c
}
