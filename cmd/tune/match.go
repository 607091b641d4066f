package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"github.com/spf13/cobra"
)

type matchOptions struct {
	contestOptions
	a, b string
	sprt string
}

func newMatchCommand(g *globalOptions) *cobra.Command {
	var o matchOptions
	c := &cobra.Command{
		Use:   "match --game G --a SPEC --b SPEC [flags]",
		Short: "Play A against B over colour-swapped pairs: W-D-L, Elo with its interval, SPRT",
		Long: `match plays --pairs pairs of games between A and B, each pair from one opening with
colours swapped, on all cores. A SPEC is "default" (the evaluator's default weights),
"default:EVALUATOR", a weights file (JSON, as 'tune export' writes), an external
engine, or the name of one in the --engines file. An external engine is

  cmd=PATH,proto=uci|gtp[,name=N][,arg=A]...[,dir=D][,option.NAME=VALUE]...
      [,depth=D|nodes=N|movetime=MS|tc=[MOVES/]SECONDS[+INC]]
      [,restart=on|off][,timemargin=MS][,stall=MS]

(UCI for chess, GTP for Othello). The runner keeps the clocks of tc= and
movetime=; an engine over its time by more than timemargin (100ms), that crashes,
stops answering for stall (60s) or plays an illegal move loses the game, and is
restarted for the next. Its stderr goes to --engine-log.

With --sprt elo0,elo1[,alpha,beta] the match stops as soon as the sequential test
(pentanomial, over pairs) accepts a hypothesis.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runMatch(c.Context(), o, *g, outputOf(c))
		},
	}
	o.bind(c)
	c.Flags().StringVar(&o.a, "a", "default", "player A")
	c.Flags().StringVar(&o.b, "b", "default", "player B")
	c.Flags().StringVar(&o.sprt, "sprt", "", "sequential test elo0,elo1[,alpha,beta] (alpha and beta default to 0.05)")
	return c
}

type matchJSON struct {
	Game        string      `json:"game"`
	A           string      `json:"a"`
	B           string      `json:"b"`
	Games       int         `json:"games"`
	Pairs       int         `json:"pairs"`
	Wins        int         `json:"wins"`
	Draws       int         `json:"draws"`
	Losses      int         `json:"losses"`
	Score       stats.Float `json:"score"`
	Elo         stats.Float `json:"elo"`
	EloLow      stats.Float `json:"elo_low"`
	EloHigh     stats.Float `json:"elo_high"`
	PairElo     stats.Float `json:"pentanomial_elo"`
	PairEloLow  stats.Float `json:"pentanomial_elo_low"`
	PairEloHigh stats.Float `json:"pentanomial_elo_high"`
	LOS         stats.Float `json:"los"`
	Pentanomial [5]int      `json:"pentanomial"`
	SPRT        *sprtJSON   `json:"sprt,omitempty"`
	Interrupted bool        `json:"interrupted"`
}

type sprtJSON struct {
	Elo0   float64     `json:"elo0"`
	Elo1   float64     `json:"elo1"`
	Alpha  float64     `json:"alpha"`
	Beta   float64     `json:"beta"`
	LLR    stats.Float `json:"llr"`
	Lower  float64     `json:"lower"`
	Upper  float64     `json:"upper"`
	Status string      `json:"status"`
}

func runMatch(ctx context.Context, o matchOptions, gopts globalOptions, out output) error {
	var test *stats.SPRT
	if o.sprt != "" {
		t, err := stats.ParseSPRT(o.sprt)
		if err != nil {
			return usageError{err}
		}
		test = &t
	}
	ct, err := o.prepare(ctx, []string{o.a, o.b}, out.Stderr)
	if err != nil {
		return err
	}
	defer ct.close()
	players, err := ct.players(ctx, []string{o.a, o.b})
	if err != nil {
		return err
	}
	specs := tournament.MatchSpecs(ct.game, players[0], players[1], o.pairs, ct.openings, o.maxPlies, o.adjudicate)
	rep := &matchReport{ct: ct, specs: specs, pairs: o.pairs, every: max(1, o.pairs/10), terminal: reports.IsTerminal(out.Stderr),
		bar: reports.NewProgress(out.Stderr, gopts.quiet, 0)}
	rep.bar.Start("match", o.pairs)
	res, runErr := tournament.RunMatch(ctx, ct.runner, specs, test, rep.update)
	if err := rep.write(res); err != nil && runErr == nil {
		runErr = err
	}
	rep.bar.Finish()
	if runErr = ct.finish(runErr); runErr != nil && ctx.Err() == nil {
		return runErr
	}
	summary := matchSummary(ct.game, players[0], players[1], res)
	summary.Interrupted = runErr != nil
	if o.json {
		if err := writeJSON(out.Stdout, summary); err != nil {
			return err
		}
	} else {
		printMatch(out.Stdout, summary, res)
	}
	return runErr
}

// matchReport writes the games of a match to --games-out as they finish
// and shows its progress after each pair.
type matchReport struct {
	ct                    *contest
	specs                 []tournament.GameSpec
	bar                   *reports.Progress
	pairs, every, written int
	terminal              bool
}

func (m *matchReport) update(res *tournament.MatchResult) error {
	if err := m.write(res); err != nil {
		return err
	}
	done := res.Pentanomial.Pairs()
	m.bar.Set(done)
	m.bar.Note(matchLine(res))
	if !m.terminal && (done%m.every == 0 || done == m.pairs) {
		m.bar.Line(fmt.Sprintf("[%d/%d pairs] %s", done, m.pairs, matchLine(res)))
	}
	return nil
}

// write writes the games finished since the last call.
func (m *matchReport) write(res *tournament.MatchResult) error {
	for ; m.written < len(res.Records); m.written++ {
		if err := m.ct.writeGame(m.specs[m.written], res.Records[m.written]); err != nil {
			return err
		}
	}
	return nil
}

func matchLine(res *tournament.MatchResult) string {
	e := res.WDL.EloEstimate()
	line := fmt.Sprintf("games %d, +%d =%d -%d, score %.1f%%, Elo %s", res.WDL.Games(), res.WDL.Wins, res.WDL.Draws, res.WDL.Losses, 100*res.WDL.Score(), e)
	if res.SPRT != nil {
		lo, hi := res.SPRT.Bounds()
		line += fmt.Sprintf(", LLR %.2f [%.2f, %.2f]", res.LLR, lo, hi)
	}
	return line
}

func matchSummary(g games.Game, a, b tournament.Player, res *tournament.MatchResult) matchJSON {
	e, p := res.WDL.EloEstimate(), res.Pentanomial.EloEstimate()
	s := matchJSON{Game: g.Name(), A: a.Name, B: b.Name, Games: res.WDL.Games(), Pairs: res.Pentanomial.Pairs(),
		Wins: res.WDL.Wins, Draws: res.WDL.Draws, Losses: res.WDL.Losses, Score: stats.Float(res.WDL.Score()),
		Elo: stats.Float(e.Elo), EloLow: stats.Float(e.Low), EloHigh: stats.Float(e.High),
		PairElo: stats.Float(p.Elo), PairEloLow: stats.Float(p.Low), PairEloHigh: stats.Float(p.High),
		LOS: stats.Float(res.WDL.LOS()), Pentanomial: res.Pentanomial}
	if t := res.SPRT; t != nil {
		lo, hi := t.Bounds()
		s.SPRT = &sprtJSON{t.Elo0, t.Elo1, t.Alpha, t.Beta, stats.Float(res.LLR), lo, hi, res.Status.String()}
	}
	return s
}

func printMatch(w io.Writer, s matchJSON, res *tournament.MatchResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %s vs %s\n", s.Game, s.A, s.B)
	fmt.Fprintf(tw, "games\t%d (%d pairs)%s\n", s.Games, s.Pairs, map[bool]string{true: ", interrupted", false: ""}[s.Interrupted])
	fmt.Fprintf(tw, "W-D-L\t%d-%d-%d\n", s.Wins, s.Draws, s.Losses)
	fmt.Fprintf(tw, "score\t%.1f%%\n", 100*s.Score)
	fmt.Fprintf(tw, "Elo (per game)\t%s\n", res.WDL.EloEstimate())
	fmt.Fprintf(tw, "Elo (per pair)\t%s\n", res.Pentanomial.EloEstimate())
	fmt.Fprintf(tw, "LOS\t%.1f%%\n", 100*s.LOS)
	fmt.Fprintf(tw, "pairs 0/0.5/1/1.5/2\t%v\n", s.Pentanomial)
	if t := s.SPRT; t != nil {
		fmt.Fprintf(tw, "SPRT [%g, %g]\tLLR %.2f (bounds %.2f, %.2f): %s\n", t.Elo0, t.Elo1, t.LLR, t.Lower, t.Upper, t.Status)
	}
	tw.Flush()
}
