package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/learn"
	"github.com/gametune/gametune/weights"
)

// TestLearnCommand runs a tiny learn of Othello's patterns end to end: the
// rounds it prints, the positions file it appends to (the same with 1 and 2
// workers), the weights file it writes and never replaces without --force.
func TestLearnCommand(t *testing.T) {
	dir := t.TempDir()
	g, err := all.Find("othello")
	if err != nil {
		t.Fatal(err)
	}
	args := func(out, store, workers string) []string {
		return []string{"learn", "--game", "othello", "--evaluator", "patterns", "--budget-games", "40", "--rounds", "2",
			"--depth", "1", "--seed", "3", "--workers", workers, "-o", filepath.Join(dir, out), "--positions", filepath.Join(dir, store), "--json"}
	}
	code, stdout, stderr := tune(t, "", args("a.weights", "a.games", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s learn.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if len(s.Rounds) != 2 || s.Played != 40 || s.Game != "othello" || s.Evaluator != "patterns" {
		t.Fatalf("summary %+v", s)
	}
	if !strings.Contains(stderr, "learn: round 1: ") {
		t.Errorf("no progress line for round 1 in %q", stderr)
	}
	last := s.Rounds[1]
	set, err := learn.ReadPositionsFile(filepath.Join(dir, "a.games"), g)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Games) != last.Games || set.Positions() != last.Positions || last.Games != s.Rounds[0].SelfPlay+last.SelfPlay {
		t.Errorf("the positions file holds %d games, %d positions; the rounds say %+v", len(set.Games), set.Positions(), s.Rounds)
	}
	checkLearnedFile(t, g, filepath.Join(dir, "a.weights"), s)

	if code, _, stderr := tune(t, "", args("b.weights", "b.games", "2")...); code != 0 {
		t.Fatalf("2 workers: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.games"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.games"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the positions differ between 1 and 2 workers")
	}

	before, _ := os.ReadFile(filepath.Join(dir, "a.weights"))
	code, _, stderr = tune(t, "", args("a.weights", "a.games", "2")...)
	if code != 2 || !strings.Contains(stderr, "exists already (use --force to replace it)") {
		t.Errorf("an existing -o: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "a.games")); !bytes.Equal(after, a) {
		t.Error("a refused learn changed the positions file")
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "a.weights")); !bytes.Equal(after, before) {
		t.Error("a refused learn changed the weights file")
	}
	code, stdout, stderr = tune(t, "", append(args("a.weights", "a.games", "2")[:19], "--force", "-q")...)
	if code != 0 || !strings.Contains(stdout, "gate Elo [95%]") || !strings.Contains(stdout, "weights written to "+filepath.Join(dir, "a.weights")) || stderr != "" {
		t.Fatalf("--force: exit %d, %q, %q", code, stdout, stderr)
	}
	if set2, err := learn.ReadPositionsFile(filepath.Join(dir, "a.games"), g); err != nil || len(set2.Games) != 2*len(set.Games) {
		t.Errorf("a second learn on the positions file: %v, %d games (want %d)", err, len(set2.Games), 2*len(set.Games))
	}
	refitPositions(t, g, filepath.Join(dir, "a.games"), filepath.Join(dir, "c.weights"))
}

// refitPositions learns from a positions file with --gate-pairs 3 and a
// budget of 7 games: one round, one new self-play game, a gate of at most
// 3 pairs, a fit on every game of the file.
func refitPositions(t *testing.T, g games.Game, store, out string) {
	t.Helper()
	before, err := learn.ReadPositionsFile(store, g)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := tune(t, "", "learn", "--game", "othello", "--evaluator", "patterns", "--budget-games", "7", "--rounds", "1",
		"--gate-pairs", "3", "--depth", "1", "--seed", "4", "-o", out, "--positions", store, "--json", "-q")
	if code != 0 {
		t.Fatalf("--gate-pairs 3: exit %d: %s", code, stderr)
	}
	var s learn.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if len(s.Rounds) != 1 || s.Rounds[0].SelfPlay != 1 || s.Rounds[0].GatePairs < 1 || s.Rounds[0].GatePairs > 3 ||
		s.Rounds[0].Games != len(before.Games)+1 || s.Played != 1+2*s.Rounds[0].GatePairs {
		t.Errorf("--gate-pairs 3 --budget-games 7 on %d games: summary %+v", len(before.Games), s)
	}
	// The header's source holds the command's flags, to run it again.
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(zr).ReadBytes('\n')
	var h weights.TablesHeader
	if err != nil || json.Unmarshal(line, &h) != nil {
		t.Fatalf("header of %s: %v: %.200s", out, err, line)
	}
	want := map[string]any{"command": "learn", "seed": 4.0, "budget_games": 7.0, "depth": 1.0, "rounds": 1.0, "start": "default",
		"gate_pairs": 3.0, "epochs": 0.0, "rate": 0.0, "l2": 0.0, "lambda": 0.0, "games": float64(len(before.Games) + 1)}
	for k, v := range want {
		if h.Source[k] != v {
			t.Errorf("source %q is %v, want %v (source %v)", k, h.Source[k], v, h.Source)
		}
	}
}

// checkLearnedFile reads the weights file back: the patterns evaluator
// with the features' weights; when no round was kept, the start (the
// defaults, the tables all zero).
func checkLearnedFile(t *testing.T, g games.Game, path string, s learn.Summary) {
	t.Helper()
	ev, w, err := weights.Read(path, g)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "patterns" || len(w) != len(ev.Features) || len(ev.Data) != ev.TablesSize() {
		t.Fatalf("read back %s with %d weights for %d features, %d table values of %d", ev.Name, len(w), len(ev.Features), len(ev.Data), ev.TablesSize())
	}
	if s.Accepted == 0 {
		if !reflect.DeepEqual(w, ev.Defaults()) {
			t.Error("no round was kept, yet the weights are not the start's")
		}
		// The start's tables (the shipped ones), within the int16
		// encoding's half step.
		start, _ := games.FindEvaluator(g, "patterns")
		most := float32(0)
		for _, x := range start.Data {
			most = max(most, x, -x)
		}
		for i, x := range ev.Data {
			if d := x - start.Data[i]; d > most/32767 || d < -most/32767 {
				t.Fatalf("no round was kept, yet table value %d is %v, not the start's %v", i, x, start.Data[i])
			}
		}
	}
}

func TestLearnCommandRefusesBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w")
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"no tables":    {[]string{"--game", "tictactoe", "--evaluator", "", "--budget-games", "40", "-o", out}, `has no tables to learn (evaluators of tictactoe with tables: none)`},
		"no output":    {[]string{"--budget-games", "40"}, "-o FILE is required"},
		"no budget":    {[]string{"-o", out}, "--budget-games 0"},
		"small budget": {[]string{"--budget-games", "5", "-o", out, "--depth", "1"}, "too small for 4 rounds"},
		"depth":        {[]string{"--budget-games", "40", "-o", out, "--depth", "0"}, "--depth 0: want 1 to"},
		"rounds":       {[]string{"--budget-games", "40", "-o", out, "--rounds", "0"}, "--rounds 0"},
		"evaluator":    {[]string{"--evaluator", "nope", "--budget-games", "40", "-o", out}, "unknown evaluator"},
		"workers":      {[]string{"--budget-games", "40", "-o", out, "--workers", "-1"}, "--workers -1"},
		"lambda":       {[]string{"--budget-games", "40", "-o", out, "--lambda", "1.5"}, "score share (lambda) 1.5: want 0 to 1"},
		"tables":       {[]string{"--budget-games", "40", "-o", out, "--tables", "row2,rows"}, `no table "rows" to fit (its tables: edge+2X, corner3x3`},
		"gate pairs":   {[]string{"--budget-games", "40", "-o", out, "--gate-pairs", "-1"}, "gate pairs -1"},
		"small gate":   {[]string{"--budget-games", "6", "-o", out, "--rounds", "1", "--gate-pairs", "3"}, "give at least 7"},
		"bad store":    {[]string{"--budget-games", "40", "-o", out, "--depth", "1", "--positions", "learn.go"}, "not a positions file"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := tune(t, "", append([]string{"learn"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused learn wrote its output")
	}
}
