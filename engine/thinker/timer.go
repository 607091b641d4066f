package thinker

import (
	"context"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Timer is one player's clock use through a game: the constants, the
// move overhead, and the score of its previous move (a falling score
// earns more time). The zero value has no constants: make one with
// NewTimer. A Timer is used by one goroutine at a time.
type Timer struct {
	Params   TimeParams
	Overhead time.Duration // kept back from every move's time

	last    int
	hasLast bool
}

// NewTimer returns a Timer with the default constants and overhead.
func NewTimer() *Timer {
	return &Timer{Params: DefaultTimeParams(), Overhead: DefaultMoveOverhead}
}

// NewGame forgets the previous move's score.
func (t *Timer) NewGame() { t.hasLast = false }

// Plan is how a search within l is timed: hard is the time at which it is
// stopped (0: none), pace decides whether to start each next iteration
// (nil: every iteration is started until hard or the limits). A move time
// is a hard limit alone, less the overhead; a clock gives a Budget and its
// pace; both together, the sooner hard limit.
func (t *Timer) Plan(l games.ThinkLimits) (hard time.Duration, pace *Pace) {
	if l.MoveTime > 0 {
		hard = max(l.MoveTime-t.Overhead, time.Millisecond)
	}
	if l.Clock {
		b := t.Params.Budget(l.Left, l.Increment, l.MovesToGo, t.Overhead)
		if hard > 0 && hard < b.Hard {
			b.Hard, b.Soft = hard, min(b.Soft, hard)
		}
		hard, pace = b.Hard, t.Params.NewPace(b, t.last, t.hasLast)
	}
	return hard, pace
}

// Search is s.SearchEach of p within lim, timed by l (Plan): stopped at
// the hard limit or when the pace says so after an iteration, and after
// the first iteration when there is one legal move, on a clock. each, when
// not nil, sees every completed iteration first. A search stopped by its
// own time returns the last completed iteration's result with no error;
// the end of ctx returns ctx's. The score found is remembered for the next
// move.
func (t *Timer) Search(ctx context.Context, s *engine.Searcher, p games.Position, ev *games.Evaluator, w []float64, lim engine.Limits, l games.ThinkLimits, each func(engine.Result)) (engine.Result, error) {
	hard, pace := t.Plan(l)
	var sctx context.Context
	var cancel context.CancelFunc
	if hard > 0 {
		sctx, cancel = context.WithTimeout(ctx, hard)
	} else {
		sctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	start := time.Now()
	forced := pace != nil && onlyMove(p)
	res, err := s.SearchEach(sctx, p, ev, w, lim, func(r engine.Result) {
		if each != nil {
			each(r)
		}
		if forced || pace != nil && pace.After(time.Since(start), r.Move, r.Score, r.Stats.Nodes) {
			cancel()
		}
	})
	if err != nil && ctx.Err() == nil && err == sctx.Err() {
		err = nil // its own time
	}
	if res.Stats.Depth > 0 {
		t.last, t.hasLast = res.Score, true
	}
	return res, err
}

// onlyMove reports whether p has a single legal move.
func onlyMove(p games.Position) bool {
	moves, _ := p.Moves(nil)
	return len(moves) == 1
}
