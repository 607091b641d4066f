package external

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/tournament"
)

// Parse reads a spec such as
//
//	cmd=/usr/games/stockfish,proto=uci,name=sf,option.Hash=16,depth=8
//
// Keys: cmd, proto (uci, the default as in fastchess and cutechess,
// xboard or gtp), name, arg (repeatable, in order), dir, option.NAME=VALUE
// (repeatable; on a GTP engine, set through its GoGui parameter command), one of depth=D, nodes=N, movetime=MS, st=SECONDS or
// tc=[MOVES/]TIME[+INC] (tc=inf: no clock), restart=on|off, timemargin=MS
// and stall=MS. A value in double quotes may hold commas
// (option.Path="a,b"). It checks the syntax only; CheckCommand looks at
// the command.
func Parse(s string) (Spec, error) {
	var e Spec
	bad := func(err error) (Spec, error) {
		return Spec{}, fmt.Errorf("%w %q: %v", ErrSpec, s, err)
	}
	limits := 0
	seen := map[string]bool{}
	fields, err := splitSpec(s)
	if err != nil {
		return bad(err)
	}
	for _, kv := range fields {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return bad(fmt.Errorf("%q is not KEY=VALUE", kv))
		}
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		if strings.Contains(value, `"`) {
			return bad(fmt.Errorf("%s: a value may be wrapped in double quotes but cannot hold one", key))
		}
		if i := controlIndex(kv); i >= 0 {
			return bad(fmt.Errorf("%s holds the control character %q at byte %d: a spec is one line of printable text", sanitize(key), kv[i], i))
		}
		if key != "arg" && !strings.HasPrefix(key, "option.") {
			if seen[key] {
				return bad(fmt.Errorf("%s is given twice", key))
			}
			seen[key] = true
		}
		known, err := e.setProcess(key, value)
		if !known {
			var limit bool
			limit, err = e.setLimit(key, value)
			if limit {
				limits++
			}
		}
		if err != nil {
			return bad(err)
		}
	}
	if err := e.complete(limits); err != nil {
		return bad(err)
	}
	return e, nil
}

// setProcess sets a key that says what runs (cmd, proto, name, arg, dir,
// option.NAME) and reports whether key is one of them.
func (e *Spec) setProcess(key, value string) (bool, error) {
	switch {
	case key == "cmd":
		e.Command = value
	case key == "proto":
		if value != ProtocolUCI && value != ProtocolXboard && value != ProtocolGTP {
			return true, fmt.Errorf("proto=%s: want uci or xboard (chess), or gtp (Othello)", value)
		}
		e.Protocol = value
	case key == "name":
		if i := controlIndex(value); i >= 0 {
			return true, fmt.Errorf("name=%s holds the control character %q at byte %d: a name is one line of printable text", sanitize(value), value[i], i)
		}
		e.Name = value
	case key == "arg":
		e.Args = append(e.Args, value)
	case key == "dir":
		e.Dir = value
	case strings.HasPrefix(key, "option."):
		name := strings.TrimPrefix(key, "option.")
		if name == "" {
			return true, errors.New("option. needs a name: option.NAME=VALUE")
		}
		if err := (Option{name, value}).check(); err != nil {
			return true, err
		}
		e.Options = append(e.Options, Option{name, value})
	default:
		return false, nil
	}
	return true, nil
}

// splitSpec splits a spec at the commas outside double quotes.
func splitSpec(s string) ([]string, error) {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if quoted {
		return nil, errors.New("a double quote is not closed")
	}
	return append(out, s[start:]), nil
}

