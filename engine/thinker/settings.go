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
// says why not: 0 to games.MaxMoveOverhead, in whole milliseconds.
func (t *Thinker) SetMoveOverhead(d time.Duration) error {
	if d < 0 || d > games.MaxMoveOverhead || d%time.Millisecond != 0 {
		return fmt.Errorf("move overhead %v: want 0 to %d ms in whole milliseconds", d, games.MaxMoveOverhead.Milliseconds())
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

// SelectiveParam is the name of the Param that switches the selective
// search on (1) and off (0).
const SelectiveParam = "selective"

// Params lists the settings a GUI may change besides the weights, with
// their values: SelectiveParam, the parameters of the selective search's
// techniques the game offers (with its defaults, engine.SearchParamsUsed)
// and the clock use's constants (TimeParamList).
func (t *Thinker) Params() []games.Param {
	on := 0
	if t.opts.Selective {
		on = 1
	}
	out := []games.Param{{Name: SelectiveParam, Doc: "the selective search (1) or the exact full-width one (0)", Value: on, Max: 1, Check: true}}
	for _, p := range engine.SearchParamsUsed(t.g.Start()) {
		v, _ := t.opts.Params.Get(p.Name)
		out = append(out, games.Param{Name: p.Name, Doc: p.Doc, Value: int(v), Min: int(p.Min), Max: int(p.Max)})
	}
	for _, p := range timeParams {
		out = append(out, games.Param{Name: p.Name, Doc: p.Doc, Value: *p.field(&t.timer.Params), Min: p.Min, Max: p.Max})
	}
	return out
}

// SetParam sets the setting named name (one of Params) to v, or says why
// not: no such setting, or v out of its range. A change of the search
// makes a new searcher, with an empty table.
func (t *Thinker) SetParam(name string, v int) error {
	if _, ok := t.timer.Params.Get(name); ok {
		return t.timer.Params.Set(name, v)
	}
	opts := t.opts
	if name == SelectiveParam {
		if v != 0 && v != 1 {
			return fmt.Errorf("%s %d: want 0 (exact) or 1 (selective)", name, v)
		}
		t.opts.Selective = v == 1
	} else if err := t.opts.Params.Set(name, float64(v)); err != nil {
		return fmt.Errorf("%w (or %s, or a clock-use constant: %s)", err, SelectiveParam, timeParamNames())
	}
	if err := t.SetTableMiB(t.tableMiB); err != nil {
		t.opts = opts
		return err
	}
	return nil
}

// Search says which search the Thinker plays: "selective" or "exact".
func (t *Thinker) Search() string {
	if t.opts.Selective {
		return "selective"
	}
	return "exact"
}

// ParseSearch reads the name of a search, "selective" or "exact", and
// returns whether it is the selective one (Options.Selective).
func ParseSearch(name string) (selective bool, err error) {
	switch name {
	case "selective", "exact":
		return name == "selective", nil
	}
	return false, fmt.Errorf("search %q: want selective or exact", name)
}
