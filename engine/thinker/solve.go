package thinker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Why a solve stopped before it knew the value (Solved.Stopped).
const (
	StoppedTime      = "time limit"
	StoppedNodes     = "node limit"
	StoppedInterrupt = "interrupted"
)

// SolveOptions bound a solve and ask for its progress. The zero value
// searches up to engine.MaxDepth with no other bound, silently.
type SolveOptions struct {
	MaxDepth int           // give up beyond this depth; 0: engine.MaxDepth
	Nodes    int64         // stop after this many nodes; 0: no limit
	Time     time.Duration // stop after this long; 0: no limit
	// Progress, when not nil, is called every Every (1 s when 0) while
	// the solve runs, on a goroutine of its own, never after Solve returns.
	Progress func(SolveProgress)
	Every    time.Duration
}

// SolveProgress is where a running solve stands.
type SolveProgress struct {
	Depth   int           // the depth being searched (1 + the last depth searched in full)
	Nodes   int64         // positions visited so far, over all depths
	Elapsed time.Duration // since the solve began
	// Empties is the number of empty squares of the position (games whose
	// positions count them, such as Othello), -1 otherwise: the horizon
	// of depth d lies about d squares later.
	Empties int
	// Left estimates the time the current depth still needs, from how the
	// cost grew over the depths before it; 0 when unknown.
	Left time.Duration
	// Exact is set when the game's own solver searches to the end (no
	// depths): Depth means nothing then.
	Exact bool
}

// String is the progress in a line: "depth 12 (horizon at 8 empties), 3.2 M
// nodes, 1.5 M nodes/s, 2 s elapsed, depth 12 needs about 10 s more".
func (p SolveProgress) String() string {
	line := fmt.Sprintf("depth %d", p.Depth)
	if p.Exact {
		line = fmt.Sprintf("exact, %d empties", p.Empties)
	} else if p.Empties >= 0 {
		line += fmt.Sprintf(" (horizon at %d empties)", max(p.Empties-p.Depth, 0))
	}
	rate := float64(p.Nodes) / max(p.Elapsed.Seconds(), 1e-9)
	line += fmt.Sprintf(", %.1f M nodes, %.2f M nodes/s, %s elapsed", float64(p.Nodes)/1e6, rate/1e6, p.Elapsed.Round(time.Second))
	if p.Left > 0 {
		line += fmt.Sprintf(", depth %d needs about %s more", p.Depth, p.Left.Round(time.Second))
	}
	return line
}

var errTimeLimit = errors.New("thinker: the solve's time limit")

// A marginSolver is a position whose game solves its last empty squares
// to the final margin itself (Othello's exact endgame solver: the disc
// difference with best play, not only the win, draw or loss), much faster
// than the engine's search to the end: Solve hands it the position when
// it says it is near enough the end.
type marginSolver interface {
	SolvesMargin() bool
	// SolveMargin returns the margin for the side to move and a best
	// move, keeping searched at the nodes searched so far; done is false
	// when it stopped at the node limit (0: none) before knowing them.
	// When ctx is done it returns ctx's error.
	SolveMargin(ctx context.Context, nodes int64, searched *atomic.Int64) (margin int, move games.Move, done bool, err error)
}

// Solve finds the exact value of p of g with a new searcher
// (engine.Searcher.SolveEach) within the bounds of o, timed, or, when p
// solves its margin itself (Othello near the end), with p's solver, which
// gives the final margin (Score) too. When a bound stops it, the value is
// unknown and Stopped says which; when ctx is done, it returns what the
// depths searched in full found (Stopped StoppedInterrupt) with ctx's
// error.
func Solve(ctx context.Context, g games.Game, p games.Position, o SolveOptions) (Solved, error) {
	if o.MaxDepth == 0 {
		o.MaxDepth = engine.MaxDepth
	}
	if o.Time < 0 {
		return Solved{}, fmt.Errorf("time %s: want a positive duration, or 0 for no limit", o.Time)
	}
	solveCtx := ctx
	if o.Time > 0 {
		var cancel context.CancelFunc
		solveCtx, cancel = context.WithTimeoutCause(ctx, o.Time, errTimeLimit)
		defer cancel()
	}
	if m, ok := p.(marginSolver); ok && m.SolvesMargin() {
		return solveMargin(ctx, solveCtx, g, p, m, o)
	}
	s, err := engine.New(engine.Options{})
	if err != nil {
		return Solved{}, err
	}
	start := time.Now()
	w := newSolveWatch(s.Progress, p, start)
	stopWatch := w.run(o.Progress, o.Every)
	sol, err := s.SolveEach(solveCtx, p, g.Evaluators()[0], o.MaxDepth, o.Nodes, w.settled)
	stopWatch()
	out := Solved{Game: g.Name(), Position: p.String(), Value: sol.Value.String(), Plies: sol.Plies,
		Depth: sol.Depth, Nodes: sol.Nodes, Seconds: time.Since(start).Seconds(), value: sol.Value}
	if sol.Depth > 0 {
		out.Move = p.FormatMove(sol.Move)
	}
	nodesOut := sol.Value == engine.Unknown && o.Nodes > 0 && sol.Nodes >= o.Nodes
	if out.Stopped, err = stopReason(ctx, solveCtx, nodesOut, err); err != nil && out.Stopped == "" {
		return Solved{}, err
	}
	return out, err
}

