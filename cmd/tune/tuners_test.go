package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSPSAParamsBadInput: every bad parameter line is refused with its
// line number, exit 2, before a run directory is made.
func TestSPSAParamsBadInput(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		lines, want string
	}{
		{"open-mine, float, 1, -2, 4, 1, 0.002\nthreats-mine, float, 1, 3, 2, 1, 0.002\n", "line 2: threats-mine: min 3 > max 2"},
		{"open-mine, float, 1, -2, 4, 0, 0.002\n", "line 1: open-mine: c_end 0 must be > 0"},
		{"# comment\nkings, int, 1, 0, 4, 1, 0.002\n", `line 2: unknown parameter "kings"`},
		{"open-mine, float, 1, -2, 4, 1, 0.002\nopen-mine, float, 1, -2, 4, 1, 0.002\n", `line 2: parameter "open-mine" appears twice (first on line 1)`},
	} {
		file := filepath.Join(dir, "p"+string(rune('a'+i))+".txt")
		if err := os.WriteFile(file, []byte(tc.lines), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run"+string(rune('a'+i)))
		code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--algo", "spsa", "--spsa-params", file, "--out", out)
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, file) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.lines, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: a run directory was made", tc.lines)
		}
	}
	code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--algo", "spsa", "--budget-games", "1", "--out", filepath.Join(dir, "tiny"))
	if code != 2 || !strings.Contains(errOut, "too small for one SPSA iteration") {
		t.Errorf("budget of 1 game: exit %d, %q", code, errOut)
	}
}

// TestSPSARunCLI: a short SPSA run from a parameter file ends with a best.
func TestSPSARunCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "params.txt")
	os.WriteFile(file, []byte("open-mine, float, 1, -2, 4, 1, 0.5\n"), 0o644)
	code, out, errOut := tune(t, "", "--quiet", "run", "--game", "tictactoe", "--algo", "spsa", "--spsa-params", file,
		"--spsa-iterations", "8", "--spsa-block", "4", "--depth", "2", "--openings", "start", "--yardstick-pairs", "1", "--out", filepath.Join(dir, "run"))
	if code != 0 || !strings.Contains(out, "2 blocks") || !strings.Contains(out, "best:") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}
