package external

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
)

func TestParseEngines(t *testing.T) {
	en, err := ParseEngines([]byte(`
- name: sf1800
  cmd: /usr/games/stockfish
  proto: uci
  args: [--flag]
  options: {UCI_LimitStrength: true, UCI_Elo: 1800}
  depth: 8
- name: rhino
  cmd: gtp-rhino
  proto: gtp
  tc: "10+0.1"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Engines{
		"sf1800": "cmd=/usr/games/stockfish,proto=uci,name=sf1800,arg=--flag,option.UCI_Elo=1800,option.UCI_LimitStrength=true,depth=8",
		"rhino":  "cmd=gtp-rhino,proto=gtp,name=rhino,tc=10+0.1",
	}
	if len(en) != len(want) {
		t.Fatalf("%d engines, want %d: %v", len(en), len(want), en)
	}
	for name, spec := range want {
		if en[name] != spec {
			t.Errorf("%s: %q, want %q", name, en[name], spec)
		}
		if _, err := Parse(en[name]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if en, err := ParseEngines(nil); err != nil || len(en) != 0 {
		t.Errorf("empty file: %v %v", en, err)
	}
	for data, msg := range map[string]string{
		"- cmd: x\n  proto: uci\n":                   "has no name",
		"- name: a\n  cmd: x\n- name: a\n  cmd: y\n": "two engines are named",
		"- name: a\n  cmd: x\n  colour: white\n":     "want a list of engines",
		"name: a\n":                                  "want a list of engines",
	} {
		if _, err := ParseEngines([]byte(data)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", data, err, msg)
		}
	}
}

// TestEnginesPlayer: a built-in player spec is no engine; a name of the
// file, with or without "engine:", and a cmd= spec are, and a bad one is
// refused before any process starts.
func TestEnginesPlayer(t *testing.T) {
	g, _ := all.Find("chess")
	en := Engines{"bad": "cmd=/nonexistent/engine,proto=uci,depth=1"}
	for _, s := range []string{"default", "default:textbook", "w.json"} {
		if _, ok, err := en.Player(context.Background(), g, s); ok || err != nil {
			t.Errorf("%s: an engine (%v)", s, err)
		}
	}
	for _, s := range []string{"bad", "engine:bad", "cmd=/nonexistent/engine,proto=uci,depth=1"} {
		if _, ok, err := en.Player(context.Background(), g, s); !ok || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "no such file") {
			t.Errorf("%s: ok %v, error %v", s, ok, err)
		}
	}
	if _, ok, err := en.Player(context.Background(), g, "cmd=x,proto=uci"); !ok || !errors.Is(err, ErrSpec) {
		t.Errorf("a spec without a limit: ok %v, error %v", ok, err)
	}
}
