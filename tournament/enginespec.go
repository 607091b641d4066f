package tournament

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrEngineSpec is wrapped by every error of ParseEngineSpec and
// EngineSpec.Check: the spec itself is wrong, before any game.
var ErrEngineSpec = errors.New("tournament: engine spec")

// Protocols an external engine may speak.
const (
	ProtocolUCI = "uci" // chess
	ProtocolGTP = "gtp" // Othello, as GRhino's gtp-rhino speaks it
)

// EngineOption is one option set on an external engine: UCI's
// "setoption name NAME value VALUE".
type EngineOption struct {
	Name  string
	Value string
}

// TimeControl is a clock: Moves moves in Base (0 moves: the whole game),
// plus Increment after each move.
type TimeControl struct {
	Moves     int
	Base      time.Duration
	Increment time.Duration
}

// EngineSpec describes an external engine process as a player, in the
// spirit of cutechess-cli's and fastchess's -engine options. The zero
// values of the durations mean the defaults documented on each field.
type EngineSpec struct {
	Name     string   // the player's name; the command's base name when empty
	Command  string   // the executable
	Args     []string // its arguments
	Dir      string   // its working directory; "" inherits gametune's
	Protocol string   // ProtocolUCI or ProtocolGTP
	Options  []EngineOption

	// At most one limit: Depth, Nodes, MoveTime, or a clock (TC). A UCI
	// engine needs one; a GTP engine knows only clocks, or plays at its
	// own level with none.
	Depth    int
	Nodes    int64
	MoveTime time.Duration
	TC       *TimeControl

	// Restart starts a fresh process for every game; otherwise a process
	// is kept between games (and restarted only after a crash or a stall).
	Restart bool
	// TimeMargin is the time an engine may overstep its clock or movetime
	// before it loses on time; 0 means 100ms.
	TimeMargin time.Duration
	// Stall is how long a move without a clock may take before the engine
	// is declared stalled, and how long a handshake may take; 0 means 60s
	// for a move and 10s for a handshake.
	Stall time.Duration
}

const (
	defaultTimeMargin = 100 * time.Millisecond
	defaultStall      = 60 * time.Second
	defaultHandshake  = 10 * time.Second
)

// IsEngineSpec reports whether a player spec names an external engine
// (it has a cmd= key) rather than built-in weights.
func IsEngineSpec(s string) bool {
	for _, kv := range strings.Split(s, ",") {
		if strings.HasPrefix(strings.TrimSpace(kv), "cmd=") {
			return true
		}
	}
	return false
}

// ParseEngineSpec reads a spec such as
//
//	cmd=/usr/games/stockfish,proto=uci,name=sf,option.Hash=16,depth=8
//
// Keys: cmd, proto (uci or gtp), name, arg (repeatable, in order), dir,
// option.NAME=VALUE (repeatable), one of depth=D, nodes=N, movetime=MS or
// tc=[MOVES/]SECONDS[+INC], restart=on|off, timemargin=MS and stall=MS.
// A value cannot hold a comma. It checks the syntax only; Check looks at
// the command.
func ParseEngineSpec(s string) (EngineSpec, error) {
	var e EngineSpec
	bad := func(format string, args ...any) (EngineSpec, error) {
		return EngineSpec{}, fmt.Errorf("%w %q: %s", ErrEngineSpec, s, fmt.Sprintf(format, args...))
	}
	limits := 0
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return bad("%q is not KEY=VALUE", kv)
		}
		if key != "arg" && !strings.HasPrefix(key, "option.") {
			if seen[key] {
				return bad("%s is given twice", key)
			}
			seen[key] = true
		}
		switch {
		case key == "cmd":
			e.Command = value
		case key == "proto":
			if value != ProtocolUCI && value != ProtocolGTP {
				return bad("proto=%s: want uci (chess) or gtp (Othello)", value)
			}
			e.Protocol = value
		case key == "name":
			e.Name = value
		case key == "arg":
			e.Args = append(e.Args, value)
		case key == "dir":
			e.Dir = value
		case strings.HasPrefix(key, "option."):
			name := strings.TrimPrefix(key, "option.")
			if name == "" {
				return bad("option. needs a name: option.NAME=VALUE")
			}
			e.Options = append(e.Options, EngineOption{name, value})
		case key == "depth":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 200 {
				return bad("depth=%s: want 1 to 200 plies", value)
			}
			e.Depth, limits = n, limits+1
		case key == "nodes":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 1 {
				return bad("nodes=%s: want a positive number", value)
			}
			e.Nodes, limits = n, limits+1
		case key == "movetime":
			d, err := millis(value)
			if err != nil || d <= 0 {
				return bad("movetime=%s: want milliseconds, more than 0", value)
			}
			e.MoveTime, limits = d, limits+1
		case key == "tc":
			tc, err := ParseTimeControl(value)
			if err != nil {
				return bad("%v", err)
			}
			e.TC, limits = &tc, limits+1
		case key == "restart":
			if value != "on" && value != "off" {
				return bad("restart=%s: want on or off", value)
			}
			e.Restart = value == "on"
		case key == "timemargin":
			d, err := millis(value)
			if err != nil || d < 0 {
				return bad("timemargin=%s: want milliseconds", value)
			}
			e.TimeMargin = d
		case key == "stall":
			d, err := millis(value)
			if err != nil || d <= 0 {
				return bad("stall=%s: want milliseconds, more than 0", value)
			}
			e.Stall = d
		default:
			return bad("unknown key %q (keys: cmd, proto, name, arg, dir, option.NAME, depth, nodes, movetime, tc, restart, timemargin, stall)", key)
		}
	}
	if e.Command == "" {
		return bad("cmd= is missing")
	}
	if e.Protocol == "" {
		return bad("proto= is missing (uci or gtp)")
	}
	if limits > 1 {
		return bad("give one of depth=, nodes=, movetime= or tc=, not %d", limits)
	}
	switch {
	case e.Protocol == ProtocolUCI && limits == 0:
		return bad("a UCI engine needs depth=, nodes=, movetime= or tc=")
	case e.Protocol == ProtocolGTP && (e.Depth > 0 || e.Nodes > 0 || e.MoveTime > 0):
		return bad("GTP has no depth, node or movetime limit: use tc=, or the engine's own level through arg=")
	}
	if e.Name == "" {
		e.Name = filepath.Base(e.Command)
	}
	return e, nil
}

