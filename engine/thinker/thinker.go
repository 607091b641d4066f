// Package thinker is the engine behind the protocol servers (protocol/uci,
// gtp, nboard): a searcher that thinks about a position on its own
// goroutine within the limits or the time a GUI asks for, reports what it
// found, and stops at once when told; with it the evaluator, the weights and
// the table size a GUI may change between searches, and the time manager
// that turns a clock into the time for one move (Timer: Budget and Pace).
//
// Analyse and Solve are the one-shot search and solve of a position as
// data (Analysis, Solved: the JSON of 'tune search' and 'tune solve').
//
// A Thinker satisfies each protocol's Engine interface. Its methods are
// called from one goroutine, the protocol's loop; only the search runs on
// another, and reports through the callback given to Think.
package thinker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Options configure a Thinker. The zero value is a 16 MiB table, searches
// of depth 6 when a GUI gives no limit, and tables up to engine.MaxTableMiB.
type Options struct {
	TableMiB int           // the transposition table; 0: 16 MiB
	Limits   engine.Limits // the searches a GUI asks for with no limit; the zero value: depth 6

	// Memory is the machine's memory in bytes (engine.TotalMemory): a
	// table above a quarter of it is refused (engine.CheckTableMiB); 0:
	// unknown, no such bound.
	Memory uint64
	// MaxTableMiB is the largest table a GUI is offered (UCI's Hash
	// option) and accepted; 0: engine.LargestTableMiB(Memory).
	MaxTableMiB int

	// Selective plays the selective search (engine.Options.Selective)
	// rather than the exact one, with Params (the zero value: the game's
	// defaults). A GUI may change both (SetParam).
	Selective bool
	Params    engine.SearchParams
}

// Thinker is the built-in player of a protocol server: a game, an evaluator
// and its weights, a searcher, and the search in flight.
type Thinker struct {
	g        games.Game
	ev       *games.Evaluator
	w        []float64 // replaced, never changed in place: a running search keeps its slice
	s        *engine.Searcher
	tableMiB int
	defaults engine.Limits
	timer    *Timer // the clock use: its constants, the move overhead, the last move's score
	opts     Options

	cancel context.CancelFunc
	done   chan struct{}
	held   bool // the search in flight waits for Stop
}

// New returns a Thinker for g that evaluates with ev and w (one weight per
// feature), after checking the options.
func New(g games.Game, ev *games.Evaluator, w []float64, o Options) (*Thinker, error) {
	if len(w) != len(ev.Features) {
		return nil, fmt.Errorf("thinker: %d weights for the %d features of %s", len(w), len(ev.Features), ev.Name)
	}
	if o.TableMiB == 0 {
		o.TableMiB = 16
	}
	if o.MaxTableMiB == 0 {
		o.MaxTableMiB = engine.LargestTableMiB(o.Memory)
	}
	if o.Limits == (engine.Limits{}) {
		o.Limits.Depth = 6
	}
	if err := o.Limits.Check(); err != nil {
		return nil, err
	}
	if o.Params == (engine.SearchParams{}) {
		o.Params = engine.DefaultSearchParams(g.Start())
	}
	t := &Thinker{g: g, ev: ev, w: w, defaults: o.Limits, opts: o, timer: NewTimer()}
	if err := t.SetTableMiB(o.TableMiB); err != nil {
		return nil, err
	}
	return t, nil
}

// Game is the game the Thinker plays.
func (t *Thinker) Game() games.Game { return t.g }

// Evaluator returns the evaluator and the weights in use. The slice is not
// to be changed.
func (t *Thinker) Evaluator() (*games.Evaluator, []float64) { return t.ev, t.w }

// SetWeight makes v the weight of feature i for the next searches.
func (t *Thinker) SetWeight(i int, v float64) {
	w := append([]float64(nil), t.w...)
	w[i] = v
	t.w = w
}

// TableMiB returns the size of the transposition table and the largest a
// GUI is offered.
func (t *Thinker) TableMiB() (size, max int) { return t.tableMiB, t.opts.MaxTableMiB }

// SetTableMiB replaces the searcher with one whose table has mib MiB, or
// returns why that size is refused (engine.CheckTableMiB, then the
// largest offered).
func (t *Thinker) SetTableMiB(mib int) error {
	if err := engine.CheckTableMiB(mib, t.opts.Memory); err != nil {
		return err
	}
	if mib > t.opts.MaxTableMiB {
		return fmt.Errorf("hash %d: want 1 to %d MiB", mib, t.opts.MaxTableMiB)
	}
	s, err := engine.New(engine.Options{TableMiB: mib, Selective: t.opts.Selective, Params: t.opts.Params})
	if err != nil {
		return err
	}
	t.s, t.tableMiB = s, mib
	return nil
}

// SetDepth makes d plies, without a node limit, the limit of the searches
// a GUI asks for with none (NBoard's "set depth").
func (t *Thinker) SetDepth(d int) error {
	if d < 1 || d > engine.MaxDepth {
		return fmt.Errorf("want 1 to %d", engine.MaxDepth)
	}
	t.defaults = engine.Limits{Depth: d}
	return nil
}

