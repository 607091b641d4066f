package external

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
)

// cutechessFile is an engines.json in the shape cutechess writes it
// (QJsonDocument, indented, keys sorted): a UCI engine with options of
// each type, a working directory, a command with arguments and init
// strings; an xboard engine with an init string; keys gametune ignores.
const cutechessFile = `[
    {
        "command": "./sf \"--threads 2\" -q",
        "initStrings": [
            "setoption name Contempt value 10"
        ],
        "name": "Stockfish 16",
        "options": [
            {
                "alias": "",
                "default": 16,
                "max": 33554432,
                "min": 1,
                "name": "Hash",
                "type": "spin",
                "value": 64
            },
            {
                "alias": "",
                "default": false,
                "name": "Ponder",
                "type": "check",
                "value": true
            },
            {
                "alias": "",
                "name": "Clear Hash",
                "type": "button"
            },
            {
                "alias": "",
                "default": "<empty>",
                "name": "SyzygyPath",
                "type": "text",
                "value": "/tb/a,/tb/b"
            }
        ],
        "ponder": true,
        "protocol": "uci",
        "restart": "on",
        "stderrFile": "",
        "variants": ["standard", "chess960"],
        "whitepov": false,
        "workingDirectory": "/opt/engines/sf"
    },
    {
        "command": "sloppy",
        "initStrings": ["memory 64"],
        "name": "Sloppy",
        "protocol": "xboard",
        "stderrFile": "",
        "workingDirectory": ""
    }
]
`

