package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"github.com/spf13/cobra"
)

type tournamentOptions struct {
	contestOptions
	format  string
	players string
	player  []string
	bestOf  int
	ties    string
}

func newTournamentCommand(g *globalOptions) *cobra.Command {
	var o tournamentOptions
	c := &cobra.Command{
		Use:   "tournament --game G --format roundrobin|gauntlet|knockout --players SPEC,SPEC,... [flags]",
		Short: "Play a round robin, a gauntlet (the first player against each other) or a knockout bracket",
		Long: `tournament plays several players. A SPEC is "default", "default:EVALUATOR" or a
weights file. roundrobin: every two players meet over --pairs colour-swapped pairs.
gauntlet: the first player meets every other. knockout: a single-elimination
bracket in the order given (byes to the first), each match best-of --best-of games,
ties broken by --ties random (a seeded coin) or extra (extra pairs).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runTournament(c.Context(), o, *g, outputOf(c))
		},
	}
	o.bind(c)
	f := c.Flags()
	f.StringVar(&o.format, "format", "roundrobin", "roundrobin, gauntlet or knockout")
	f.StringVar(&o.players, "players", "", "comma-separated player SPECs (built-in ones; external engines with --player)")
	f.StringArrayVar(&o.player, "player", nil, "one player SPEC, repeatable: built-in, an external engine (cmd=...,proto=...) or a name from --engines")
	f.IntVar(&o.bestOf, "best-of", 5, "knockout: games per match")
	f.StringVar(&o.ties, "ties", "random", "knockout: random or extra")
	return c
}

type standing struct {
	Player string    `json:"player"`
	Games  int       `json:"games"`
	Wins   int       `json:"wins"`
	Draws  int       `json:"draws"`
	Losses int       `json:"losses"`
	Points float64   `json:"points"`
	Score  jsonFloat `json:"score"`
	Elo    jsonFloat `json:"elo"`
	Low    jsonFloat `json:"elo_low"`
	High   jsonFloat `json:"elo_high"`
}

type bracketJSON struct {
	Round    int     `json:"round"`
	A        string  `json:"a"`
	B        string  `json:"b"`
	ScoreA   float64 `json:"score_a"`
	ScoreB   float64 `json:"score_b"`
	Games    int     `json:"games"`
	Winner   string  `json:"winner"`
	TieBreak string  `json:"tie_break,omitempty"`
}

type tournamentJSON struct {
	Game      string        `json:"game"`
	Format    string        `json:"format"`
	Standings []standing    `json:"standings"`
	Bracket   []bracketJSON `json:"bracket,omitempty"`
	Winner    string        `json:"winner,omitempty"`
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
	players, err := ct.players(ctx, specs)
	if err != nil {
		return err
	}
	for i := range players {
		players[i].Name = fmt.Sprintf("%d:%s", i+1, players[i].Name)
	}
	rep := &tournamentReport{ct: ct, format: o.format, quiet: gopts.quiet, stderr: out.Stderr}
	opts := tournament.Options{Game: ct.game, Pairs: o.pairs, Openings: ct.openings, MaxPlies: o.maxPlies, Adjudication: o.adjudicate, OnGame: rep.game}
	view, runErr := o.play(ctx, ct.runner, players, opts)
	if rep.bar != nil {
		rep.bar.Finish()
	}
	if runErr = ct.finish(runErr); runErr != nil && ctx.Err() == nil {
		return runErr
	}
	if !o.json {
		printTournament(out.Stdout, view)
	} else if err := writeJSON(out.Stdout, view); err != nil {
		return err
	}
	return runErr
}

// playerSpecs checks the format and its settings and returns the player
// specs of --players and --player, in order.
func (o tournamentOptions) playerSpecs() ([]string, error) {
	switch o.format {
	case "roundrobin", "gauntlet", "knockout":
	default:
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
	if o.format == "knockout" {
		if o.ties != "random" && o.ties != "extra" {
			return nil, usageError{fmt.Errorf("--ties %q: want random or extra", o.ties)}
		}
		if o.bestOf < 1 {
			return nil, usageError{fmt.Errorf("--best-of %d: want 1 or more", o.bestOf)}
		}
	}
	for i := range specs {
		specs[i] = strings.TrimSpace(specs[i])
	}
	return specs, nil
}

// play plays the tournament of the format and returns its view: the
// standings, and a knockout's bracket and winner.
func (o tournamentOptions) play(ctx context.Context, run tournament.Runner, players []tournament.Player, opts tournament.Options) (tournamentJSON, error) {
	view := tournamentJSON{Game: opts.Game.Name(), Format: o.format}
	var standings []tournament.Standing
	var err error
	switch o.format {
	case "roundrobin":
		standings, err = tournament.RoundRobin(ctx, run, players, opts)
	case "gauntlet":
		standings, err = tournament.Gauntlet(ctx, run, players, opts)
	case "knockout":
		var res tournament.BracketResult
		bracket := tournament.BracketOptions{BestOf: o.bestOf, Ties: o.ties, Seed: o.seed}
		res, standings, err = tournament.KnockoutTournament(ctx, run, players, bracket, opts)
		if err == nil {
			view.Winner, view.Bracket = players[res.Winner].Name, bracketView(players, res.Matches)
		}
	}
	for _, s := range standings {
		r, e := s.Record, s.Elo
		view.Standings = append(view.Standings, standing{s.Name, r.Games(), r.Wins, r.Draws, r.Losses, s.Points, jsonFloat(s.Score), jsonFloat(e.Elo), jsonFloat(e.Low), jsonFloat(e.High)})
	}
	return view, err
}

// bracketView names the entrants of a bracket's matches.
func bracketView(players []tournament.Player, matches []tournament.BracketMatch) []bracketJSON {
	out := make([]bracketJSON, len(matches))
	for i, m := range matches {
		out[i] = bracketJSON{Round: m.Round, A: players[m.A].Name, B: "bye", ScoreA: m.ScoreA, ScoreB: m.ScoreB, Games: m.Games, Winner: players[m.Winner].Name, TieBreak: m.TieBreak}
		if m.B != tournament.Bye {
			out[i].B = players[m.B].Name
		}
	}
	return out
}

// tournamentReport writes the games of a tournament to --games-out as
// they finish and shows its progress, from the first game on which the
// total is known.
type tournamentReport struct {
	ct     *contest
	format string
	quiet  bool
	stderr io.Writer
	bar    *reports.Progress
}

func (t *tournamentReport) game(done, total int, spec tournament.GameSpec, r tournament.Record) error {
	if t.bar == nil && total > 0 {
		t.bar = reports.NewProgress(t.stderr, t.quiet, max(1, total/10))
		t.bar.Start(t.format, total)
	}
	if t.bar != nil {
		t.bar.Set(done)
	}
	return t.ct.writeGame(spec, r)
}

func printTournament(w io.Writer, t tournamentJSON) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s\n", t.Game, t.Format)
	fmt.Fprintln(tw, "rank\tplayer\tgames\tW-D-L\tpoints\tscore\tElo vs field [95%]")
	for i, s := range t.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f\t%.1f%%\t%s\n", i+1, s.Player, s.Games, s.Wins, s.Draws, s.Losses, s.Points, 100*s.Score, reports.EloInterval(float64(s.Elo), float64(s.Low), float64(s.High)))
	}
	tw.Flush()
	if len(t.Bracket) > 0 {
		fmt.Fprintln(w, "bracket:")
		for _, m := range t.Bracket {
			if m.B == "bye" {
				fmt.Fprintf(w, "  round %d: %s has a bye\n", m.Round+1, m.A)
				continue
			}
			tie := ""
			if m.TieBreak != "" {
				tie = " (tie broken: " + m.TieBreak + ")"
			}
			fmt.Fprintf(w, "  round %d: %s %g - %g %s in %d games: %s%s\n", m.Round+1, m.A, m.ScoreA, m.ScoreB, m.B, m.Games, m.Winner, tie)
		}
		fmt.Fprintf(w, "winner: %s\n", t.Winner)
	}
}
