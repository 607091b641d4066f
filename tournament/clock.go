package tournament

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a clock: Moves moves in Base (0 moves: the whole game),
// plus Increment after each move.
type TimeControl struct {
	Moves     int
	Base      time.Duration
	Increment time.Duration
}

// ParseTimeControl reads cutechess's and fastchess's tc form
// [MOVES/]TIME[+INCREMENT], TIME in seconds or as M:SS or H:MM:SS: "40/60"
// (40 moves in a minute, repeating), "10+0.1", "0.5+0.05", "1:00+1",
// "40/1:30:00".
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	rest := s
	if m, after, ok := strings.Cut(s, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return TimeControl{}, fmt.Errorf("tc=%s: moves %q before / is not a positive number (want [MOVES/]SECONDS[+INC])", s, m)
		}
		tc.Moves, rest = n, after
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	secs, err := clockSeconds(base)
	if err != nil || secs <= 0 || secs > 1e6 {
		return TimeControl{}, fmt.Errorf("tc=%s: time %q is not a positive number of seconds or M:SS or H:MM:SS up to 1e6 s (want [MOVES/]TIME[+INC], e.g. 40/60, 10+0.1, 1:00+1)", s, base)
	}
	tc.Base = time.Duration(secs * float64(time.Second))
	if hasInc {
		x, err := strconv.ParseFloat(inc, 64)
		if err != nil || x < 0 || x > 1e6 {
			return TimeControl{}, fmt.Errorf("tc=%s: increment %q is not a number of seconds (want [MOVES/]SECONDS[+INC])", s, inc)
		}
		tc.Increment = time.Duration(x * float64(time.Second))
	}
	return tc, nil
}

// clockSeconds reads seconds ("90", "0.5") or minutes and seconds ("1:30",
// "1:30.5") or hours, minutes and seconds ("1:00:00").
func clockSeconds(s string) (float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0, fmt.Errorf("%q: too many colons", s)
	}
	total := 0.0
	for i, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		last := i == len(parts)-1
		if err != nil || x < 0 || math.IsInf(x, 0) || (!last && x != math.Trunc(x)) || (i > 0 && x >= 60) {
			return 0, fmt.Errorf("%q is not a time", s)
		}
		total = total*60 + x
	}
	return total, nil
}

// String writes the time control back in ParseTimeControl's form.
func (tc TimeControl) String() string {
	s := strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64)
	if tc.Moves > 0 {
		s = fmt.Sprintf("%d/%s", tc.Moves, s)
	}
	if tc.Increment > 0 {
		s += "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
	}
	return s
}

// sideClock is one side's clock during a game.
type sideClock struct {
	tc        *TimeControl
	moveTime  time.Duration
	margin    time.Duration
	left      time.Duration
	movesDone int
}

func newSideClock(pl Player) sideClock {
	c := sideClock{margin: DefaultTimeMargin}
	t := pl.timing()
	c.tc, c.moveTime = t.TC, t.MoveTime
	if t.Margin > 0 {
		c.margin = t.Margin
	}
	if c.tc != nil {
		c.left = c.tc.Base
	}
	return c
}

// spend charges a move's time to the clock and reports whether the side
// lost on time.
func (c *sideClock) spend(elapsed time.Duration) (lost bool, detail string) {
	switch {
	case c.tc != nil:
		if elapsed > c.left+c.margin {
			detail = fmt.Sprintf("used %v with %v left (margin %v)", elapsed.Round(time.Millisecond), c.left.Round(time.Millisecond), c.margin)
			c.left -= elapsed
			return true, detail
		}
		c.left += c.tc.Increment - elapsed
		c.movesDone++
		if c.tc.Moves > 0 && c.movesDone%c.tc.Moves == 0 {
			c.left += c.tc.Base
		}
	case c.moveTime > 0:
		if elapsed > c.moveTime+c.margin {
			return true, fmt.Sprintf("used %v of movetime %v (margin %v)", elapsed.Round(time.Millisecond), c.moveTime, c.margin)
		}
	}
	return false, ""
}

// end is the clock at the end of the game: zero without a time control.
func (c sideClock) end() ClockEnd {
	if c.tc == nil {
		return ClockEnd{}
	}
	return ClockEnd{Left: c.left, Start: c.tc.Base}
}

// ClockEnd is a side's clock at the end of a game played on a time
// control: the time left (negative after a loss on time) and the time it
// started with. The zero value is a side without a time control.
type ClockEnd struct {
	Left  time.Duration
	Start time.Duration
}

// Share is the share of its start the clock had left, 0 for a side
// without a time control.
func (c ClockEnd) Share() float64 {
	if c.Start <= 0 {
		return 0
	}
	return float64(c.Left) / float64(c.Start)
}

// turnClock is the clock side is shown when it is asked for a move: none
// when it plays without one.
func turnClock(c [2]sideClock, side int) Clock {
	if c[side].tc == nil {
		return Clock{}
	}
	out := Clock{Timed: true, Left: [2]time.Duration{c[0].left, c[1].left}}
	for s := range c {
		if c[s].tc == nil {
			out.Left[s] = c[side].left // an untimed opponent: show ours
		} else {
			out.Increment[s] = c[s].tc.Increment
		}
	}
	if n := c[side].tc.Moves; n > 0 {
		out.MovesToGo = n - c[side].movesDone%n
	}
	return out
}