// TestParseEnginesJSON: cutechess's engines.json gives specs in Parse's
// form: the command split as cutechess splits it, the working directory,
// the options (buttons skipped) and the init strings that set options,
// UCI's and xboard's.
func TestParseEnginesJSON(t *testing.T) {
	want := Engines{
		"Stockfish 16": `cmd=./sf,proto=uci,name=Stockfish 16,arg=--threads 2,arg=-q,dir=/opt/engines/sf,option.Hash=64,option.Ponder=true,option.SyzygyPath="/tb/a,/tb/b",option.Contempt=10,restart=on`,
		"Sloppy":       "cmd=sloppy,proto=xboard,name=Sloppy,option.memory=64",
	}
	for _, parse := range []func([]byte) (Engines, error){ParseEnginesJSON, ParseEngines} {
		en, err := parse([]byte(cutechessFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(en) != len(want) {
			t.Fatalf("%d engines, want %d: %v", len(en), len(want), en)
		}
		for name, spec := range want {
			if en[name] != spec {
				t.Errorf("%s:\n got %s\nwant %s", name, en[name], spec)
			}
		}
	}
	e, err := Parse(want["Stockfish 16"] + ",tc=10+0.1")
	if err != nil {
		t.Fatal(err)
	}
	if e.Command != "./sf" || !slices.Equal(e.Args, []string{"--threads 2", "-q"}) || e.Dir != "/opt/engines/sf" || !e.Restart ||
		!slices.Equal(e.Options, []Option{{"Hash", "64"}, {"Ponder", "true"}, {"SyzygyPath", "/tb/a,/tb/b"}, {"Contempt", "10"}}) {
		t.Errorf("parsed %+v", e)
	}
	g, _ := all.Find("chess")
	for _, s := range []string{"Sloppy", "engine:Sloppy"} {
		_, ok, err := Engines(want).Player(context.Background(), g, s)
		if !ok || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "an xboard engine needs depth=") {
			t.Errorf("%s: ok %v, %v", s, ok, err)
		}
	}
}

// TestSplitCommand: cutechess's (QProcess's) split of a command line.
func TestSplitCommand(t *testing.T) {
	for cmd, want := range map[string][]string{
		"stockfish":                        {"stockfish"},
		"  /usr/games/stockfish   bench  ": {"/usr/games/stockfish", "bench"},
		`"/opt/my engine/e" -x "a b"`:      {"/opt/my engine/e", "-x", "a b"},
		`e a"b c"d`:                        {"e", "ab cd"},
		`e """quoted"""`:                   {"e", `"quoted"`},
		`e "" x`:                           {"e", "x"},
		"e\targ\nnext":                     {"e", "arg", "next"},
		"":                                 nil,
		`"`:                                nil,
	} {
		if got := splitCommand(cmd); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}

// TestParseEnginesJSONBad: each fault is refused with the engine named and
// what is accepted.
func TestParseEnginesJSONBad(t *testing.T) {
	for data, msg := range map[string]string{
		`{"name": "a"}`:                         "want cutechess's engines.json: a JSON array",
		`[1]`:                                   "engine 1: json: cannot unmarshal number",
		`[{"command": "x", "protocol": "uci"}]`: "engine 1 has no name",
		`[{"name": "a", "command": "x", "protocol": "uci"}, {"name": "a", "command": "y", "protocol": "uci"}]`: `two engines are named "a"`,
		`[{"name": "a", "command": "  ", "protocol": "uci"}]`:                                                  `engine 1 ("a"): command is empty`,
		`[{"name": "a", "command": "x", "protocol": "gtp"}]`:                                                   `engine 1 ("a"): protocol "gtp": cutechess's engines.json says uci or xboard`,
		`[{"name": "a", "command": "x"}]`:                                                                      `protocol "": cutechess's engines.json says uci or xboard`,
		`[{"name": "a", "command": "x", "protocol": "uci", "initStrings": ["debug on"]}]`:                      `init string "debug on": gametune sends options only`,
		`[{"name": "a", "command": "x", "protocol": "xboard", "initStrings": ["egtpath x y"]}]`:                `init string "egtpath x y": gametune sends options only, as init strings "option NAME=VALUE"`,
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "H", "value": null}]}]`:        `option "H": value is null`,
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "H", "value": [1]}]}]`:         `option "H": value is an object or an array`,
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "H"}]}]`:                       `option "H": has no value`,
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "", "value": 1}]}]`:            "an option has no name",
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "a=b", "value": 1}]}]`:         `option "a=b": a name holding a comma`,
		`[{"name": "a", "command": "x", "protocol": "uci", "options": [{"name": "P", "value": "a\"b"}]}]`:      `holds a double quote`,
		`[{"name": "a\nb", "command": "x", "protocol": "uci"}]`:                                                `name "a\nb" holds the control character '\n'`,
		`[{"name": "a", "command": "x", "protocol": "uci", "workingDirectory": 3}]`:                            "engine 1: json: cannot unmarshal number",
	} {
		if _, err := ParseEnginesJSON([]byte(data)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s:\n got %v\nwant %q", data, err, msg)
		}
	}
}

// TestReadEnginesJSON: a file named .json is read as cutechess's, as is a
// JSON array under any name; a YAML flow list stays YAML.
func TestReadEnginesJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	one := `[{"name": "e", "command": "e -x", "protocol": "uci", "futureKey": {"a": [1]}}]`
	for _, path := range []string{write("engines.json", one), write("engines.conf", "\xef\xbb\xbf\n"+one)} {
		if en, err := ReadEngines(path); err != nil || en["e"] != "cmd=e,proto=uci,name=e,arg=-x" {
			t.Errorf("%s: %v %v", path, en, err)
		}
	}
	if en, err := ReadEngines(write("flow.yaml", "[{name: y, cmd: e, proto: uci}]")); err != nil || en["y"] != "cmd=e,proto=uci,name=y" {
		t.Errorf("a YAML flow list: %v %v", en, err)
	}
	if _, err := ReadEngines(write("bad.json", "- name: y\n  cmd: e\n")); err == nil || !strings.Contains(err.Error(), "bad.json: not a JSON array (want cutechess's engines.json") {
		t.Errorf("YAML in a .json file: %v", err)
	}
	big := write("big.json", "["+strings.Repeat(" ", MaxEnginesFile)+"]")
	if _, err := ReadEngines(big); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a file over the bound: %v", err)
	}
}

// FuzzParseEnginesJSON: nothing panics, a file accepted is told as JSON
// by IsEnginesJSON, and every engine of it gives a spec that Parse reads
// back (with a limit added) under its own name.
func FuzzParseEnginesJSON(f *testing.F) {
	f.Add([]byte(cutechessFile))
	f.Add([]byte(`[{"name": " a,b ", "command": "\"x y\" \"\"\"", "protocol": "uci", "options": [{"name": "n", "value": 1e3}]}]`))
	f.Add([]byte(`[{"name": "a", "command": "x", "protocol": "uci", "initStrings": ["setoption name A value  b,c "]}]`))
	f.Add([]byte(`[{"name": "a", "command": "x", "protocol": "xboard", "initStrings": ["option A=b,c", "cores 2"]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		en, err := ParseEnginesJSON(data)
		if err != nil {
			return
		}
		if !IsEnginesJSON(data) {
			t.Fatalf("%q was read as engines.json but is not told as one", data)
		}
		for name, spec := range en {
			e, err := Parse(spec + ",depth=1")
			if err != nil {
				t.Fatalf("%s: spec %q does not parse: %v", name, spec, err)
			}
			if e.Name != name {
				t.Fatalf("spec %q names %q, not %q", spec, e.Name, name)
			}
		}
	})
}
