package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"github.com/spf13/cobra"
)

// playOptions common to match and tournament.
type contestOptions struct {
	game       string
	evaluator  string
	pairs      int
	limits     searchLimits
	openings   string
	workers    int
	seed       uint64
	maxPlies   int
	gamesOut   string
	json       bool
	adjudicate tournament.Adjudication
	cluster    clusterOptions
	// playersNameEngine is set by the command when a player spec is an
	// external engine's.
	playersNameEngine bool
	engines           string // --engines FILE.yaml
	engineLog         string
}

func (o *contestOptions) bind(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.game, "game", "", "the game (see 'tune games')")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator of players given as default (default: the game's first)")
	f.IntVar(&o.pairs, "pairs", 10, fmt.Sprintf("colour-swapped pairs of games per pairing, 1-%d", maxPairs))
	o.limits.bind(f, 4)
	f.StringVar(&o.openings, "openings", "random:8", "openings: random:N (N random plies, balanced), a file of positions, or start")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.Uint64Var(&o.seed, "seed", 1, "seed of the generated openings")
	f.IntVar(&o.maxPlies, "max-plies", 0, fmt.Sprintf("ply cap of a game, drawn when reached, 1-%d (0: 400)", population.MaxPlyCap))
	f.StringVar(&o.gamesOut, "games-out", "", "write every game to this new file")
	a := &o.adjudicate
	f.IntVar(&a.DrawAfter, "draw-after", 0, "adjudication: draw only after this many plies")
	f.IntVar(&a.DrawPlies, "draw-plies", 0, "adjudication: draw when both engines' scores stay within --draw-margin for this many plies (0: off)")
	f.IntVar(&a.DrawMargin, "draw-margin", 0, "adjudication: the draw margin, in the evaluator's units (centipawns for chess)")
	f.IntVar(&a.ResignPlies, "resign-plies", 0, "adjudication: a side loses when the scores agree it is behind by more than --resign-margin for this many plies (0: off)")
	f.IntVar(&a.ResignMargin, "resign-margin", 0, "adjudication: the resign margin, in the evaluator's units")
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.StringVar(&o.engines, "engines", "", "a YAML list of external engines (name, cmd, proto, args, dir, options, depth|nodes|movetime|tc, ...), named as players by their names")
	f.StringVar(&o.engineLog, "engine-log", "", "append the external engines' stderr to this file (default: a new file in the temporary directory)")
	o.cluster.bind(f)
}

// contest is what a match or a tournament needs, checked before any game.
type contest struct {
	game     games.Game
	openings []string
	limits   engine.Limits
	runner   *gameRunner
	engines  map[string]string // --engines: specs by name
	external bool              // an external engine plays
	records  tournament.RecordWriter
	closeOut func() error
}

func (o *contestOptions) prepare(c *cobra.Command) (*contest, error) {
	if o.game == "" {
		return nil, usageError{errors.New("--game is required (see 'tune games')")}
	}
	g, err := findGame(o.game)
	if err != nil {
		return nil, err
	}
	if o.pairs < 1 || o.pairs > maxPairs {
		return nil, usageError{fmt.Errorf("--pairs %d: want 1 to %d", o.pairs, maxPairs)}
	}
	limits, err := o.limits.limits()
	if err != nil {
		return nil, err
	}
	if !o.cluster.enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return nil, err
		}
	}
	if o.maxPlies < 0 || o.maxPlies > population.MaxPlyCap {
		return nil, usageError{fmt.Errorf("--max-plies %d: want 1 to %d, or 0 for 400", o.maxPlies, population.MaxPlyCap)}
	}
	a := o.adjudicate
	if a.DrawAfter < 0 || a.DrawPlies < 0 || a.DrawMargin < 0 || a.ResignPlies < 0 || a.ResignMargin < 0 {
		return nil, usageError{errors.New("the adjudication settings (--draw-after, --draw-plies, --draw-margin, --resign-plies, --resign-margin) must not be negative")}
	}
	ct := &contest{game: g, limits: limits, closeOut: func() error { return nil }}
	if ct.engines, err = readEngines(o.engines); err != nil {
		return nil, err
	}
	switch {
	case o.openings == "" || o.openings == "start":
	case tournament.IsRandomOpenings(o.openings):
		// As moves, which every protocol can replay (GTP cannot set up a
		// position), when an external engine may play.
		draw := tournament.RandomOpenings
		if len(ct.engines) > 0 || o.namesEngine() {
			draw = tournament.RandomOpeningMoves
		}
		if ct.openings, err = draw(c.Context(), g, o.openings, o.seed); err != nil {
			return nil, usageError{err}
		}
	default:
		if ct.openings, err = tournament.ReadOpenings(o.openings, g); err != nil {
			return nil, usageError{err}
		}
	}
	if ct.runner, err = o.openRunner(c); err != nil {
		return nil, err
	}
	if o.gamesOut != "" {
		f, err := os.OpenFile(o.gamesOut, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			if errors.Is(err, os.ErrExist) {
				return nil, usageError{fmt.Errorf("--games-out %s exists; choose a new file", o.gamesOut)}
			}
			return nil, usageError{err}
		}
		ct.records = tournament.NewRecordWriter(g, f)
		closed := false
		ct.closeOut = func() error {
			if closed {
				return nil
			}
			closed = true
			if err := f.Sync(); err != nil {
				f.Close()
				return fmt.Errorf("--games-out: %w", err)
			}
			if err := f.Close(); err != nil {
				return fmt.Errorf("--games-out: %w", err)
			}
			return nil
		}
	}
	return ct, nil
}

