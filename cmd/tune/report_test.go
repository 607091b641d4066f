package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/weights"
)

// writeWeightsFile writes the defaults of game's evaluator as a weights
// file in dir.
func writeWeightsFile(t *testing.T, dir, game, evaluator string) string {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, evaluator)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, evaluator+".json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := weights.Write(f, g, ev, ev.Defaults(), nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportWeightsTables: tune report --weights FILE --game G writes the
// page of the file's tables beside it, refuses to replace it without
// --force, writes -o where told, and refuses, with exit 2, files of
// evaluators without tables and incomplete command lines.
func TestReportWeightsTables(t *testing.T) {
	dir := t.TempDir()
	file := writeWeightsFile(t, dir, "othello", "patterns")
	code, out, errOut := tune(t, "", "report", "--weights", file, "--game", "othello")
	if code != 0 || strings.TrimSpace(out) != file+".html" {
		t.Fatalf("exit %d, out %q: %s", code, out, errOut)
	}
	page, err := os.ReadFile(file + ".html")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(page); !strings.Contains(s, `<section id="tables">`) || strings.Count(s, "<svg ") < 8+11 || !strings.Contains(s, "Tables of patterns.json (othello/patterns)") {
		t.Errorf("the page:\n%.600s", s)
	}
	code, _, errOut = tune(t, "", "report", "--weights", file, "--game", "othello")
	if code != 2 || !strings.Contains(errOut, "--force") {
		t.Errorf("again: exit %d: %s", code, errOut)
	}
	if code, _, errOut = tune(t, "", "report", "--weights", file, "--game", "othello", "--force"); code != 0 {
		t.Errorf("--force: exit %d: %s", code, errOut)
	}
	other := filepath.Join(dir, "other.html")
	if code, out, errOut = tune(t, "", "report", "--weights", file, "--game", "othello", "-o", other); code != 0 || strings.TrimSpace(out) != other {
		t.Errorf("-o: exit %d, out %q: %s", code, out, errOut)
	}
	if _, err := os.Stat(other); err != nil {
		t.Error(err)
	}
	full := writeWeightsFile(t, dir, "othello", "full")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--weights", full, "--game", "othello"}, "without tables"},
		{[]string{"--weights", file}, "needs both --weights FILE and --game GAME"},
		{[]string{"--weights", file, "--game", "chess"}, `not "chess"`},
		{[]string{dir, "--weights", file, "--game", "othello"}, "not both"},
		{[]string{"--game", "othello"}, "needs both"},
		{nil, "give a run directory"},
	} {
		code, _, errOut := tune(t, "", append([]string{"report"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("report %v: exit %d, %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(full + ".html"); err == nil {
		t.Error("a page was written for weights without tables")
	}
}
