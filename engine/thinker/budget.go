package thinker

import (
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// ClockOverhead is kept back from every move's time for the process's
// reading, writing, the operating system's scheduling (a loaded machine
// can hold a process back for tens of milliseconds) and the search's check
// of its deadline.
const ClockOverhead = 10 * time.Millisecond

// MoveBudget is the time for one move with left on the clock, inc added
// after each move and movesToGo moves to the next time control (0: sudden
// death, planned as 30 more moves). It spends half of the increment and
// never plans more than a third of what is left, so that at 1 s + 10 ms
// per move the clock settles near 30 x (inc/2 + ClockOverhead - o) =
// 300 ms for an overhead o of 5 ms per move: a reserve against a slow
// moment, where spending three quarters of the increment left 75 ms. It is
// never less than a millisecond.
func MoveBudget(left, inc time.Duration, movesToGo int) time.Duration {
	if left <= 0 {
		return time.Millisecond
	}
	if movesToGo <= 0 || movesToGo > 30 {
		movesToGo = 30
	}
	b := left/time.Duration(movesToGo) + inc/2
	b = min(b, left/3) - ClockOverhead
	return max(b, time.Millisecond)
}

// limits turns what a GUI asked for into the engine's limits, the time for
// the search (0: none) and whether its report waits for Stop. No limit at
// all is the Thinker's default limits; otherwise a depth not given is
// engine.MaxDepth, and values beyond the engine's bounds are cut to them.
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
		budget = max(l.MoveTime-ClockOverhead, time.Millisecond)
	}
	if l.Clock {
		if b := MoveBudget(l.Left, l.Increment, l.MovesToGo); budget == 0 || b < budget {
			budget = b
		}
	}
	return lim, budget, l.Infinite
}
