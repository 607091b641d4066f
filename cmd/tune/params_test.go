package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// TestRunRefusesOutOfRangeParams: tune run --tune-engine with a --params
// line whose range no store or engine option can hold (the reported line
// "Foo, int, 5, -1e308, 1e308, 1, 0.002") exits with the usage status and
// a message naming the file, the line, the field and the bounds, before
// the engine is started or the run directory made (the engine named is a
// script that only exits).
func TestRunRefusesOutOfRangeParams(t *testing.T) {
	dir := t.TempDir()
	params := filepath.Join(dir, "params.txt")
	if err := os.WriteFile(params, []byte("# the options\nFoo, int, 5, -1e308, 1e308, 1, 0.002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	spec := "cmd=" + notAnEngine(t, dir) + ",proto=uci,depth=1"
	code, stdout, errOut := tune(t, "", "run", "--game", "chess", "--tune-engine", spec, "--params", params, "--out", out, "--quiet")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d (usage); stdout %q stderr %q", code, exitUsage, stdout, errOut)
	}
	for _, want := range []string{params, "line 2", "Foo", "min -1e+308", "-2147483647 to 2147483647"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the message %q does not say %q", errOut, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the refused run left its directory (%v)", err)
	}
}

// TestRunConfigFlagNames: a config file may name every setting by its
// flag: positions, positions-from and params are taken (a Texel run on
// tic-tac-toe fits on the positions and the other run's games; the params
// file is read and checked, its bad line refused with its name).
func TestRunConfigFlagNames(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--game", "tictactoe", "--depth", "2", "--yardstick-pairs", "0", "--ladder-pairs", "-1", "--quiet"}
	first := filepath.Join(dir, "first")
	if code, _, errOut := tune(t, "", append([]string{"run", "--population", "4", "--generations", "1", "--games", "1", "--out", first}, base...)...); code != 0 {
		t.Fatal(errOut)
	}
	positions := filepath.Join(dir, "positions.epd")
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("positions.epd", "xx-oo---- [1.0]\nx--o----- c9 \"1/2-1/2\";\n")
	config := write("texel.yaml", "algo: texel\ntexel-rounds: 1\ntexel-games: 2\npositions: "+positions+"\npositions-from: ["+first+"]\n")
	run := filepath.Join(dir, "texel")
	if code, _, errOut := tune(t, "", append([]string{"run", "--config", config, "--out", run}, base...)...); code != 0 {
		t.Fatalf("a config with positions and positions-from: exit %d %s", code, errOut)
	}
	r, err := results.OpenReadOnly(run)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := population.ParseConfig(r.Config())
	r.Close()
	if err != nil || recorded.TexelPositions != positions || !slices.Equal(recorded.TexelPositionsFrom, []string{first}) {
		t.Fatalf("the recorded config has texel-positions %q, texel-positions-from %q (%v)", recorded.TexelPositions, recorded.TexelPositionsFrom, err)
	}
	params := write("params.txt", "Foo,5,0,10,20,0.0020\n")
	config = write("engine.yaml", "tune-engine: cmd="+notAnEngine(t, dir)+",proto=uci,depth=1\nparams: "+params+"\n")
	bad := filepath.Join(dir, "bad")
	code, _, errOut := tune(t, "", "run", "--game", "chess", "--config", config, "--out", bad, "--quiet")
	if code != exitUsage || !strings.Contains(errOut, params) || !strings.Contains(errOut, "c_end 20") {
		t.Fatalf("a config's params file with a bad line: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("the refused run left its directory (%v)", err)
	}
}

// notAnEngine writes an executable script in dir that exits at once, and
// returns its path: an engine spec's command that exists.
func notAnEngine(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "not-an-engine")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
