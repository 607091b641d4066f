package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type perftOptions struct {
	game, depth string
	engine      engineFlags
	json        bool
}

func runPerft(ctx context.Context, o perftOptions, g globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	depth, err := games.ParsePerftDepth(o.depth)
	if err != nil {
		return usageError{err}
	}
	if !g.quiet {
		fmt.Fprintf(out.Stderr, "perft: counting %s to depth %d (Ctrl-C stops)\n", s.game.Name(), depth)
	}
	r, err := games.TimedPerft(ctx, s.game, s.pos, depth)
	if err != nil {
		return err
	}
	return emit(out, o.json, r, func(w io.Writer) {
		fmt.Fprintf(w, "perft %s depth %d: %d nodes in %.3f s (%.1f M nodes/s)\n", r.Game, depth, r.Nodes, r.Seconds, r.NPS/1e6)
	})
}

func newPerftCommand(g *globalOptions) *cobra.Command {
	var o perftOptions
	c := command("perft GAME DEPTH", "Count the positions exactly DEPTH plies ahead (move generator check)",
		`perft counts the leaves of the game tree exactly DEPTH plies below the position.
Games that end earlier are not extended; a pass is a ply. The counts are the
published ones for every game gametune knows, so perft checks move generation.`,
		cobra.ExactArgs(2), func(ctx context.Context, out output) error { return runPerft(ctx, o, *g, out) }, &o.game, &o.depth)
	// "perft chess -1" reaches the flag parser as a flag: say what is wrong
	// with the depth instead of "unknown shorthand flag".
	c.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		_, arg, ok := strings.Cut(err.Error(), " in ")
		if _, nerr := strconv.Atoi(arg); ok && nerr == nil {
			if _, derr := games.ParsePerftDepth(arg); derr != nil {
				return usageError{derr}
			}
		}
		return usageError{fmt.Errorf("%w (see 'tune perft --help')", err)}
	})
	o.engine.bind(c.Flags(), withPosition)
	bindJSON(c, &o.json)
	return c
}
