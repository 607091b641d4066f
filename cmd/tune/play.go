package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/terminal"
	"github.com/spf13/cobra"
)

type playOptions struct {
	game, side string
	engine     engineFlags
}

func runPlay(ctx context.Context, o playOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	human := map[string]games.Side{"first": games.First, "second": games.Second}
	if _, ok := human[o.side]; !ok {
		return usageError{fmt.Errorf("play: --side %q: want first or second", o.side)}
	}
	t, err := thinker.New(s.game, s.ev, s.w, thinker.Options{Limits: s.lim})
	if err != nil {
		return err
	}
	return terminal.Serve(ctx, out.In, out.Stdout, t,
		terminal.Options{Start: s.pos, Human: human[o.side], ReadFile: readUserFile})
}

func newPlayCommand(g *globalOptions) *cobra.Command {
	var o playOptions
	c := command("play GAME", "Play a game against the engine in the terminal",
		`play lets a person play the engine. Type a move in the game's notation, or:
  moves       list the legal moves (and mark them on the board where the game can)
  undo        take back your last move and the engine's reply
  board       draw the board again
  position    print the position in the game's notation (also: fen)
  save FILE   save the game (start position and moves) to a new file
  load FILE   load a saved game
  help        this list
  quit        leave`,
		cobra.ExactArgs(1), func(ctx context.Context, out output) error { return runPlay(ctx, o, *g, out) }, &o.game)
	c.Flags().StringVar(&o.side, "side", "first", "the side you play: first or second")
	o.engine.bind(c.Flags(), withPosition|withPlayer|withLimits)
	return c
}
