package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGenerationNumbersAgree runs a real tuning run and checks that the
// terminal's progress line and tune show's yardstick row name the same
// generation by the same number, counted from 1: each yardstick row of
// show ("  N  genome ...  +E Elo [L, H]") has a progress line "generation
// N/2: ..., yardstick +E Elo [L, H]" with the same rating, and the first
// generation is 1 in both.
func TestGenerationNumbersAgree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, progress := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "2",
		"--games", "1", "--yardstick-pairs", "1", "--yardstick-every", "1", "--ladder-pairs", "-1", "--out", dir)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, progress)
	}
	code, show, errOut := tune(t, "", "show", dir)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	terminal := map[string]string{} // generation number -> yardstick rating
	for _, m := range regexp.MustCompile(`generation (\d+)/2: .*, yardstick ([-+]\d+ Elo \[[^\]]*\])`).FindAllStringSubmatch(progress, -1) {
		terminal[m[1]] = m[2]
	}
	rows := regexp.MustCompile(`(?m)^  (\d+)\s+\d+\s+\d+\s+\d+-\d+-\d+\s+.*?([-+]\d+ Elo \[[^\]]*\])$`).FindAllStringSubmatch(show, -1)
	if len(rows) != 2 || len(terminal) != 2 {
		t.Fatalf("want 2 yardstick rows in show and 2 progress lines, got %d and %d:\n%s\n%s", len(rows), len(terminal), show, progress)
	}
	for _, r := range rows {
		if got, ok := terminal[r[1]]; !ok || got != r[2] {
			t.Errorf("show's generation %s has yardstick %q, the terminal's generation %s has %q (found %v):\n%s\n%s", r[1], r[2], r[1], got, ok, show, progress)
		}
	}
	if rows[0][1] != "1" || !strings.Contains(progress, "generation 1/2: ") {
		t.Errorf("the first generation is %s in show, want 1 as on the terminal:\n%s\n%s", rows[0][1], show, progress)
	}
}
