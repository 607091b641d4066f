package thinker

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Analysis is one search of a position as data (the JSON of 'tune
// search'). Score is in the evaluation's units from the side to move's
// point of view. A forced end is not a number there (Score is nil) but
// MateIn, in moves of the side to move as UCI counts them (positive: it
// wins; negative: it loses), and EndPlies, the plies to that end.
type Analysis struct {
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
	Stats     StatsData `json:"stats"`

	score int // the engine's score, forced ends included (engine.Mate)
}

// StatsData are a search's engine.Stats as data.
type StatsData struct {
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

// Analyse searches p of g within lim with a new searcher of a tableMiB
// table, evaluating with ev and w, and returns what it found, timed.
func Analyse(ctx context.Context, g games.Game, p games.Position, ev *games.Evaluator, w []float64, lim engine.Limits, tableMiB int) (Analysis, error) {
	return AnalyseEach(ctx, g, p, ev, w, lim, tableMiB, nil)
}

// AnalyseEach is Analyse that gives each completed iteration of the
// search to each (when not nil) as it completes, on the search's
// goroutine. When ctx is cancelled after an iteration completed, it
// returns the analysis of the last one with ctx's error: the best so far.
func AnalyseEach(ctx context.Context, g games.Game, p games.Position, ev *games.Evaluator, w []float64, lim engine.Limits, tableMiB int, each func(Analysis)) (Analysis, error) {
	s, err := engine.New(engine.Options{TableMiB: tableMiB})
	if err != nil {
		return Analysis{}, err
	}
	start := time.Now()
	var iteration func(engine.Result)
	if each != nil {
		iteration = func(r engine.Result) { each(analysis(g, p, ev, r, time.Since(start).Seconds())) }
	}
	res, err := s.SearchEach(ctx, p, ev, w, lim, iteration)
	if err != nil {
		if ctx.Err() != nil && res.Stats.Depth > 0 {
			return analysis(g, p, ev, res, time.Since(start).Seconds()), err
		}
		return Analysis{}, err
	}
	return analysis(g, p, ev, res, time.Since(start).Seconds()), nil
}

// ProgressLine is the analysis in a line, for a search in progress:
// "depth 12: best d3, score +25, 25266576 nodes in 1.9 s".
func (a Analysis) ProgressLine() string {
	return fmt.Sprintf("depth %d: best %s, score %s, %d nodes in %.1f s", a.Stats.Depth, a.Move, a.ScoreText(), a.Stats.Nodes, a.Seconds)
}

// analysis is the Analysis of res, a search of p that took secs seconds.
func analysis(g games.Game, p games.Position, ev *games.Evaluator, res engine.Result, secs float64) Analysis {
	st := res.Stats
	a := Analysis{Game: g.Name(), Position: p.String(), Evaluator: ev.Name, Move: p.FormatMove(res.Move),
		PV: games.FormatLine(p, res.PV, nil), PVUCI: games.UCILine(p, res.PV),
		Seconds: secs, NPS: float64(st.Nodes) / max(secs, 1e-9), score: res.Score,
		Stats: StatsData{st.Nodes, st.QNodes, st.TTHits, st.TTCuts, st.Cutoffs, st.FirstCutoffs, st.FirstCutoffShare(), st.Depth, st.EBF}}
	switch plies := Report(p, res, 0).EndPlies; {
	case plies > 0:
		m := (plies + 1) / 2
		a.MateIn, a.EndPlies = &m, &plies
	case plies < 0:
		plies = -plies
		m := -plies / 2
		a.MateIn, a.EndPlies = &m, &plies
	default:
		score := res.Score
		a.Score = &score
	}
	if u := games.UCILine(p, []games.Move{res.Move}); u != nil {
		a.MoveUCI = u[0]
	}
	return a
}

// ScoreText writes the score for a person: "+12", or "win in N plies" /
// "loss in N plies".
func (a Analysis) ScoreText() string {
	switch s := a.score; {
	case engine.IsWin(s):
		return fmt.Sprintf("win in %d plies", engine.Mate-s)
	case engine.IsLoss(s):
		return fmt.Sprintf("loss in %d plies", engine.Mate+s)
	}
	return fmt.Sprintf("%+d", a.score)
}

// WriteText writes the analysis for a person: the move, the score and the
// depth, the principal variation, then the cost and the statistics.
func (a Analysis) WriteText(w io.Writer) {
	st := a.Stats
	pv := strings.Join(a.PV, " ")
	if pv == "" {
		pv = "-"
	}
	fmt.Fprintf(w, "best move %s, score %s, depth %d\n", a.Move, a.ScoreText(), st.Depth)
	fmt.Fprintf(w, "pv: %s\n", pv)
	fmt.Fprintf(w, "nodes %d (quiescence %d) in %.3f s, %.2f M nodes/s\n", st.Nodes, st.QNodes, a.Seconds, a.NPS/1e6)
	fmt.Fprintf(w, "table hits %d (cuts %d), beta cutoffs %d (%.1f%% by the first move), branching factor %.2f\n",
		st.TTHits, st.TTCuts, st.Cutoffs, 100*st.FirstCutoffShare, st.EBF)
}

// Solved is a solved position as data (the JSON of 'tune solve'): its
// Value (engine.Value's words), a best move, the plies to the end for a
// win or a loss, the depth that settled it and the cost. Where the game
// solved it to its final margin (Othello's disc difference, empty squares
// to the winner), Score is that margin for the side to move and Depth the
// empty squares.
type Solved struct {
	Game     string  `json:"game"`
	Position string  `json:"position"`
	Value    string  `json:"value"`
	Move     string  `json:"move"`
	Score    *int    `json:"score,omitempty"`
	Plies    int     `json:"plies,omitempty"`
	Depth    int     `json:"depth"`
	Nodes    int64   `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	// Stopped says why an unknown value was not searched further: a
	// bound given (StoppedTime, StoppedNodes) or StoppedInterrupt; empty
	// when the search ended by itself.
	Stopped string `json:"stopped,omitempty"`

	value engine.Value
}

// WriteText writes the solution for a person, in one line.
func (s Solved) WriteText(w io.Writer) {
	switch s.value {
	case engine.Unknown:
		if s.Stopped != "" {
			move := ""
			if s.Move != "" {
				move = ", best move so far " + s.Move
			}
			fmt.Fprintf(w, "unknown: stopped (%s) after depth %d%s (%d nodes, %.3f s)\n", s.Stopped, s.Depth, move, s.Nodes, s.Seconds)
			return
		}
		fmt.Fprintf(w, "unknown: the tree is not exhausted at depth %d (best move so far %s)\n", s.Depth, s.Move)
	case engine.Win, engine.Loss:
		if s.Score != nil {
			fmt.Fprintf(w, "%s for the side to move, final margin %+d, best move %s (%d nodes, %.3f s)\n", s.Value, *s.Score, s.Move, s.Nodes, s.Seconds)
			return
		}
		fmt.Fprintf(w, "%s for the side to move in %d plies, best move %s (%d nodes, %.3f s)\n", s.Value, s.Plies, s.Move, s.Nodes, s.Seconds)
	default:
		fmt.Fprintf(w, "draw with best play, e.g. %s (%d nodes, %.3f s)\n", s.Move, s.Nodes, s.Seconds)
	}
}
