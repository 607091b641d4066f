package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/protocol/nboard"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/spf13/cobra"
)

type engineOptions struct {
	game     string
	protocol string
	engine   engineFlags
}

func newEngineCommand(g *globalOptions) *cobra.Command {
	var o engineOptions
	c := &cobra.Command{
		Use:   "engine GAME",
		Short: "Run as an engine process: UCI (chess), GTP or NBoard (Othello) on standard input and output",
		Long: `engine makes gametune's engine for GAME a standard engine process for GUIs, match
runners and other tools: it reads commands on standard input and answers on
standard output, with the weights of --weights (a file 'tune export' wrote) or
the evaluator's defaults.

  chess      --protocol uci (the default): UCI with every feature weight as a spin
             option; 'go' takes depth, nodes, movetime, clocks or infinite
  othello    --protocol gtp (the default), as GRhino's gtp-rhino speaks it, or
             --protocol nboard, as the NBoard GUI speaks it
  others     --protocol uci: the same commands with positions and moves in the
             game's own notation (checkers: B:W21-32:B1-12 and 11-15)

--depth and --nodes bound the searches of GTP's genmove and NBoard's go (until
'set depth') when no clock is given. Errors in the input are answered with one
line (UCI: "info string error: ..."; GTP: "? ..."; NBoard: "status error: ...")
and the engine keeps its last legal state. End of input ends the process.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.game = args[0]
			return runEngine(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().StringVar(&o.protocol, "protocol", "", "uci, gtp or nboard (default: gtp for othello, uci for the other games)")
	o.engine.bind(c.Flags(), withPlayer|withLimits|withHash)
	return c
}

func runEngine(ctx context.Context, o engineOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	proto := o.protocol
	if proto == "" {
		proto = "uci"
		if s.game.Name() == "othello" {
			proto = "gtp"
		}
	}
	switch proto {
	case "uci":
	case "gtp", "nboard":
		if s.game.Name() != "othello" {
			return usageError{fmt.Errorf("--protocol %s: the protocol is for Othello; %s speaks uci", proto, s.game.Name())}
		}
	default:
		return usageError{fmt.Errorf("--protocol %q: want uci, gtp or nboard", proto)}
	}
	t, err := thinker.New(s.game, s.ev, s.w, thinker.Options{
		TableMiB: o.engine.tableMiB, Limits: s.lim, MaxTableMiB: largestHashMiB(), CheckTable: checkTable,
	})
	if err != nil {
		return usageError{err}
	}
	switch proto {
	case "gtp":
		return gtp.Serve(ctx, out.In, out.Stdout, t)
	case "nboard":
		return nboard.Serve(ctx, out.In, out.Stdout, t)
	}
	return uci.Serve(ctx, out.In, out.Stdout, t)
}

// checkTable is checkHash for a size a GUI asks for: its message alone.
func checkTable(mib int) error {
	err := checkHash(mib)
	var u usageError
	if errors.As(err, &u) {
		return u.err
	}
	return err
}