// millis reads a number of milliseconds.
func millis(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > 1<<40 {
		return 0, errors.New("not milliseconds")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// ParseTimeControl reads cutechess's tc form [MOVES/]SECONDS[+INCREMENT]:
// "40/60" (40 moves in a minute, repeating), "10+0.1", "0.5+0.05".
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
	secs, err := strconv.ParseFloat(base, 64)
	if err != nil || secs <= 0 || secs > 1e6 {
		return TimeControl{}, fmt.Errorf("tc=%s: seconds %q is not a positive number (want [MOVES/]SECONDS[+INC])", s, base)
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

// String writes the spec back in ParseEngineSpec's form.
func (e EngineSpec) String() string {
	kv := []string{"cmd=" + e.Command, "proto=" + e.Protocol, "name=" + e.Name}
	for _, a := range e.Args {
		kv = append(kv, "arg="+a)
	}
	if e.Dir != "" {
		kv = append(kv, "dir="+e.Dir)
	}
	for _, o := range e.Options {
		kv = append(kv, "option."+o.Name+"="+o.Value)
	}
	switch {
	case e.Depth > 0:
		kv = append(kv, fmt.Sprintf("depth=%d", e.Depth))
	case e.Nodes > 0:
		kv = append(kv, fmt.Sprintf("nodes=%d", e.Nodes))
	case e.MoveTime > 0:
		kv = append(kv, fmt.Sprintf("movetime=%d", e.MoveTime.Milliseconds()))
	case e.TC != nil:
		tc := strconv.FormatFloat(e.TC.Base.Seconds(), 'f', -1, 64)
		if e.TC.Moves > 0 {
			tc = fmt.Sprintf("%d/%s", e.TC.Moves, tc)
		}
		if e.TC.Increment > 0 {
			tc += "+" + strconv.FormatFloat(e.TC.Increment.Seconds(), 'f', -1, 64)
		}
		kv = append(kv, "tc="+tc)
	}
	if e.Restart {
		kv = append(kv, "restart=on")
	}
	if e.TimeMargin > 0 {
		kv = append(kv, fmt.Sprintf("timemargin=%d", e.TimeMargin.Milliseconds()))
	}
	if e.Stall > 0 {
		kv = append(kv, fmt.Sprintf("stall=%d", e.Stall.Milliseconds()))
	}
	return strings.Join(kv, ",")
}

// WithOptions returns a copy of e whose options are e's with opts set
// (replacing an option of the same name, compared without case as UCI
// does).
func (e EngineSpec) WithOptions(opts ...EngineOption) EngineSpec {
	out := e
	out.Options = slices.Clone(e.Options)
	for _, o := range opts {
		i := slices.IndexFunc(out.Options, func(x EngineOption) bool { return strings.EqualFold(x.Name, o.Name) })
		if i >= 0 {
			out.Options[i] = o
		} else {
			out.Options = append(out.Options, o)
		}
	}
	return out
}

// Check looks at the command without starting it: it must exist and be
// executable, and the protocol must be one the game's notation fits. The
// options are checked by CheckEngine, which talks to the engine.
func (e EngineSpec) Check(gameName string) error {
	path := e.Command
	if e.Dir != "" && !filepath.IsAbs(path) && strings.ContainsRune(path, filepath.Separator) {
		path = filepath.Join(e.Dir, path)
	}
	found, err := exec.LookPath(path)
	if err != nil {
		return fmt.Errorf("%w: cmd=%s: %v (give the path of an executable)", ErrEngineSpec, e.Command, unwrapExec(err))
	}
	if st, err := os.Stat(found); err != nil || st.IsDir() {
		return fmt.Errorf("%w: cmd=%s is not an executable file", ErrEngineSpec, e.Command)
	}
	if e.Dir != "" {
		if st, err := os.Stat(e.Dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%w: dir=%s is not a directory", ErrEngineSpec, e.Dir)
		}
	}
	want := map[string]string{ProtocolUCI: "chess", ProtocolGTP: "othello"}[e.Protocol]
	if want != gameName {
		return fmt.Errorf("%w: %s: proto=%s plays %s, not %s", ErrEngineSpec, e.Name, e.Protocol, want, gameName)
	}
	if e.Protocol == ProtocolGTP && len(e.Options) > 0 {
		return fmt.Errorf("%w: %s: GTP has no options (option.%s); pass settings with arg=", ErrEngineSpec, e.Name, e.Options[0].Name)
	}
	return nil
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}
