package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// TestRunOpponentsFlag: --opponents takes one spec a flag, or several
// separated by ';', in order; the run records them in its config, and
// tune show names them in the plan and in the yardstick's columns.
func TestRunOpponentsFlag(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errOut := tune(t, "", "--quiet", "run", "--game", "tictactoe", "--population", "4", "--generations", "1", "--games", "1",
		"--depth", "2", "--yardstick-pairs", "1", "--ladder-pairs", "-1", "--openings", "start",
		"--opponents", "default,depth=1; default:lines,depth=3", "--opponents", "default:lines,depth=2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.ReadConfig()
	r.Close()
	want := population.Specs{"default,depth=1", "default:lines,depth=3", "default:lines,depth=2"}
	if err != nil || !slices.Equal(cfg.Opponents, want) {
		t.Fatalf("recorded opponents %q (%v), want %q", cfg.Opponents, err, want)
	}
	code, out, _ := tune(t, "", "show", dir)
	for _, line := range []string{"opponent o2 default:lines,depth=3", "and 1 pairs against each of 3 opponents",
		"vs o1 default,depth=1", "vs o3 default:lines,depth=2"} {
		if code != 0 || !strings.Contains(out, line) {
			t.Errorf("tune show lacks %q:\n%s", line, out)
		}
	}
	_, out, _ = tune(t, "", "show", dir, "--json")
	var j results.RunJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || len(j.Opponents) != 3 || len(j.Yardstick) != 1 || len(j.Yardstick[0].Opponents) != 3 {
		t.Fatalf("tune show --json: %v\n%s", err, out)
	}
}

// TestOpponentsRefused: a tuner without a place for opponents, and an
// external opponent with a broker, are refused before a run directory
// is made, saying what is accepted.
func TestOpponentsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "knockout", "--opponents", "default"}, "algo knockout takes no opponents; genetic, spsa, cmaes and bayes do"},
		{[]string{"--opponents", "cmd=/bin/sh,proto=gtp", "--nats", "nats://127.0.0.1:1"}, "opponent 1 (sh): external engines play on the local pool only"},
		{[]string{"--opponents", "cmd=/bin/sh,proto=uci,depth=1"}, "proto=uci plays chess, not othello"},
	} {
		out := filepath.Join(dir, strconv.Itoa(len(tc.want)))
		code, _, errOut := tune(t, "", append([]string{"run", "--game", "othello", "--out", out}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: a run directory was made", tc.args)
		}
	}
}

// findRhino finds GRhino's GTP engine in PATH or /usr/games, or skips.
func findRhino(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a tuning run against gtp-rhino: skipped with -short")
	}
	for _, p := range []string{"gtp-rhino", "/usr/games/gtp-rhino"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("gtp-rhino is not installed (Debian package grhino: apt-get install grhino)")
	return ""
}

// TestOpponentsRhino: a short Othello run with GRhino's gtp-rhino (level
// 1, no book) as opponent records every genome's pair against it and the
// yardstick's; killed (SIGKILL) among those games and resumed with
// another number of workers, it ends with the generations and the export
// of an uninterrupted run; tune show names the opponent and its results.
func TestOpponentsRhino(t *testing.T) {
	rhino := findRhino(t)
	bin := buildTune(t)
	root := t.TempDir()
	args := func(out string, workers int) []string {
		return []string{"run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "4", "--generations", "2",
			"--games", "1", "--yardstick-pairs", "1", "--yardstick-every", "1", "--ladder-pairs", "-1", "--openings", "random:6", "--seed", "7",
			"--opponents", "cmd=" + rhino + ",proto=gtp,arg=-l,arg=1,arg=-b,arg=0", "--workers", strconv.Itoa(workers), "--quiet", "--out", out}
	}
	want := filepath.Join(root, "whole")
	if out, err := exec.Command(bin, args(want, 2)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	dir := filepath.Join(root, "killed")
	killed := runUntil(t, bin, args(dir, 2), dir, func(r *results.Run) bool {
		n, err := r.CountGames(population.StageOpponents, 1)
		return err == nil && n >= 3
	})
	if out, err := exec.Command(bin, "resume", dir, "--quiet", "--workers", "1").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if !killed {
		t.Fatal("the run finished before it was killed")
	}
	if got, exp := exportCSV(t, bin, dir), exportCSV(t, bin, want); got != exp {
		t.Fatalf("resumed history differs from the uninterrupted one:\n%s\nwant:\n%s", got, exp)
	}
	a, b := generations(t, dir), generations(t, want)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("resumed generations differ from the uninterrupted ones:\n%+v\nwant\n%+v", a, b)
	}
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	for gen := 0; gen < 2; gen++ {
		if n, err := r.CountGames(population.StageOpponents, gen); err != nil || n != 4*2 {
			t.Errorf("generation %d: %d games against gtp-rhino (%v), want a pair for each of 4 genomes", gen+1, n, err)
		}
		g, ok, err := r.Game(population.GameKey{Stage: population.StageOpponents, Generation: gen, Index: 1})
		if err != nil || !ok || g.First != population.OpponentID(0) || g.Record.Plies < 10 {
			t.Errorf("generation %d: game 1 against gtp-rhino: %+v %v %v", gen+1, g, ok, err)
		}
	}
	r.Close()
	out, err := exec.Command(bin, "show", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"opponent o1 gtp-rhino: cmd=" + rhino, "vs o1 gtp-rhino"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("tune show lacks %q:\n%s", line, out)
		}
	}
	y := a[len(a)-1].Yardstick
	if y == nil || len(y.VsOpponents) != 1 || y.VsOpponents[0].Games() != 2 {
		t.Fatalf("last yardstick %+v, want a pair against gtp-rhino", y)
	}
	t.Logf("last champion against gtp-rhino level 1: %d-%d-%d", y.VsOpponents[0].Wins, y.VsOpponents[0].Draws, y.VsOpponents[0].Losses)
}
