package main

import (
	"context"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	game   string
	engine engineFlags
	json   bool
}

func runSearch(ctx context.Context, o searchOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	a, err := thinker.Analyse(ctx, s.game, s.pos, s.ev, s.w, s.lim, o.engine.tableMiB)
	if err != nil {
		return err
	}
	return emit(out, o.json, a, a.WriteText)
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var o searchOptions
	c := command("search GAME", "Search a position: best move, score, principal variation and statistics", "",
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runSearch(ctx, o, *g, out) }, &o.game)
	o.engine.bind(c.Flags(), withPosition|withPlayer|withLimits|withHash)
	bindJSON(c, &o.json)
	return c
}
