package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type perftOptions struct {
	game     string
	depth    string
	position string
	json     bool
}

func newPerftCommand(g *globalOptions) *cobra.Command {
	var o perftOptions
	c := &cobra.Command{
		Use:   "perft GAME DEPTH",
		Short: "Count the positions exactly DEPTH plies ahead (move generator check)",
		Long: `perft counts the leaves of the game tree exactly DEPTH plies below the position.
Games that end earlier are not extended; a pass is a ply. The counts are the
published ones for every game gametune knows, so perft checks move generation.`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			o.game, o.depth = args[0], args[1]
			return runPerft(c.Context(), o, *g, outputOf(c))
		},
	}
	// "perft chess -1" reaches the flag parser as a flag: say what is wrong
	// with the depth instead of "unknown shorthand flag".
	c.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if _, arg, ok := strings.Cut(err.Error(), " in "); ok {
			if _, nerr := strconv.Atoi(arg); nerr == nil {
				return usageError{fmt.Errorf("perft: depth %q must be a whole number from 0 to %d", arg, maxPerftDepth)}
			}
		}
		return usageError{fmt.Errorf("%w (see 'tune perft --help')", err)}
	})
	c.Flags().StringVar(&o.position, "position", "", "start from this position (the game's notation; see 'tune games')")
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type perftJSON struct {
	Game     string  `json:"game"`
	Position string  `json:"position"`
	Depth    int     `json:"depth"`
	Nodes    uint64  `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	NPS      float64 `json:"nps"`
}

// maxPerftDepth bounds the depth a user may ask for.
const maxPerftDepth = 30

func runPerft(ctx context.Context, o perftOptions, _ globalOptions, out output) error {
	g, err := findGame(o.game)
	if err != nil {
		return err
	}
	depth, err := strconv.Atoi(o.depth)
	if err != nil || depth < 0 || depth > maxPerftDepth {
		return usageError{fmt.Errorf("perft: depth %q must be a whole number from 0 to %d", o.depth, maxPerftDepth)}
	}
	p, err := position(g, o.position)
	if err != nil {
		return err
	}
	start := time.Now()
	nodes, err := games.PerftContext(ctx, p, depth)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	r := perftJSON{Game: g.Name(), Position: p.String(), Depth: depth, Nodes: nodes, Seconds: secs, NPS: float64(nodes) / max(secs, 1e-9)}
	if o.json {
		return writeJSON(out.Stdout, r)
	}
	fmt.Fprintf(out.Stdout, "perft %s depth %d: %d nodes in %.3f s (%.1f M nodes/s)\n", r.Game, depth, nodes, secs, r.NPS/1e6)
	return nil
}
