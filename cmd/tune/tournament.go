package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"github.com/spf13/cobra"
)

type tournamentOptions struct {
	contestOptions
	format, players, ties string
	player                []string
	bestOf                int
}

func runTournament(ctx context.Context, o tournamentOptions, gopts globalOptions, out output) error {
	specs, err := o.playerSpecs()
	if err != nil {
		return err
	}
	ct, err := o.prepare(ctx, specs, out.Stderr)
	if err != nil {
		return err
	}
	defer ct.close()
	for i := range ct.players {
		ct.players[i].Name = fmt.Sprintf("%d:%s", i+1, ct.players[i].Name)
	}
	progress := reports.NewTournamentProgress(out.Stderr, gopts.quiet, o.format)
	opts := tournament.Options{Game: ct.game, Pairs: o.pairs, Openings: ct.openings, MaxPlies: o.maxPlies, Adjudication: o.adjudicate, OnGame: progress.Game}
	bracket := tournament.BracketOptions{BestOf: o.bestOf, Ties: o.ties, Seed: o.seed}
	result, runErr := tournament.PlayFormat(ctx, ct, ct.players, o.format, bracket, opts)
	progress.Finish()
	if runErr = ct.finish(runErr); runErr != nil && ctx.Err() == nil {
		return runErr
	}
	if !o.json {
		reports.WriteTournament(out.Stdout, result)
	} else if err := writeJSON(out.Stdout, result); err != nil {
		return err
	}
	return runErr
}

// playerSpecs checks the format and its settings and returns the player
// specs of --players and --player, in order.
func (o tournamentOptions) playerSpecs() ([]string, error) {
	if !tournament.IsFormat(o.format) {
		return nil, usageError{fmt.Errorf("--format %q: want roundrobin, gauntlet or knockout", o.format)}
	}
	var specs []string
	if o.players != "" {
		if external.IsSpec(o.players) {
			return nil, usageError{fmt.Errorf("--players splits at commas, which engine specs hold: give each engine with its own --player")}
		}
		specs = strings.Split(o.players, ",")
	}
	specs = append(specs, o.player...)
	if len(specs) < 2 {
		return nil, usageError{fmt.Errorf("give at least two players: --players SPEC,SPEC or --player SPEC repeated")}
	}
	if err := (tournament.BracketOptions{BestOf: o.bestOf, Ties: o.ties}).Check(); o.format == "knockout" && err != nil {
		return nil, usageError{fmt.Errorf("--best-of, --ties: %w", err)}
	}
	for i := range specs {
		specs[i] = strings.TrimSpace(specs[i])
	}
	return specs, nil
}

func newTournamentCommand(g *globalOptions) *cobra.Command {
	var o tournamentOptions
	c := command("tournament --game G --format roundrobin|gauntlet|knockout --players SPEC,SPEC,... [flags]",
		"Play a round robin, a gauntlet (the first player against each other) or a knockout bracket",
		`tournament plays several players. A SPEC is "default", "default:EVALUATOR" or a
weights file, with its own settings as in 'tune match' (give such a SPEC
with --player: --players splits at commas). roundrobin: every two players meet over --pairs colour-swapped pairs.
gauntlet: the first player meets every other. knockout: a single-elimination
bracket in the order given (byes to the first), each match best-of --best-of games,
ties broken by --ties random (a seeded coin) or extra (extra pairs). External
engines and --engines, --each are as in 'tune match'; --each applies to every
engine, an engine's own setting winning.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runTournament(ctx, o, *g, out) })
	o.bind(c)
	f := c.Flags()
	f.StringVar(&o.format, "format", "roundrobin", "roundrobin, gauntlet or knockout")
	f.StringVar(&o.players, "players", "", "comma-separated player SPECs (built-in ones; external engines with --player)")
	f.StringArrayVar(&o.player, "player", nil, "one player SPEC, repeatable: built-in, an external engine (cmd=...,proto=...) or a name from --engines")
	f.IntVar(&o.bestOf, "best-of", 5, "knockout: games per match")
	f.StringVar(&o.ties, "ties", "random", "knockout: random or extra")
	return c
}