// contestant resolves a player SPEC: an external engine (cmd=..., or a
// name from --engines; checked, its runner readied), "default",
// "default:EVALUATOR" or a weights file.
func (ct *contest) contestant(c *cobra.Command, o *contestOptions, spec string) (tournament.Player, error) {
	pl, ok, err := externalPlayer(c.Context(), ct.game, spec, ct.engines)
	if !ok {
		return contestant(ct.game, o.evaluator, spec, ct.limits)
	}
	if err != nil {
		return tournament.Player{}, err
	}
	if !ct.external {
		if err := ct.runner.useEngines(o.engineLog, c.ErrOrStderr()); err != nil {
			return tournament.Player{}, err
		}
		ct.external = true
	}
	return pl, nil
}

// namesEngine reports whether the command line names an external engine
// as a player.
func (o *contestOptions) namesEngine() bool { return o.playersNameEngine }

// contestant resolves a built-in player SPEC: "default",
// "default:EVALUATOR" or a weights file.
func contestant(g games.Game, evaluator, spec string, lim engine.Limits) (tournament.Player, error) {
	name := spec
	if e, ok := strings.CutPrefix(spec, "default:"); ok {
		evaluator, spec = e, "default"
	}
	ev, w, err := player(g, evaluator, spec)
	if err != nil {
		return tournament.Player{}, err
	}
	if spec == "default" || spec == "" {
		name = "default:" + ev.Name
	}
	return tournament.Player{Name: name, Evaluator: ev, Weights: w, Limits: lim}, nil
}

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
			return runMatch(c, g, &o)
		},
	}
	o.bind(c)
	c.Flags().StringVar(&o.a, "a", "default", "player A")
	c.Flags().StringVar(&o.b, "b", "default", "player B")
	c.Flags().StringVar(&o.sprt, "sprt", "", "sequential test elo0,elo1[,alpha,beta] (alpha and beta default to 0.05)")
	return c
}

type matchJSON struct {
	Game        string    `json:"game"`
	A           string    `json:"a"`
	B           string    `json:"b"`
	Games       int       `json:"games"`
	Pairs       int       `json:"pairs"`
	Wins        int       `json:"wins"`
	Draws       int       `json:"draws"`
	Losses      int       `json:"losses"`
	Score       jsonFloat `json:"score"`
	Elo         jsonFloat `json:"elo"`
	EloLow      jsonFloat `json:"elo_low"`
	EloHigh     jsonFloat `json:"elo_high"`
	PairElo     jsonFloat `json:"pentanomial_elo"`
	PairEloLow  jsonFloat `json:"pentanomial_elo_low"`
	PairEloHigh jsonFloat `json:"pentanomial_elo_high"`
	LOS         jsonFloat `json:"los"`
	Pentanomial [5]int    `json:"pentanomial"`
	SPRT        *sprtJSON `json:"sprt,omitempty"`
	Interrupted bool      `json:"interrupted"`
}

type sprtJSON struct {
	Elo0   float64   `json:"elo0"`
	Elo1   float64   `json:"elo1"`
	Alpha  float64   `json:"alpha"`
	Beta   float64   `json:"beta"`
	LLR    jsonFloat `json:"llr"`
	Lower  float64   `json:"lower"`
	Upper  float64   `json:"upper"`
	Status string    `json:"status"`
}