// stopReason says how a solve that returned err ended: by its node bound
// (nodesOut), by an interruption (ctx done: ctx's error is returned), by
// its time bound (solveCtx's cause), finished (""), or failed (err, with
// no reason).
func stopReason(ctx, solveCtx context.Context, nodesOut bool, err error) (string, error) {
	switch {
	case err == nil && nodesOut:
		return StoppedNodes, nil
	case err == nil:
		return "", nil
	case ctx.Err() != nil:
		return StoppedInterrupt, err
	case errors.Is(context.Cause(solveCtx), errTimeLimit):
		return StoppedTime, nil
	}
	return "", err
}

// solveMargin is Solve by p's own solver.
func solveMargin(ctx, solveCtx context.Context, g games.Game, p games.Position, m marginSolver, o SolveOptions) (Solved, error) {
	var searched atomic.Int64
	start := time.Now()
	w := newSolveWatch(searched.Load, p, start)
	w.exact = true
	stopWatch := w.run(o.Progress, o.Every)
	margin, move, done, err := m.SolveMargin(solveCtx, o.Nodes, &searched)
	stopWatch()
	out := Solved{Game: g.Name(), Position: p.String(), Value: engine.Unknown.String(), Depth: max(w.empties, 0),
		Nodes: searched.Load(), Seconds: time.Since(start).Seconds()}
	out.Stopped, err = stopReason(ctx, solveCtx, !done, err)
	switch {
	case err != nil && out.Stopped == "":
		return Solved{}, err
	case out.Stopped != "":
		return out, err
	}
	out.Score, out.Move = &margin, p.FormatMove(move)
	if move == games.NoMove {
		out.Move = ""
	}
	switch {
	case margin > 0:
		out.value = engine.Win
	case margin < 0:
		out.value = engine.Loss
	default:
		out.value = engine.DrawValue
	}
	out.Value = out.value.String()
	return out, nil
}

// solveWatch follows a solve for its progress: the depths settled (from
// the search's goroutine) and the nodes of the depth under way (read from
// any goroutine).
type solveWatch struct {
	progress func() int64 // the nodes of the depth under way
	start    time.Time
	empties  int
	exact    bool // a game's own solver: no depths

	mu        sync.Mutex
	depth     int           // the last depth searched in full
	nodes     int64         // the nodes of the depths searched in full
	last      int64         // the nodes of the last depth alone
	growth    float64       // how many times more nodes the last depth took than the one before; 0 unknown
	lastStart time.Duration // when the depth under way began, since start
	shown     int64         // the most nodes shown (the count never goes back)
}

func newSolveWatch(progress func() int64, p games.Position, start time.Time) *solveWatch {
	w := &solveWatch{progress: progress, start: start, empties: -1}
	if e, ok := p.(interface{ Empties() int }); ok {
		w.empties = e.Empties()
	}
	return w
}

// settled notes a depth searched in full (engine.Searcher.SolveEach's each).
func (w *solveWatch) settled(sol engine.Solution) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := sol.Nodes - w.nodes
	if w.last > 0 {
		w.growth = float64(n) / float64(w.last)
	}
	w.depth, w.nodes, w.last = sol.Depth, sol.Nodes, n
	w.lastStart = time.Since(w.start)
}

// now is the progress at this moment.
func (w *solveWatch) now() SolveProgress {
	w.mu.Lock()
	defer w.mu.Unlock()
	elapsed := time.Since(w.start)
	cur := w.progress()
	w.shown = max(w.shown, w.nodes+cur)
	p := SolveProgress{Depth: w.depth + 1, Nodes: w.shown, Elapsed: elapsed, Empties: w.empties, Exact: w.exact}
	if w.growth > 0 && cur > 0 {
		want := float64(w.last) * w.growth // the current depth's nodes, guessed
		rate := float64(cur) / max((elapsed-w.lastStart).Seconds(), 1e-9)
		if left := want - float64(cur); left > 0 && rate > 0 {
			p.Left = time.Duration(left / rate * float64(time.Second))
		}
	}
	return p
}

// run calls progress every every (1 s when 0) until the returned function
// is called, which waits for the last call to end.
func (w *solveWatch) run(progress func(SolveProgress), every time.Duration) func() {
	if progress == nil {
		return func() {}
	}
	if every <= 0 {
		every = time.Second
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				progress(w.now())
			}
		}
	}()
	return func() { close(done); <-finished }
}
