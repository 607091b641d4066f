package main

import (
	"context"
	"io"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/spf13/cobra"
)

type gamesOptions struct{ json bool }

func runGames(_ context.Context, o gamesOptions, _ globalOptions, out output) error {
	var list []games.Description
	for _, g := range all.Games() {
		d := games.Describe(g)
		d.Search = thinker.Tunable(g.Start())
		list = append(list, d)
	}
	return emit(out, o.json, list, func(w io.Writer) { games.WriteDescriptions(w, list) })
}

func newGamesCommand(g *globalOptions) *cobra.Command {
	var o gamesOptions
	c := command("games", "List the games, their notation, evaluators and features", "",
		cobra.NoArgs, func(ctx context.Context, out output) error { return runGames(ctx, o, *g, out) })
	bindJSON(c, &o.json)
	return c
}
