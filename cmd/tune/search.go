package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	game   string
	engine engineFlags
	json   bool
}

// runSearch searches, with a line on stderr per iteration (at most one a
// second) unless quiet; interrupted, it prints the best so far and fails.
func runSearch(ctx context.Context, o searchOptions, g globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	var last time.Time
	each := func(a thinker.Analysis) {
		if !g.quiet && time.Since(last) >= time.Second {
			last = time.Now()
			fmt.Fprintln(out.Stderr, "search: "+a.ProgressLine())
		}
	}
	a, err := thinker.AnalyseEach(ctx, s.game, s.pos, s.ev, s.w, s.lim, o.engine.tableMiB, each)
	if err != nil && a.Move == "" {
		return err
	}
	if perr := emit(out, o.json, a, a.WriteText); perr != nil {
		return perr
	}
	return err
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var o searchOptions
	c := command("search GAME", "Search a position: best move, score, principal variation and statistics", "",
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runSearch(ctx, o, *g, out) }, &o.game)
	o.engine.bind(c.Flags(), withPosition|withPlayer|withLimits|withHash)
	bindJSON(c, &o.json)
	return c
}