func runMatch(c *cobra.Command, g *globalOptions, o *matchOptions) error {
	var test *stats.SPRT
	if o.sprt != "" {
		t, err := stats.ParseSPRT(o.sprt)
		if err != nil {
			return usageError{err}
		}
		test = &t
	}
	o.playersNameEngine = tournament.IsEngineSpec(o.a) || tournament.IsEngineSpec(o.b)
	ct, err := o.prepare(c)
	if err != nil {
		return err
	}
	defer ct.closeOut()
	defer ct.runner.Close()
	a, err := ct.contestant(c, &o.contestOptions, o.a)
	if err != nil {
		return err
	}
	b, err := ct.contestant(c, &o.contestOptions, o.b)
	if err != nil {
		return err
	}
	specs := tournament.MatchSpecs(ct.game, a, b, o.pairs, ct.openings, o.maxPlies, o.adjudicate)
	bar := reports.NewProgress(c.ErrOrStderr(), g.quiet, 0)
	bar.Start("match", o.pairs)
	every := max(1, o.pairs/10)
	written := 0
	writeRecords := func(res *tournament.MatchResult) error {
		for ; ct.records != nil && written < len(res.Records); written++ {
			first, second := a.Name, b.Name
			if written%2 == 1 {
				first, second = second, first
			}
			if err := ct.records.WriteGame(ct.game, first, second, res.Records[written]); err != nil {
				return fmt.Errorf("--games-out: %w", err)
			}
		}
		return nil
	}
	res, runErr := tournament.RunMatch(c.Context(), ct.runner, specs, test, func(res *tournament.MatchResult) error {
		if err := writeRecords(res); err != nil {
			return err
		}
		done := res.Pentanomial.Pairs()
		bar.Set(done)
		bar.Note(matchLine(res))
		if !reports.IsTerminal(c.ErrOrStderr()) && (done%every == 0 || done == o.pairs) {
			bar.Line(fmt.Sprintf("[%d/%d pairs] %s", done, o.pairs, matchLine(res)))
		}
		return nil
	})
	if err := writeRecords(res); err != nil && runErr == nil {
		runErr = err
	}
	bar.Finish()
	if err := ct.closeOut(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil && c.Context().Err() == nil {
		return runErr
	}
	summary := matchSummary(ct.game, a, b, res)
	summary.Interrupted = runErr != nil
	if o.json {
		if err := writeJSON(c.OutOrStdout(), summary); err != nil {
			return err
		}
	} else {
		printMatch(c.OutOrStdout(), summary, res)
	}
	return runErr
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
		Wins: res.WDL.Wins, Draws: res.WDL.Draws, Losses: res.WDL.Losses, Score: jsonFloat(res.WDL.Score()),
		Elo: jsonFloat(e.Elo), EloLow: jsonFloat(e.Low), EloHigh: jsonFloat(e.High),
		PairElo: jsonFloat(p.Elo), PairEloLow: jsonFloat(p.Low), PairEloHigh: jsonFloat(p.High),
		LOS: jsonFloat(res.WDL.LOS()), Pentanomial: res.Pentanomial}
	if t := res.SPRT; t != nil {
		lo, hi := t.Bounds()
		s.SPRT = &sprtJSON{t.Elo0, t.Elo1, t.Alpha, t.Beta, jsonFloat(res.LLR), lo, hi, res.Status.String()}
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

// openRunner returns where the games of a match or a tournament are
// played: the local pool, or the broker (a broker started here keeps its
// data in a temporary directory, removed at the end).
func (o *contestOptions) openRunner(c *cobra.Command) (*gameRunner, error) {
	store := ""
	if o.cluster.BrokerListen != "" {
		dir, err := os.MkdirTemp("", "tune-broker-*")
		if err != nil {
			return nil, err
		}
		store = dir
	}
	r, err := openRunner(c.Context(), o.cluster, o.workers, ephemeralName(), true, store, c.ErrOrStderr())
	if store == "" {
		return r, err
	}
	if err != nil {
		os.RemoveAll(store)
		return nil, err
	}
	closeRunner := r.close
	r.close = func() { closeRunner(); os.RemoveAll(store) }
	return r, nil
}