// NewGame clears the searcher's tables and the clock use's memory: what
// it learnt of one game does not decide the moves of the next.
func (t *Thinker) NewGame() {
	t.s.NewGame()
	t.timer.NewGame()
}

// Think starts a search of p within lim on its own goroutine, after ending
// the search in flight, if any; report gets what it found. With
// lim.Infinite the report waits for Stop even when the search ends sooner.
// p is not changed. Think returns an error, and starts nothing, when there
// is nothing to search: the game is over in p.
func (t *Thinker) Think(ctx context.Context, p games.Position, lim games.ThinkLimits, report func(games.Thought)) error {
	return t.ThinkEach(ctx, p, lim, nil, report)
}

// ThinkEach is Think that also reports each iteration of the iterative
// deepening to iteration as it completes (UCI's info lines), when
// iteration is not nil: the engine's one search gives them (SearchEach),
// so the move is the one Think would find.
func (t *Thinker) ThinkEach(ctx context.Context, p games.Position, lim games.ThinkLimits, iteration, report func(games.Thought)) error {
	q, err := t.searchable(p)
	if err != nil {
		return err
	}
	elim, timed, hold := t.limits(lim)
	s, ev, w, timer := t.s, t.ev, t.w, t.timer
	t.start(ctx, hold, func(sctx context.Context, start time.Time) {
		var each func(engine.Result)
		if iteration != nil {
			each = func(res engine.Result) {
				th := Report(q, res, time.Since(start))
				th.PV = append([]games.Move(nil), res.PV...) // the searcher's own slice changes on
				iteration(th)
			}
		}
		res, _ := timer.Search(sctx, s, q, ev, w, elim, timed, each) // stopped: the last completed iteration's move
		if hold {
			<-sctx.Done()
		}
		report(Report(q, res, time.Since(start)))
	})
	return nil
}

// start runs work on its own goroutine as the search in flight, after
// ending the one before, with a context that ends at Stop. hold marks a
// search whose report waits for Stop.
func (t *Thinker) start(ctx context.Context, hold bool, work func(ctx context.Context, start time.Time)) {
	t.Stop()
	start := time.Now()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	t.cancel, t.done, t.held = cancel, done, hold
	go func() {
		defer close(done)
		defer cancel()
		work(sctx, start)
	}()
}

// Held reports whether the search in flight waits for Stop to report (an
// infinite search).
func (t *Thinker) Held() bool { return t.Busy() != nil && t.held }

// Busy returns a channel closed when the search in flight ends, or nil
// when there is none (a search that ended is collected first).
func (t *Thinker) Busy() <-chan struct{} {
	if t.done == nil {
		return nil
	}
	select {
	case <-t.done:
		t.Wait()
		return nil
	default:
		return t.done
	}
}

// searchable returns a copy of p to search, or why there is nothing to
// search. A game drawn by rule with moves left (a threefold repetition a
// GUI did not claim) is searched from its position without the history.
func (t *Thinker) searchable(p games.Position) (games.Position, error) {
	q := p.Clone()
	moves, outcome := q.Moves(nil)
	if outcome == games.Ongoing && len(moves) > 0 {
		return q, nil
	}
	if r, err := t.g.ParsePosition(q.String()); err == nil {
		if ms, o := r.Moves(nil); o == games.Ongoing && len(ms) > 0 {
			return r, nil
		}
	}
	return nil, fmt.Errorf("the game is over (%s)", outcome)
}

// Stop ends the search in flight, if any, and waits for its report.
func (t *Thinker) Stop() {
	if t.cancel != nil {
		t.cancel()
		<-t.done
		t.cancel, t.done = nil, nil
	}
}

// Wait waits for the search in flight, if any, to end by itself and report.
func (t *Thinker) Wait() {
	if t.done != nil {
		<-t.done
		t.cancel, t.done = nil, nil
	}
}

// ErrSearching is returned by Settle while a search waits for Stop.
var ErrSearching = errors.New("the engine is searching until stop; send stop first")

// Settle prepares for a command that changes the position or the settings:
// it waits for a search with limits to end (commands a GUI sent while it ran
// are taken in order), and returns ErrSearching while a search waits for
// Stop.
func (t *Thinker) Settle() error {
	if t.done == nil {
		return nil
	}
	if t.held {
		select {
		case <-t.done:
		default:
			return ErrSearching
		}
	}
	t.Wait()
	return nil
}

// Report is the Thought of a search of p that found res in elapsed.
func Report(p games.Position, res engine.Result, elapsed time.Duration) games.Thought {
	th := games.Thought{Position: p, Move: res.Move, PV: res.PV, Score: res.Score,
		Depth: res.Stats.Depth, Nodes: res.Stats.Nodes, Elapsed: elapsed}
	switch {
	case engine.IsWin(res.Score):
		th.EndPlies = engine.Mate - res.Score
	case engine.IsLoss(res.Score):
		th.EndPlies = -(engine.Mate + res.Score)
	}
	return th
}
