package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
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
			return runTournament(c, g, &o)
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

func runTournament(c *cobra.Command, g *globalOptions, o *tournamentOptions) error {
	switch o.format {
	case "roundrobin", "gauntlet", "knockout":
	default:
		return usageError{fmt.Errorf("--format %q: want roundrobin, gauntlet or knockout", o.format)}
	}
	var specs []string
	if o.players != "" {
		if tournament.IsEngineSpec(o.players) {
			return usageError{fmt.Errorf("--players splits at commas, which engine specs hold: give each engine with its own --player")}
		}
		specs = strings.Split(o.players, ",")
	}
	specs = append(specs, o.player...)
	if len(specs) < 2 {
		return usageError{fmt.Errorf("give at least two players: --players SPEC,SPEC or --player SPEC repeated")}
	}
	for _, s := range specs {
		o.playersNameEngine = o.playersNameEngine || tournament.IsEngineSpec(s)
	}
	if o.format == "knockout" {
		if o.ties != "random" && o.ties != "extra" {
			return usageError{fmt.Errorf("--ties %q: want random or extra", o.ties)}
		}
		if o.bestOf < 1 {
			return usageError{fmt.Errorf("--best-of %d: want 1 or more", o.bestOf)}
		}
	}
	ct, err := o.prepare(c)
	if err != nil {
		return err
	}
	defer ct.closeOut()
	defer ct.runner.Close()
	var players []tournament.Player
	for i, s := range specs {
		p, err := ct.contestant(c, &o.contestOptions, strings.TrimSpace(s))
		if err != nil {
			return err
		}
		p.Name = fmt.Sprintf("%d:%s", i+1, p.Name)
		players = append(players, p)
	}
	opts := tournament.Options{Game: ct.game, Pairs: o.pairs, Openings: ct.openings, MaxPlies: o.maxPlies, Adjudication: o.adjudicate}
	var bar *reports.Progress // started with the first game, when the total is known
	opts.OnGame = func(done, total int, spec tournament.GameSpec, r tournament.Record) error {
		if bar == nil && total > 0 {
			bar = reports.NewProgress(c.ErrOrStderr(), g.quiet, max(1, total/10))
			bar.Start(o.format, total)
		}
		if bar != nil {
			bar.Set(done)
		}
		if ct.records != nil {
			if err := ct.records.WriteGame(ct.game, spec.First.Name, spec.Second.Name, r); err != nil {
				return fmt.Errorf("--games-out: %w", err)
			}
		}
		return nil
	}
	out := tournamentJSON{Game: ct.game.Name(), Format: o.format}
	var standings []tournament.Standing
	var runErr error
	switch o.format {
	case "roundrobin":
		standings, runErr = tournament.RoundRobin(c.Context(), ct.runner, players, opts)
	case "gauntlet":
		standings, runErr = tournament.Gauntlet(c.Context(), ct.runner, players, opts)
	case "knockout":
		var res tournament.BracketResult
		bracket := tournament.BracketOptions{BestOf: o.bestOf, Ties: o.ties, Seed: o.seed}
		res, standings, runErr = tournament.KnockoutTournament(c.Context(), ct.runner, players, bracket, opts)
		if runErr == nil {
			out.Winner = players[res.Winner].Name
			for _, m := range res.Matches {
				bj := bracketJSON{Round: m.Round, A: players[m.A].Name, B: "bye", ScoreA: m.ScoreA, ScoreB: m.ScoreB, Games: m.Games, Winner: players[m.Winner].Name, TieBreak: m.TieBreak}
				if m.B != tournament.Bye {
					bj.B = players[m.B].Name
				}
				out.Bracket = append(out.Bracket, bj)
			}
		}
	}
	if bar != nil {
		bar.Finish()
	}
	if err := ct.closeOut(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil && c.Context().Err() == nil {
		return runErr
	}
	for _, s := range standings {
		r, e := s.Record, s.Elo
		out.Standings = append(out.Standings, standing{s.Name, r.Games(), r.Wins, r.Draws, r.Losses, s.Points, jsonFloat(s.Score), jsonFloat(e.Elo), jsonFloat(e.Low), jsonFloat(e.High)})
	}
	if o.json {
		if err := writeJSON(c.OutOrStdout(), out); err != nil {
			return err
		}
		return runErr
	}
	printTournament(c.OutOrStdout(), out)
	return runErr
}

func printTournament(w io.Writer, t tournamentJSON) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s\n", t.Game, t.Format)
	fmt.Fprintln(tw, "rank\tplayer\tgames\tW-D-L\tpoints\tscore\tElo vs field [95%]")
	for i, s := range t.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f\t%.1f%%\t%s\n", i+1, s.Player, s.Games, s.Wins, s.Draws, s.Losses, s.Points, 100*s.Score, eloString(float64(s.Elo), float64(s.Low), float64(s.High)))
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
