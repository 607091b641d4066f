package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/reports"
	"github.com/spf13/cobra"
)

type solveOptions struct {
	game     string
	engine   engineFlags
	maxDepth int
	nodes    int64
	time     time.Duration
	every    time.Duration
	json     bool
}

// runSolve solves the position, showing its progress on out.Stderr; when
// interrupted it prints what the depths searched in full found and returns
// ctx's error (exit status 130).
func runSolve(ctx context.Context, o solveOptions, g globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	terminal := reports.IsTerminal(out.Stderr)
	status := reports.NewStatusLine(out.Stderr, g.quiet, terminal)
	opts := thinker.SolveOptions{MaxDepth: o.maxDepth, Nodes: o.nodes, Time: o.time, Every: o.every,
		Progress: func(p thinker.SolveProgress) { status.Show("solve: " + p.String()) }}
	if terminal {
		opts.Every = time.Second
	}
	if o.every <= 0 {
		return usageError{fmt.Errorf("progress-every %s: want a positive duration", o.every)}
	}
	if !g.quiet {
		fmt.Fprintf(out.Stderr, "solving %s %s (up to depth %d); Ctrl-C stops and prints what is known\n", s.game.Name(),
			s.pos, o.maxDepth)
	}
	r, err := thinker.Solve(ctx, s.game, s.pos, opts)
	status.Done()
	if err != nil && r.Stopped != thinker.StoppedInterrupt {
		return usageError{err}
	}
	if eerr := emit(out, o.json, r, r.WriteText); eerr != nil {
		return eerr
	}
	return err
}

func newSolveCommand(g *globalOptions) *cobra.Command {
	var o solveOptions
	c := command("solve GAME",
		"Find the exact value (win, loss, draw; near Othello's end, the final margin) of a position "+
			"whose tree can be exhausted",
		`Solve searches ever deeper until the value of the position is proven. Far from the
end of a game that can take hours or more: progress (depth, nodes, elapsed time and
an estimate for the depth under way) is shown on standard error, rewritten every
second on a terminal and as a line every --progress-every otherwise. Bound it with
--max-depth, --nodes or --time: the value is then "unknown" if the bound came first.
Ctrl-C stops it and prints what the depths searched in full found, with exit
status 130.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runSolve(ctx, o, *g, out) }, &o.game)
	o.engine.bind(c.Flags(), withPosition)
	f := c.Flags()
	f.IntVar(&o.maxDepth, "max-depth", engine.MaxDepth, "give up beyond this depth")
	f.Int64Var(&o.nodes, "nodes", 0, "give up after this many nodes (0: no limit)")
	f.DurationVar(&o.time, "time", 0, "give up after this long, e.g. 10m (0: no limit)")
	f.DurationVar(&o.every, "progress-every", 5*time.Second,
		"how often a progress line is printed when standard error is not a terminal")
	bindJSON(c, &o.json)
	return c
}
