package external

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// Each is fastchess's and cutechess-cli's -each: settings applied to
// every external engine of a contest, each engine's own setting winning
// (see ParseEach and Apply). The zero Each sets nothing.
type Each struct {
	fields []eachField
}

// eachField is one KEY=VALUE of an Each, as given (quotes kept).
type eachField struct {
	key, raw string
}

// eachKeys lists the keys an Each may set, for its errors.
const eachKeys = "tc, st, depth, nodes, movetime, option.NAME, proto, restart, timemargin, stall"

// limitKeys are the keys of a spec's one limit.
var limitKeys = map[string]bool{"depth": true, "nodes": true, "movetime": true, "st": true, "tc": true}

// ParseEach reads settings for every engine, in a spec's form:
//
//	tc=10+0.1,option.Hash=16
//
// Keys: tc, st, depth, nodes, movetime (at most one of these), option.NAME
// (repeatable), proto, restart, timemargin and stall, with the values Parse
// takes. cmd, name, arg and dir belong to each engine and are refused. An
// empty s sets nothing. Its errors wrap ErrSpec.
func ParseEach(s string) (Each, error) {
	bad := func(err error) (Each, error) {
		return Each{}, fmt.Errorf("%w: each %q: %v", ErrSpec, s, err)
	}
	fields, err := splitSpec(s)
	if err != nil {
		return bad(err)
	}
	var out Each
	seen := map[string]bool{}
	limits := 0
	for _, kv := range fields {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return bad(fmt.Errorf("%q is not KEY=VALUE", kv))
		}
		name := key
		if o, isOption := strings.CutPrefix(key, "option."); isOption {
			name = "option." + strings.ToLower(o) // UCI compares names without case
		}
		if seen[name] {
			return bad(fmt.Errorf("%s is given twice", key))
		}
		seen[name] = true
		if limitKeys[key] {
			if limits++; limits > 1 {
				return bad(errors.New("give one of depth=, nodes=, movetime=, st= or tc=, not two"))
			}
		}
		if err := checkEachValue(key, value); err != nil {
			return bad(err)
		}
		out.fields = append(out.fields, eachField{key: key, raw: kv})
	}
	return out, nil
}

// checkEachValue checks one setting of an Each with Parse's own checks.
func checkEachValue(key, value string) error {
	if i := controlIndex(key + "=" + value); i >= 0 {
		return fmt.Errorf("%s holds the control character %q: settings are one line of printable text", sanitize(key), (key + "=" + value)[i])
	}
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	if strings.Contains(value, `"`) {
		return fmt.Errorf("%s: a value may be wrapped in double quotes but cannot hold one", key)
	}
	var e Spec
	switch {
	case key == "cmd" || key == "name" || key == "arg" || key == "dir":
		return fmt.Errorf("%s= belongs to each engine; each sets %s", key, eachKeys)
	case key == "proto" || strings.HasPrefix(key, "option."):
		_, err := e.setProcess(key, value)
		return err
	case limitKeys[key] || key == "restart" || key == "timemargin" || key == "stall":
		_, err := e.setLimit(key, value)
		return err
	}
	return fmt.Errorf("unknown key %q (each sets %s)", sanitize(key), eachKeys)
}

// IsZero reports whether e sets nothing.
func (e Each) IsZero() bool { return len(e.fields) == 0 }

// String writes e back in ParseEach's form.
func (e Each) String() string {
	raw := make([]string, len(e.fields))
	for i, f := range e.fields {
		raw[i] = f.raw
	}
	return strings.Join(raw, ",")
}

// Apply returns spec with e's settings added where spec has none of its
// own: an option spec sets (its name compared without case) is kept, and
// a limit (depth, nodes, movetime, st or tc other than tc=inf) in spec
// keeps all of e's limits out; tc=inf in spec keeps e's tc out only. spec
// is not parsed here: Parse reads the result.
func (e Each) Apply(spec string) (string, error) {
	if e.IsZero() {
		return spec, nil
	}
	fields, err := splitSpec(spec)
	if err != nil {
		return "", fmt.Errorf("%w %q: %v", ErrSpec, spec, err)
	}
	own := map[string]bool{}
	ownLimit := false
	for _, kv := range fields {
		key, value, _ := strings.Cut(strings.TrimSpace(kv), "=")
		if o, isOption := strings.CutPrefix(key, "option."); isOption {
			key = "option." + strings.ToLower(o)
		}
		own[key] = true
		if limitKeys[key] && !(key == "tc" && strings.Trim(value, `"`) == "inf") {
			ownLimit = true
		}
	}
	out := []string{spec}
	for _, f := range e.fields {
		key := f.key
		if o, isOption := strings.CutPrefix(key, "option."); isOption {
			key = "option." + strings.ToLower(o)
		}
		if own[key] || (limitKeys[key] && ownLimit) {
			continue
		}
		out = append(out, f.raw)
	}
	return strings.Join(out, ","), nil
}

// ApplyEach is ParseEach(each) then Apply(spec).
func ApplyEach(spec, each string) (string, error) {
	e, err := ParseEach(each)
	if err != nil {
		return "", err
	}
	return e.Apply(spec)
}

// PlayersEach is Players with each applied to the spec of every external
// engine among specs (a cmd= spec or a name of en) before it is parsed.
func (en Engines) PlayersEach(ctx context.Context, g games.Game, specs []string, each Each, builtin func(spec string) (tournament.Player, error)) (players []tournament.Player, anyExternal bool, err error) {
	players = make([]tournament.Player, len(specs))
	for i, s := range specs {
		pl, ok, err := en.player(ctx, g, s, each)
		switch {
		case err != nil:
			return nil, false, err
		case ok:
			anyExternal = true
		default:
			if pl, err = builtin(s); err != nil {
				return nil, false, err
			}
		}
		players[i] = pl
	}
	return players, anyExternal, nil
}
