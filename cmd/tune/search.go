package main

import (
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	position  string
	depth     int
	nodes     int64
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
	f.IntVar(&o.depth, "depth", 0, "search depth in plies (default 6 when --nodes is not given)")
	f.Int64Var(&o.nodes, "nodes", 0, "node limit")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator name (default: the game's first; see 'tune games')")
	f.StringVar(&o.weights, "weights", "", "weights file (JSON, as 'tune export' writes)")
	f.IntVar(&o.tableMiB, "hash", 16, "transposition table size in MiB")
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

type searchJSON struct {
	Game      string    `json:"game"`
	Position  string    `json:"position"`
	Evaluator string    `json:"evaluator"`
	Move      string    `json:"move"`
	Score     int       `json:"score"`
	PV        []string  `json:"pv"`
	Seconds   float64   `json:"seconds"`
	NPS       float64   `json:"nps"`
	Stats     statsJSON `json:"stats"`
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
	if o.depth < 0 || o.nodes < 0 {
		return usageError{fmt.Errorf("search: --depth and --nodes must not be negative")}
	}
	if o.depth == 0 && o.nodes == 0 {
		o.depth = 6
	}
	s, err := engine.New(engine.Options{TableMiB: o.tableMiB})
	if err != nil {
		return usageError{err}
	}
	start := now()
	res, err := s.Search(c.Context(), p, ev, w, engine.Limits{Depth: o.depth, Nodes: o.nodes})
	if err != nil {
		return err
	}
	secs := since(start)
	st := res.Stats
	r := searchJSON{
		Game: g.Name(), Position: p.String(), Evaluator: ev.Name,
		Move: p.FormatMove(res.Move), Score: res.Score, PV: formatLine(p, res.PV),
		Seconds: secs, NPS: float64(st.Nodes) / max(secs, 1e-9),
		Stats: statsJSON{st.Nodes, st.QNodes, st.TTHits, st.TTCuts, st.Cutoffs, st.FirstCutoffs, st.FirstCutoffShare(), st.Depth, st.EBF},
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
