package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	protocols "github.com/gametune/gametune/protocol/all"
	"github.com/spf13/cobra"
)

type engineOptions struct {
	game, protocol, search string
	engine                 engineFlags
}

func runEngine(ctx context.Context, o engineOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	if o.engine.evaluator == "" && o.engine.weights == "" {
		s.ev, s.w = games.Strongest(s.game), games.Strongest(s.game).Defaults()
	}
	proto, err := protocols.For(s.game, o.protocol)
	selective, serr := thinker.ParseSearch(o.search)
	if err = cmp.Or(err, serr); err != nil {
		return usageError{fmt.Errorf("--%w", err)}
	}
	t, err := thinker.New(s.game, s.ev, s.w, thinker.Options{TableMiB: o.engine.tableMiB, Limits: s.lim, Memory: engine.TotalMemory(), Selective: selective})
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(out.Stderr, "tune engine: %s, evaluator %s, %s search\n", s.game.Name(), s.ev.Name, o.search)
	return protocols.Serve(ctx, proto, out.In, out.Stdout, t)
}

func newEngineCommand(g *globalOptions) *cobra.Command {
	var o engineOptions
	c := command("engine GAME", "Run as an engine process: UCI or xboard (chess), GTP or NBoard (Othello) on standard input and output",
		`engine makes gametune's engine for GAME an engine process for GUIs and match
runners: commands on standard input, answers on standard output, with the
weights of --weights (a file 'tune export' wrote) or the defaults of the game's
strongest evaluator (or --evaluator's), with the selective search (or --search
exact), as it says on standard error.

  chess      --protocol uci (the default): UCI with every feature weight, search
             parameter and clock-use constant (time-*) as a spin option, selective
             as a check, and Move Overhead; 'go' takes depth, nodes, movetime,
             clocks, infinite or perft N (divide); an info line per iteration;
             or --protocol xboard: CECP version 2 (xboard, WinBoard, cutechess)
  othello    --protocol gtp (the default), as GRhino's gtp-rhino speaks it, or
             --protocol nboard, as the NBoard GUI speaks it; GTP's gametune-param
             [NAME VALUE] and NBoard's set NAME VALUE list and set the parameters
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
	c.Flags().StringVar(&o.search, "search", "selective", "selective or exact (full-width)")
	o.engine.bind(c.Flags(), withPlayer|withLimits|withHash)
	return c
}
