package external

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
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

// TestReadEngines: a file is read and parsed; a missing file and one that
// does not parse are errors naming it.
func TestReadEngines(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("- name: rhino\n  cmd: gtp-rhino\n  proto: gtp\n"), 0o644)
	os.WriteFile(bad, []byte("- cmd: x\n"), 0o644)
	if en, err := ReadEngines(good); err != nil || en["rhino"] != "cmd=gtp-rhino,proto=gtp,name=rhino" {
		t.Errorf("%v %v", en, err)
	}
	for path, want := range map[string]string{bad: "bad.yaml: engine 1 has no name", filepath.Join(dir, "none.yaml"): "none.yaml: no such file"} {
		if _, err := ReadEngines(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

// TestEnginesPlayers: built-in specs go to builtin, in order; a bad engine
// or a failing builtin stops the resolution with its error.
func TestEnginesPlayers(t *testing.T) {
	g, _ := all.Find("chess")
	en := Engines{"bad": "cmd=/nonexistent/engine,proto=uci,depth=1"}
	builtin := func(spec string) (tournament.Player, error) {
		if spec == "fail" {
			return tournament.Player{}, errors.New("no such player")
		}
		return tournament.Player{Name: "built-in " + spec}, nil
	}
	players, ext, err := en.Players(context.Background(), g, []string{"a", "b"}, builtin)
	if err != nil || ext || len(players) != 2 || players[0].Name != "built-in a" || players[1].Name != "built-in b" {
		t.Fatalf("%+v %v %v", players, ext, err)
	}
	if _, _, err := en.Players(context.Background(), g, []string{"a", "bad"}, builtin); !errors.Is(err, ErrSpec) {
		t.Errorf("bad engine: %v", err)
	}
	if _, _, err := en.Players(context.Background(), g, []string{"fail", "bad"}, builtin); err == nil || err.Error() != "no such player" {
		t.Errorf("failing builtin: %v", err)
	}
}

// TestOpenLog: a named log is appended to; no name makes a new file in
// the temporary directory.
func TestOpenLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "engines.log")
	for _, line := range []string{"one\n", "two\n"} {
		f, err := OpenLog(path)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, line)
		f.Close()
	}
	if data, _ := os.ReadFile(path); string(data) != "one\ntwo\n" {
		t.Errorf("%q", data)
	}
	t.Setenv("TMPDIR", t.TempDir())
	f, err := OpenLog("")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if dir, name := filepath.Split(f.Name()); filepath.Clean(dir) != os.TempDir() || !strings.HasPrefix(name, "gametune-engines-") || !strings.HasSuffix(name, ".log") {
		t.Errorf("temporary log %s", f.Name())
	}
}

// TestEnginesPlayersExternal: an engine of the file among built-in players
// is checked and reported.
func TestEnginesPlayersExternal(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	en := Engines{"test": "cmd=" + bin + ",proto=uci,name=test,depth=1"}
	players, ext, err := en.Players(context.Background(), g, []string{"default", "test"}, func(spec string) (tournament.Player, error) {
		return tournament.Player{Name: spec}, nil
	})
	if err != nil || !ext || players[0].Name != "default" || players[1].Name != "test" || players[1].Engine == nil {
		t.Fatalf("%+v %v %v", players, ext, err)
	}
}
