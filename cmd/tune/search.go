package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	game   string
	engine engineFlags
	json   bool
}

func newSearchCommand(g *globalOptions) *cobra.Command {
	var o searchOptions
	c := &cobra.Command{
		Use:   "search GAME",
		Short: "Search a position: best move, score, principal variation and statistics",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.game = args[0]
			return runSearch(c.Context(), o, *g, outputOf(c))
		},
	}
	o.engine.bind(c.Flags(), withPosition|withPlayer|withLimits|withHash)
	c.Flags().BoolVar(&o.json, "json", false, "print JSON")
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

// scoreJSON splits a search's score into a plain score or a forced end: in
// moves of the side to move (negative when it loses) and in plies.
func scoreJSON(t games.Thought) (score, mateIn, plies *int) {
	switch p := t.EndPlies; {
	case p > 0:
		m := (p + 1) / 2
		return nil, &m, &p
	case p < 0:
		p = -p
		m := -p / 2
		return nil, &m, &p
	}
	return &t.Score, nil, nil
}

func runSearch(ctx context.Context, o searchOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	searcher, err := engine.New(engine.Options{TableMiB: o.engine.tableMiB})
	if err != nil {
		return usageError{err}
	}
	start := time.Now()
	res, err := searcher.Search(ctx, s.pos, s.ev, s.w, s.lim)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	st := res.Stats
	p := s.pos
	score, mateIn, plies := scoreJSON(thinker.Report(p, res, 0))
	r := searchJSON{
		Game: s.game.Name(), Position: p.String(), Evaluator: s.ev.Name,
		Move: p.FormatMove(res.Move), Score: score, MateIn: mateIn, EndPlies: plies,
		PV: games.FormatLine(p, res.PV, nil), PVUCI: games.UCILine(p, res.PV),
		Seconds: secs, NPS: float64(st.Nodes) / max(secs, 1e-9),
		Stats: statsJSON{st.Nodes, st.QNodes, st.TTHits, st.TTCuts, st.Cutoffs, st.FirstCutoffs, st.FirstCutoffShare(), st.Depth, st.EBF},
	}
	if u := games.UCILine(p, []games.Move{res.Move}); u != nil {
		r.MoveUCI = u[0]
	}
	if o.json {
		return writeJSON(out.Stdout, r)
	}
	fmt.Fprintf(out.Stdout, "best move %s, score %s, depth %d\n", r.Move, scoreString(res.Score), st.Depth)
	fmt.Fprintf(out.Stdout, "pv: %s\n", joinOr(r.PV, "-"))
	fmt.Fprintf(out.Stdout, "nodes %d (quiescence %d) in %.3f s, %.2f M nodes/s\n", st.Nodes, st.QNodes, secs, r.NPS/1e6)
	fmt.Fprintf(out.Stdout, "table hits %d (cuts %d), beta cutoffs %d (%.1f%% by the first move), branching factor %.2f\n",
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
