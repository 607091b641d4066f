package thinker

import (
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// DefaultMoveOverhead is kept back from every move's time unless a GUI
// says otherwise (UCI's Move Overhead option): the process's reading,
// writing, the operating system's scheduling (a loaded machine can hold a
// process back for tens of milliseconds) and the search's check of its
// deadline. MaxMoveOverhead is the most a GUI may ask for.
const (
	DefaultMoveOverhead = 10 * time.Millisecond
	MaxMoveOverhead     = 5 * time.Second
)

// SuddenDeathMoves is the number of moves MoveBudget plans for when no
// time control is near.
const SuddenDeathMoves = 30

// MoveBudget is the time for one move with left on the clock, inc added
// after each move and movesToGo moves to the next time control (0: sudden
// death, planned as SuddenDeathMoves more moves), overhead kept back for
// the GUI and the process. It spends half of the increment and never plans
// more than a third of what is left, so that at 1 s + 10 ms per move and
// an overhead of 10 ms the clock settles near 30 x (inc/2 + overhead - o)
// = 300 ms for a real overhead o of 5 ms per move: a reserve against a slow
// moment, where spending three quarters of the increment left 75 ms. It is
// never less than a millisecond.
func MoveBudget(left, inc time.Duration, movesToGo int, overhead time.Duration) time.Duration {
	if left <= 0 {
		return time.Millisecond
	}
	if movesToGo <= 0 {
		movesToGo = SuddenDeathMoves
	}
	b := left/time.Duration(movesToGo) + inc/2
	b = min(b, left/3) - overhead
	return max(b, time.Millisecond)
}

// MoveOverhead returns the time kept back from every move's time.
func (t *Thinker) MoveOverhead() time.Duration { return t.overhead }

// SetMoveOverhead makes d the time kept back from every move's time, or
// says why not: 0 to MaxMoveOverhead, in whole milliseconds.
func (t *Thinker) SetMoveOverhead(d time.Duration) error {
	if d < 0 || d > MaxMoveOverhead || d%time.Millisecond != 0 {
		return fmt.Errorf("move overhead %v: want 0 to %d ms in whole milliseconds", d, MaxMoveOverhead.Milliseconds())
	}
	t.overhead = d
	return nil
}

// limits turns what a GUI asked for into the engine's limits, the time for
// the search (0: none) and whether its report waits for Stop. No limit at
// all is the Thinker's default limits; otherwise a depth not given is
// engine.MaxDepth, and values beyond the engine's bounds are cut to them.
// The move overhead is kept back from a move time and from a clock's
// share.
func (t *Thinker) limits(l games.ThinkLimits) (engine.Limits, time.Duration, bool) {
	if l == (games.ThinkLimits{}) {
		return t.defaults, 0, false
	}
	lim := engine.Limits{Depth: engine.MaxDepth}
	if l.Depth > 0 {
		lim.Depth = min(l.Depth, engine.MaxDepth)
	}
	if l.Nodes > 0 {
		lim.Nodes = min(l.Nodes, engine.MaxNodes)
	}
	var budget time.Duration
	if l.MoveTime > 0 {
		budget = max(l.MoveTime-t.overhead, time.Millisecond)
	}
	if l.Clock {
		if b := MoveBudget(l.Left, l.Increment, l.MovesToGo, t.overhead); budget == 0 || b < budget {
			budget = b
		}
	}
	return lim, budget, l.Infinite
}
