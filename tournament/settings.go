package tournament

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
)

// Search is how the built-in searcher searches for a player. The zero
// value is the exact full-width search.
type Search struct {
	Selective bool                // engine.Options.Selective
	Params    engine.SearchParams // the selective search's numbers; the zero value: the game's defaults
	SolveRoot bool                // engine.Options.SolveRoot: the game's solver's moves near the end
}

// Settings are what a built-in player spec sets after its weights, each
// as ",KEY=VALUE" (CutSettings):
//
//	depth=D, nodes=N          the search's limits, in place of the run's
//	tc=[MOVES/]TIME[+INC]     a clock the referee keeps (ParseTimeControl)
//	st=SECONDS, movetime=MS   a fixed time per move
//	timemargin=MS             how far the clock may be overstepped (100 ms)
//	search=selective|exact    the search (exact by default)
//	param.NAME=VALUE          a selective search parameter (engine.SearchParamList)
//	                          or a clock-use constant (thinker.TimeParamList)
type Settings struct {
	Limits    engine.Limits
	Timing    Timing
	Selective bool
	Params    map[string]float64 // param.NAME values by name
}

// SettingKeys lists the keys of a built-in spec's settings, for messages.
const SettingKeys = "depth, nodes, tc, st, movetime, timemargin, search, param.NAME"

// ErrSetting is wrapped by the errors of a built-in spec's settings.
var ErrSetting = errors.New("tournament: bad player setting")

// CutSettings splits the trailing ",KEY=VALUE" settings (Settings) off a
// built-in player spec and returns the rest (the "default",
// "default:EVALUATOR" or weights file of BuiltinPlayer) and the settings.
// The settings end at the first part from the right that is not one: a
// file whose name holds commas stays whole. A bad value, a key given
// twice, or two of tc, st and movetime are errors naming the setting and
// what is accepted. Whether a param.NAME exists is checked by
// BuiltinPlayer, which knows the game.
func CutSettings(spec string) (string, Settings, error) {
	set := Settings{Params: map[string]float64{}}
	seen := map[string]bool{}
	for {
		i := strings.LastIndex(spec, ",")
		if i < 0 {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(spec[i+1:]), "=")
		if !ok || !isSettingKey(key) {
			break
		}
		if seen[key] {
			return "", Settings{}, fmt.Errorf("%w: %q: %s given twice", ErrSetting, spec, key)
		}
		seen[key] = true
		if err := set.set(key, value); err != nil {
			return "", Settings{}, fmt.Errorf("%w: %q: %w", ErrSetting, spec, err)
		}
		spec = spec[:i]
	}
	if n := count(seen, "tc", "st", "movetime"); n > 1 {
		return "", Settings{}, fmt.Errorf("%w: give one of tc=, st= or movetime=, not %d", ErrSetting, n)
	}
	if seen["timemargin"] && set.Timing.TC == nil && set.Timing.MoveTime == 0 {
		return "", Settings{}, fmt.Errorf("%w: timemargin= without a clock (tc=, st= or movetime=)", ErrSetting)
	}
	return spec, set, nil
}

func isSettingKey(key string) bool {
	switch key {
	case "depth", "nodes", "tc", "st", "movetime", "timemargin", "search":
		return true
	}
	return strings.HasPrefix(key, "param.")
}

func count(seen map[string]bool, keys ...string) int {
	n := 0
	for _, k := range keys {
		if seen[k] {
			n++
		}
	}
	return n
}

// set reads one setting.
func (s *Settings) set(key, value string) error {
	switch key {
	case "depth", "nodes":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 1 || key == "depth" && n > engine.MaxDepth || n > engine.MaxNodes {
			return fmt.Errorf("%s=%s: want a whole number from 1 to %d", key, value, map[string]int64{"depth": engine.MaxDepth, "nodes": engine.MaxNodes}[key])
		}
		if key == "depth" {
			s.Limits.Depth = int(n)
		} else {
			s.Limits.Nodes = n
		}
	case "tc":
		tc, err := ParseTimeControl(value)
		if err != nil {
			return err
		}
		s.Timing.TC = &tc
	case "st", "movetime", "timemargin":
		return s.setTime(key, value)
	case "search":
		selective, err := thinker.ParseSearch(value)
		if err != nil {
			return err
		}
		s.Selective = selective
	default:
		name := strings.TrimPrefix(key, "param.")
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || name == "" {
			return fmt.Errorf("%s=%s: want param.NAME=NUMBER", key, value)
		}
		s.Params[name] = v
	}
	return nil
}

// setTime reads st (seconds a move), movetime (ms a move) or timemargin
// (ms), each up to 1e6 s.
func (s *Settings) setTime(key, value string) error {
	x, err := strconv.ParseFloat(value, 64)
	unit, want := time.Millisecond, "milliseconds"
	if key == "st" {
		unit, want = time.Second, "seconds"
	}
	if err != nil || !(x >= 0 && x*float64(unit) <= 1e6*float64(time.Second)) || x == 0 && key != "timemargin" {
		return fmt.Errorf("%s=%s: want %s from %s to 1e6 s", key, value, want, map[bool]string{true: "0", false: "more than 0"}[key == "timemargin"])
	}
	d := time.Duration(x * float64(unit))
	if key == "timemargin" {
		s.Timing.Margin = d
	} else {
		s.Timing.MoveTime = d
	}
	return nil
}

// timed reports whether the settings give a clock or a move time.
func (s Settings) timed() bool { return s.Timing.TC != nil || s.Timing.MoveTime > 0 }

// apply sets the search and clock settings on pl, a built-in player of g:
// the parameters are checked against the game's (search parameters need
// search=selective) and the clock use's.
func (s Settings) apply(g games.Game, pl *Player) error {
	pl.Timing = s.Timing
	pl.Search = Search{Selective: s.Selective}
	if !s.Selective {
		pl.Search = Search{}
	}
	search := engine.DefaultSearchParams(g.Start())
	timeParams, anyTime := thinker.DefaultTimeParams(), false
	for _, name := range slices.Sorted(maps.Keys(s.Params)) {
		v := s.Params[name]
		if _, ok := timeParams.Get(name); ok {
			if v != float64(int(v)) {
				return fmt.Errorf("%w: param.%s=%v: want a whole number", ErrSetting, name, v)
			}
			if err := timeParams.Set(name, int(v)); err != nil {
				return fmt.Errorf("%w: param.%w", ErrSetting, err)
			}
			anyTime = true
			continue
		}
		if err := search.Set(name, v); err != nil {
			return fmt.Errorf("%w: param.%s: %w (or a clock-use constant: %s)", ErrSetting, name, err, timeParamNames())
		}
		if !s.Selective {
			return fmt.Errorf("%w: param.%s sets the selective search: add search=selective", ErrSetting, name)
		}
		pl.Search.Params = search
	}
	if anyTime {
		if !s.timed() {
			return fmt.Errorf("%w: the clock-use constants (param.time-...) need a clock: tc= or st=", ErrSetting)
		}
		pl.Time = timeParams
	}
	return nil
}

func timeParamNames() string {
	var names []string
	for _, p := range thinker.TimeParamList() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
