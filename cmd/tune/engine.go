package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	protocols "github.com/gametune/gametune/protocol/all"
	"github.com/spf13/cobra"
)

type engineOptions struct {
	game, protocol string
	engine         engineFlags
}

func runEngine(ctx context.Context, o engineOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	proto, err := protocols.For(s.game, o.protocol)
	if err != nil {
		return usageError{fmt.Errorf("--%w", err)}
	}
	t, err := thinker.New(s.game, s.ev, s.w, thinker.Options{TableMiB: o.engine.tableMiB, Limits: s.lim, Memory: engine.TotalMemory()})
	if err != nil {
		return usageError{err}
	}
	return protocols.Serve(ctx, proto, out.In, out.Stdout, t)
}

func newEngineCommand(g *globalOptions) *cobra.Command {
	var o engineOptions
	c := command("engine GAME", "Run as an engine process: UCI or xboard (chess), GTP or NBoard (Othello) on standard input and output",
		`engine makes gametune's engine for GAME an engine process for GUIs and match
runners: commands on standard input, answers on standard output, with the
weights of --weights (a file 'tune export' wrote) or the evaluator's defaults.

  chess      --protocol uci (the default): UCI with every feature weight as a spin
             option and Move Overhead; 'go' takes depth, nodes, movetime,
             clocks, infinite or perft N (divide); an info line per iteration;
             or --protocol xboard: CECP version 2 (xboard, WinBoard, cutechess)
  othello    --protocol gtp (the default), as GRhino's gtp-rhino speaks it, or
             --protocol nboard, as the NBoard GUI speaks it
  others     --protocol uci: the same commands with positions and moves in the
             game's own notation (checkers: B:W21-32:B1-12 and 11-15)

--depth and --nodes bound the searches of GTP's genmove, NBoard's go (until 'set
depth') and xboard's go when no limit is given. An error in the input is
answered with one line (UCI: "info string error: ..."; GTP: "? ..."; NBoard:
"status error: ..."; xboard: "Error (...): ...") and the engine keeps its last
legal state. Commands are read while the engine searches: UCI's isready is
answered at once; stop, xboard's ? and NBoard's ping end the search; quit exits;
the others wait for the search, in order. End of input ends the process.`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runEngine(ctx, o, *g, out) }, &o.game)
	c.Flags().StringVar(&o.protocol, "protocol", "", "uci, xboard (chess), gtp or nboard (Othello) (default: gtp for othello, uci for the other games)")
	o.engine.bind(c.Flags(), withPlayer|withLimits|withHash)
	return c
}
