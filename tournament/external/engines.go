package external

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"gopkg.in/yaml.v3"
)

// Engines are the engine specs of an engines file, by name (see
// ParseEngines). A spec is parsed when a player names it.
type Engines map[string]string

// entry is one engine of an engines file, the keys of a spec as YAML
// fields.
type entry struct {
	Name       string         `yaml:"name"`
	Cmd        string         `yaml:"cmd"`
	Proto      string         `yaml:"proto"`
	Args       []string       `yaml:"args"`
	Dir        string         `yaml:"dir"`
	Options    map[string]any `yaml:"options"`
	Depth      string         `yaml:"depth"`
	Nodes      string         `yaml:"nodes"`
	MoveTime   string         `yaml:"movetime"`
	TC         string         `yaml:"tc"`
	Restart    string         `yaml:"restart"`
	TimeMargin string         `yaml:"timemargin"`
	Stall      string         `yaml:"stall"`
}

// spec writes the entry as a spec, in Parse's form.
func (e entry) spec() string {
	kv := []string{"cmd=" + quoteValue(e.Cmd), "proto=" + e.Proto}
	if e.Name != "" {
		kv = append(kv, "name="+quoteValue(e.Name))
	}
	for _, a := range e.Args {
		kv = append(kv, "arg="+quoteValue(a))
	}
	if e.Dir != "" {
		kv = append(kv, "dir="+quoteValue(e.Dir))
	}
	names := make([]string, 0, len(e.Options))
	for n := range e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		kv = append(kv, "option."+n+"="+quoteValue(fmt.Sprint(e.Options[n])))
	}
	for _, f := range []struct{ key, value string }{{"depth", e.Depth}, {"nodes", e.Nodes}, {"movetime", e.MoveTime}, {"tc", e.TC}, {"restart", e.Restart}, {"timemargin", e.TimeMargin}, {"stall", e.Stall}} {
		if f.value != "" {
			kv = append(kv, f.key+"="+f.value)
		}
	}
	return strings.Join(kv, ",")
}

// ParseEngines reads an engines file: a YAML list of engines, each named,
// with the keys of a spec as fields:
//
//   - name: sf1800
//     cmd: /usr/games/stockfish
//     proto: uci
//     args: [--flag]
//     options: {UCI_LimitStrength: true, UCI_Elo: 1800}
//     depth: 8
//
// An empty file lists no engine. A JSON array is read as cutechess's
// engines.json (ParseEnginesJSON).
func ParseEngines(data []byte) (Engines, error) {
	if IsEnginesJSON(data) {
		return ParseEnginesJSON(data)
	}
	var entries []entry
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&entries); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w (want a list of engines with name, cmd, proto, args, dir, options, depth|nodes|movetime|tc, restart, timemargin, stall)", err)
	}
	out := Engines{}
	for i, e := range entries {
		if e.Name == "" {
			return nil, fmt.Errorf("engine %d has no name", i+1)
		}
		if _, dup := out[e.Name]; dup {
			return nil, fmt.Errorf("two engines are named %q", e.Name)
		}
		if e.Cmd == "" {
			return nil, fmt.Errorf("engine %d (%q) has no cmd", i+1, e.Name)
		}
		out[e.Name] = e.spec()
	}
	return out, nil
}

// Player resolves a player spec s that names an external engine (a cmd=...
// spec, a name of en, or "engine:NAME") and checks it before any game
// (Check: the command, the protocol, the options the engine lists). ok is
// false when s names no external engine. Errors the user must fix wrap
// ErrSpec.
func (en Engines) Player(ctx context.Context, g games.Game, s string) (pl tournament.Player, ok bool, err error) {
	return en.player(ctx, g, s, Each{})
}

// player is Player with each applied to the engine's spec (Each.Apply).
func (en Engines) player(ctx context.Context, g games.Game, s string, each Each) (pl tournament.Player, ok bool, err error) {
	if spec, found := en[s]; found {
		s = spec
	} else if spec, found := en[strings.TrimPrefix(s, "engine:")]; found {
		s = spec
	}
	if !IsSpec(s) {
		return tournament.Player{}, false, nil
	}
	if s, err = each.Apply(s); err != nil {
		return tournament.Player{}, true, err
	}
	e, err := Parse(s)
	if err != nil {
		return tournament.Player{}, true, err
	}
	if err := Check(ctx, g, e, nil); err != nil {
		return tournament.Player{}, true, err
	}
	return tournament.Player{Name: e.Name, Engine: e}, true, nil
}
