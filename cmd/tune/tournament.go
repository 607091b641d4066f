package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"github.com/spf13/cobra"
)

type tournamentOptions struct {
	contestOptions
	format  string
	players string
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
	f.StringVar(&o.players, "players", "", "comma-separated player SPECs")
	f.IntVar(&o.bestOf, "best-of", 5, "knockout: games per match")
	f.StringVar(&o.ties, "ties", "random", "knockout: random or extra")
	return c
}

type standing struct {
	Player string  `json:"player"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Points float64 `json:"points"`
	Score  float64 `json:"score"`
	Elo    float64 `json:"elo"`
	Low    float64 `json:"elo_low"`
	High   float64 `json:"elo_high"`
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
	specs := strings.Split(o.players, ",")
	if o.players == "" || len(specs) < 2 {
		return usageError{fmt.Errorf("--players: give at least two player SPECs, separated by commas")}
	}
	ct, err := o.prepare(c)
	if err != nil {
		return err
	}
	defer ct.closeOut()
	var players []tournament.Player
	for i, s := range specs {
		p, err := contestant(ct.game, o.evaluator, strings.TrimSpace(s), ct.limits)
		if err != nil {
			return err
		}
		p.Name = fmt.Sprintf("%d:%s", i+1, p.Name)
		players = append(players, p)
	}
	records := make([]stats.WDL, len(players))
	play := func(ctx context.Context, games []tournament.GameSpec, ab [][2]int, done func(i int, s float64)) error {
		return ct.pool.Run(ctx, games, func(i int, r tournament.Record) error {
			if ct.records != nil {
				ct.records.WriteGame(ct.game, games[i].First.Name, games[i].Second.Name, r)
			}
			s := r.Score()
			if games[i].First.Name != players[ab[i][0]].Name {
				s = 1 - s
			}
			records[ab[i][0]].Add(s)
			records[ab[i][1]].Add(1 - s)
			if done != nil {
				done(i, s)
			}
			return nil
		})
	}
	out := tournamentJSON{Game: ct.game.Name(), Format: o.format}
	var runErr error
	if o.format == "knockout" {
		if o.ties != "random" && o.ties != "extra" {
			return usageError{fmt.Errorf("--ties %q: want random or extra", o.ties)}
		}
		if o.bestOf < 1 {
			return usageError{fmt.Errorf("--best-of %d: want 1 or more", o.bestOf)}
		}
		opts := tournament.BracketOptions{BestOf: o.bestOf, Ties: o.ties, Seed: o.seed}
		winner, matches, err := tournament.Knockout(c.Context(), len(players), opts, func(ctx context.Context, batch []tournament.BracketGame) ([]float64, error) {
			games := make([]tournament.GameSpec, len(batch))
			ab := make([][2]int, len(batch))
			for i, bg := range batch {
				a, b := players[bg.A], players[bg.B]
				if bg.Swap {
					a, b = b, a
				}
				op := ""
				if len(ct.openings) > 0 {
					op = ct.openings[(bg.Index/2)%len(ct.openings)]
				}
				games[i] = tournament.GameSpec{Game: ct.game, Opening: op, First: a, Second: b, MaxPlies: o.maxPlies, Adjudication: o.adjudicate}
				ab[i] = [2]int{bg.A, bg.B}
			}
			scores := make([]float64, len(batch))
			err := play(ctx, games, ab, func(i int, s float64) { scores[i] = s })
			return scores, err
		})
		runErr = err
		if err == nil {
			out.Winner = players[winner].Name
			for _, m := range matches {
				bj := bracketJSON{Round: m.Round, A: players[m.A].Name, B: "bye", ScoreA: m.ScoreA, ScoreB: m.ScoreB, Games: m.Games, Winner: players[m.Winner].Name, TieBreak: m.TieBreak}
				if m.B != tournament.Bye {
					bj.B = players[m.B].Name
				}
				out.Bracket = append(out.Bracket, bj)
			}
		}
	} else {
		var games []tournament.GameSpec
		var ab [][2]int
		for i := range players {
			for j := i + 1; j < len(players); j++ {
				if o.format == "gauntlet" && i != 0 {
					continue
				}
				for _, s := range tournament.MatchSpecs(ct.game, players[i], players[j], o.pairs, ct.openings, o.maxPlies, o.adjudicate) {
					games = append(games, s)
					ab = append(ab, [2]int{i, j})
				}
			}
		}
		bar := reports.NewProgress(c.ErrOrStderr(), g.quiet, max(1, len(games)/10))
		bar.Start(o.format, len(games))
		runErr = play(c.Context(), games, ab, func(i int, s float64) { bar.Set(i + 1) })
		bar.Finish()
	}
	if runErr != nil && c.Context().Err() == nil {
		return runErr
	}
	for i, p := range players {
		r := records[i]
		e := r.EloEstimate()
		out.Standings = append(out.Standings, standing{p.Name, r.Games(), r.Wins, r.Draws, r.Losses, r.Points(), r.Score(), finite(e.Elo), finite(e.Low), finite(e.High)})
	}
	sort.SliceStable(out.Standings, func(i, j int) bool { return out.Standings[i].Points > out.Standings[j].Points })
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
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f\t%.1f%%\t%s\n", i+1, s.Player, s.Games, s.Wins, s.Draws, s.Losses, s.Points, 100*s.Score, eloString(s.Elo, s.Low, s.High))
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
