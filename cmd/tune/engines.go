package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"gopkg.in/yaml.v3"
)

// engineEntry is one engine of an --engines file, the keys of an engine
// spec as YAML fields:
//
//   - name: sf1800
//     cmd: /usr/games/stockfish
//     proto: uci
//     args: [--flag]
//     options: {UCI_LimitStrength: true, UCI_Elo: 1800}
//     depth: 8
type engineEntry struct {
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

// spec writes the entry as an engine spec.
func (e engineEntry) spec() string {
	kv := []string{"cmd=" + e.Cmd, "proto=" + e.Proto}
	if e.Name != "" {
		kv = append(kv, "name="+e.Name)
	}
	for _, a := range e.Args {
		kv = append(kv, "arg="+a)
	}
	if e.Dir != "" {
		kv = append(kv, "dir="+e.Dir)
	}
	names := make([]string, 0, len(e.Options))
	for n := range e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		kv = append(kv, fmt.Sprintf("option.%s=%v", n, e.Options[n]))
	}
	for _, f := range []struct{ key, value string }{{"depth", e.Depth}, {"nodes", e.Nodes}, {"movetime", e.MoveTime}, {"tc", e.TC}, {"restart", e.Restart}, {"timemargin", e.TimeMargin}, {"stall", e.Stall}} {
		if f.value != "" {
			kv = append(kv, f.key+"="+f.value)
		}
	}
	return strings.Join(kv, ",")
}

// readEngines reads an --engines file: a YAML list of engines, each
// named, returned as engine specs by name.
func readEngines(path string) (map[string]string, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engines: %w", err)}
	}
	var entries []engineEntry
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&entries); err != nil && !errors.Is(err, io.EOF) {
		return nil, usageError{fmt.Errorf("--engines %s: %w (want a list of engines with name, cmd, proto, args, dir, options, depth|nodes|movetime|tc, restart, timemargin, stall)", path, err)}
	}
	out := map[string]string{}
	for i, e := range entries {
		if e.Name == "" {
			return nil, usageError{fmt.Errorf("--engines %s: engine %d has no name", path, i+1)}
		}
		if _, dup := out[e.Name]; dup {
			return nil, usageError{fmt.Errorf("--engines %s: two engines are named %q", path, e.Name)}
		}
		out[e.Name] = e.spec()
	}
	return out, nil
}

// externalPlayer resolves a player SPEC that names an external engine (a
// cmd=... spec, or a name from the --engines file) and checks it before
// any game: the command, the protocol, the options the engine lists.
// ok is false when spec is not an external engine.
func externalPlayer(ctx context.Context, g games.Game, spec string, engines map[string]string) (pl tournament.Player, ok bool, err error) {
	if s, found := engines[spec]; found {
		spec = s
	} else if s, found := engines[strings.TrimPrefix(spec, "engine:")]; found {
		spec = s
	}
	if !tournament.IsEngineSpec(spec) {
		return tournament.Player{}, false, nil
	}
	e, err := tournament.ParseEngineSpec(spec)
	if err != nil {
		return tournament.Player{}, true, usageError{err}
	}
	if err := tournament.CheckEngine(ctx, g, e, nil); err != nil {
		if errors.Is(err, tournament.ErrEngineSpec) {
			return tournament.Player{}, true, usageError{err}
		}
		return tournament.Player{}, true, err
	}
	return tournament.Player{Name: e.Name, Engine: &e}, true, nil
}

// engineLog opens the file the external engines' stderr goes to: path,
// or a new file in the temporary directory when path is empty.
func engineLog(path string, stderr io.Writer) (*os.File, error) {
	if path == "" {
		f, err := os.CreateTemp("", "gametune-engines-"+time.Now().Format("20060102-150405")+"-*.log")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "engine stderr goes to %s\n", f.Name())
		return f, nil
	}
	f, err := os.OpenFile(filepath.Clean(path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-log: %w", err)}
	}
	return f, nil
}
