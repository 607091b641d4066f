package thinker

import (
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// MoveOverhead returns the time kept back from every move's time.
func (t *Thinker) MoveOverhead() time.Duration { return t.timer.Overhead }

// SetMoveOverhead makes d the time kept back from every move's time, or
// says why not: 0 to MaxMoveOverhead, in whole milliseconds.
func (t *Thinker) SetMoveOverhead(d time.Duration) error {
	if d < 0 || d > MaxMoveOverhead || d%time.Millisecond != 0 {
		return fmt.Errorf("move overhead %v: want 0 to %d ms in whole milliseconds", d, MaxMoveOverhead.Milliseconds())
	}
	t.timer.Overhead = d
	return nil
}

// TimeParams returns the clock use's constants in use.
func (t *Thinker) TimeParams() TimeParams { return t.timer.Params }

// limits turns what a GUI asked for into the engine's limits, the timing
// of the search (the move time and the clock, for Timer.Search) and
// whether its report waits for Stop. No limit at all is the Thinker's
// default limits; otherwise a depth not given is engine.MaxDepth, and
// values beyond the engine's bounds are cut to them.
func (t *Thinker) limits(l games.ThinkLimits) (engine.Limits, games.ThinkLimits, bool) {
	if l == (games.ThinkLimits{}) {
		return t.defaults, l, false
	}
	lim := engine.Limits{Depth: engine.MaxDepth}
	if l.Depth > 0 {
		lim.Depth = min(l.Depth, engine.MaxDepth)
	}
	if l.Nodes > 0 {
		lim.Nodes = min(l.Nodes, engine.MaxNodes)
	}
	return lim, l, l.Infinite
}