// setLimit sets a key of the engine's limits and supervision (depth,
// nodes, movetime, tc, restart, timemargin, stall) and reports whether it
// is one of the four limits, of which a spec gives at most one.
func (e *Spec) setLimit(key, value string) (limit bool, err error) {
	switch key {
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 200 {
			return true, fmt.Errorf("depth=%s: want 1 to 200 plies", value)
		}
		e.Depth = n
	case "nodes":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 1 {
			return true, fmt.Errorf("nodes=%s: want a positive number", value)
		}
		e.Nodes = n
	case "movetime":
		d, err := millis(value)
		if err != nil || d <= 0 {
			return true, fmt.Errorf("movetime=%s: want milliseconds, more than 0", value)
		}
		e.MoveTime = d
	case "st":
		secs, err := strconv.ParseFloat(value, 64)
		if err != nil || !(secs > 0 && secs <= 1e6) {
			return true, fmt.Errorf("st=%s: want seconds a move, more than 0 (fastchess's and cutechess's st)", value)
		}
		e.MoveTime = time.Duration(secs * float64(time.Second))
	case "tc":
		if value == "inf" {
			return false, nil // no clock: another limit bounds the search
		}
		tc, err := tournament.ParseTimeControl(value)
		if err != nil {
			return true, err
		}
		e.TC = &tc
	default:
		return false, e.setSupervision(key, value)
	}
	return true, nil
}

// setSupervision sets restart, timemargin or stall.
func (e *Spec) setSupervision(key, value string) error {
	switch key {
	case "restart":
		if value != "on" && value != "off" {
			return fmt.Errorf("restart=%s: want on or off", value)
		}
		e.Restart = value == "on"
	case "timemargin":
		d, err := millis(value)
		if err != nil || d < 0 {
			return fmt.Errorf("timemargin=%s: want milliseconds", value)
		}
		e.TimeMargin = d
	case "stall":
		d, err := millis(value)
		if err != nil || d <= 0 {
			return fmt.Errorf("stall=%s: want milliseconds, more than 0", value)
		}
		e.Stall = d
	default:
		return fmt.Errorf("unknown key %q (keys: cmd, proto, name, arg, dir, option.NAME, depth, nodes, movetime, st, tc, restart, timemargin, stall)", key)
	}
	return nil
}

// complete checks a parsed spec as a whole, given how many limits it set,
// and names it after its command when it has no name.
func (e *Spec) complete(limits int) error {
	if e.Command == "" {
		return errors.New("cmd= is missing")
	}
	if e.Protocol == "" {
		e.Protocol = ProtocolUCI // fastchess's and cutechess's default
	}
	if limits > 1 {
		return fmt.Errorf("give one of depth=, nodes=, movetime= (or st=) or tc=, not %d", limits)
	}
	switch {
	case e.Protocol == ProtocolUCI && limits == 0:
		return errors.New("a UCI engine needs depth=, nodes=, movetime= or tc=")
	case e.Protocol == ProtocolXboard && limits == 0:
		return errors.New("an xboard engine needs depth=, movetime=, nodes= or tc=")
	case e.Protocol == ProtocolXboard && e.MoveTime%time.Second != 0:
		return fmt.Errorf("movetime=%d: xboard's st takes whole seconds (movetime=1000, st=1)", e.MoveTime.Milliseconds())
	case e.Protocol == ProtocolGTP && (e.Depth > 0 || e.Nodes > 0 || e.MoveTime > 0):
		return errors.New("GTP has no depth, node or movetime limit: use tc=, or the engine's own level through arg=")
	}
	if e.Name == "" {
		e.Name = filepath.Base(e.Command)
	}
	return nil
}

// millis reads a number of milliseconds.
func millis(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > 1<<40 {
		return 0, errors.New("not milliseconds")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// check refuses an option whose name or value holds a control character:
// UCI's setoption is one line, and a newline would smuggle in a second
// command.
func (o Option) check() error {
	if i := controlIndex(o.Name); i >= 0 {
		return fmt.Errorf("option.%s: its name holds the control character %q at byte %d (names and values are one line of printable text)", sanitize(o.Name), o.Name[i], i)
	}
	if i := controlIndex(o.Value); i >= 0 {
		return fmt.Errorf("option.%s=%s: its value holds the control character %q at byte %d (names and values are one line of printable text)", o.Name, sanitize(o.Value), o.Value[i], i)
	}
	return nil
}

// controlIndex is the index of the first control character of s (below
// 0x20, or 0x7f), or -1.
func controlIndex(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return i
		}
	}
	return -1
}
