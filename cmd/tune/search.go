package main

import (
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	position  string
	limits    searchLimits
	evaluator string
	weights   string
	tableMiB  int
	json      bool
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var o searchOptions
	c := &cobra.Command{
		Use:   "search GAME",
		Short: "Search a position: best move, score, principal variation and statistics",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runSearch(c, args[0], o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.position, "position", "", "position in the game's notation (default: the start)")
	o.limits.bind(f, 6)
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator name (default: the game's first; see 'tune games')")
	f.StringVar(&o.weights, "weights", "", "weights file (JSON, as 'tune export' writes)")
	f.IntVar(&o.tableMiB, "hash", 16, hashHelp)
	f.BoolVar(&o.json, "json", false, "print JSON")
	return c
}

type statsJSON struct {
	Nodes            int64   `json:"nodes"`
	QNodes           int64   `json:"qnodes"`
	TTHits           int64   `json:"tt_hits"`
	TTCuts           int64   `json:"tt_cuts"`
	Cutoffs          int64   `json:"cutoffs"`
	FirstCutoffs     int64   `json:"first_cutoffs"`
	FirstCutoffShare float64 `json:"first_cutoff_share"`
	Depth            int     `json:"depth"`
	EBF              float64 `json:"ebf"`
}

// searchJSON is the result of a search for scripts. Score is in the
// evaluation's units from the side to move's point of view. A forced end is
// not a number there (Score is null) but MateIn, in moves of the side to
// move as UCI counts them (positive: it wins; negative: it loses), and
// EndPlies, the plies to that end.
type searchJSON struct {
	Game      string    `json:"game"`
	Position  string    `json:"position"`
	Evaluator string    `json:"evaluator"`
	Move      string    `json:"move"`
	MoveUCI   string    `json:"move_uci,omitempty"`
	Score     *int      `json:"score"`
	MateIn    *int      `json:"mate_in,omitempty"`
	EndPlies  *int      `json:"end_in_plies,omitempty"`
	PV        []string  `json:"pv"`
	PVUCI     []string  `json:"pv_uci,omitempty"`
	Seconds   float64   `json:"seconds"`
	NPS       float64   `json:"nps"`
	Stats     statsJSON `json:"stats"`
}

// uciFormatter is a position that also writes its moves in UCI's long
// algebraic notation (chess).
type uciFormatter interface {
	UCI(games.Move) string
}

// uciLine writes a move sequence in UCI notation, or nil when the game has
// none.
func uciLine(p games.Position, moves []games.Move) []string {
	if _, ok := p.(uciFormatter); !ok {
		return nil
	}
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, p.(uciFormatter).UCI(m))
		p.Play(m)
	}
	for range moves {
		p.Undo()
	}
	return out
}

// scoreJSON splits an engine score into a plain score or a forced end: in
// moves of the side to move (negative when it loses) and in plies.
func scoreJSON(s int) (score, mateIn, plies *int) {
	switch {
	case engine.IsWin(s):
		p := engine.Mate - s
		m := (p + 1) / 2
		return nil, &m, &p
	case engine.IsLoss(s):
		p := engine.Mate + s
		m := -p / 2
		return nil, &m, &p
	}
	return &s, nil, nil
}

func runSearch(c *cobra.Command, gameName string, o searchOptions) error {
	g, err := findGame(gameName)
	if err != nil {
		return err
	}
	p, err := position(g, o.position)
	if err != nil {
		return err
	}
	ev, w, err := player(g, o.evaluator, o.weights)
	if err != nil {
		return err
	}
	lim, err := o.limits.limits()
	if err != nil {
		return err
	}
	if err := checkHash(o.tableMiB); err != nil {
		return err
	}
	s, err := engine.New(engine.Options{TableMiB: o.tableMiB})
	if err != nil {
		return usageError{err}
	}
	start := now()
	res, err := s.Search(c.Context(), p, ev, w, lim)
	if err != nil {
		return err
	}
	secs := since(start)
	st := res.Stats
	score, mateIn, plies := scoreJSON(res.Score)
	r := searchJSON{
		Game: g.Name(), Position: p.String(), Evaluator: ev.Name,
		Move: p.FormatMove(res.Move), Score: score, MateIn: mateIn, EndPlies: plies,
		PV: formatLine(p, res.PV), PVUCI: uciLine(p, res.PV),
		Seconds: secs, NPS: float64(st.Nodes) / max(secs, 1e-9),
		Stats: statsJSON{st.Nodes, st.QNodes, st.TTHits, st.TTCuts, st.Cutoffs, st.FirstCutoffs, st.FirstCutoffShare(), st.Depth, st.EBF},
	}
	if u := uciLine(p, []games.Move{res.Move}); u != nil {
		r.MoveUCI = u[0]
	}
	if o.json {
		return writeJSON(c.OutOrStdout(), r)
	}
	out := c.OutOrStdout()
	fmt.Fprintf(out, "best move %s, score %s, depth %d\n", r.Move, scoreString(res.Score), st.Depth)
	fmt.Fprintf(out, "pv: %s\n", joinOr(r.PV, "-"))
	fmt.Fprintf(out, "nodes %d (quiescence %d) in %.3f s, %.2f M nodes/s\n", st.Nodes, st.QNodes, secs, r.NPS/1e6)
	fmt.Fprintf(out, "table hits %d (cuts %d), beta cutoffs %d (%.1f%% by the first move), branching factor %.2f\n",
		st.TTHits, st.TTCuts, st.Cutoffs, 100*st.FirstCutoffShare(), st.EBF)
	return nil
}

// scoreString writes a score, or "win in N" / "loss in N" plies.
func scoreString(s int) string {
	switch {
	case engine.IsWin(s):
		return fmt.Sprintf("win in %d plies", engine.Mate-s)
	case engine.IsLoss(s):
		return fmt.Sprintf("loss in %d plies", engine.Mate+s)
	}
	return fmt.Sprintf("%+d", s)
}
