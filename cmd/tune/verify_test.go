package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// TestVerifyShown (issue 26): tune run from a start file that the run's
// best beats with confidence ends with a verification at depth + 2, which
// its result, tune show (text and --json) and tune runs (text and --json)
// report; with --verify off none is played; a bad --verify,
// --verify-bounds or --verify-pairs is refused saying what is accepted.
// Tic-tac-toe from weights that seek the opponent's lines, whose
// verification reaches its cap undecided.
func TestVerifyShown(t *testing.T) {
	root := t.TempDir()
	start := filepath.Join(root, "start.json")
	if err := os.WriteFile(start, []byte(`{"game": "tictactoe", "evaluator": "lines", "weights": {"open-mine": -5, "open-theirs": 5, "threats-mine": -5, "threats-theirs": 5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--game", "tictactoe", "--algo", "knockout", "--depth", "1", "--openings", "random:3", "--seed", "3", "--candidates", "6", "--rounds", "3",
		"--best-of", "2", "--scale", "1", "--yardstick-pairs", "0", "--ladder-pairs", "8", "--start", start, "--quiet"}
	dir := filepath.Join(root, "runs", "verified")
	code, out, errOut := tune(t, "", append(args, "--out", dir)...)
	const verdict = "verification: defaults against the start at depth 3: inconclusive (no bound crossed in 100 pairs)"
	if code != 0 || !strings.Contains(out, verdict) {
		t.Fatalf("run: exit %d, %s\n%s", code, out, errOut)
	}
	if _, out, _ := tune(t, "", "show", dir); !strings.Contains(out, verdict) {
		t.Errorf("show lacks the verification:\n%s", out)
	}
	var show struct {
		Best         results.BestJSON          `json:"best"`
		Verification *results.VerificationJSON `json:"verification"`
	}
	_, out, _ = tune(t, "", "show", dir, "--json")
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatal(err)
	}
	if v := show.Verification; v == nil || v.Verdict != population.VerdictInconclusive || v.Best != "defaults" || v.Reference != "start" || v.Depth != 3 ||
		v.Pairs != 100 || v.MaxPairs != 100 || v.Played != 200 || v.Elo0 != 0 || v.Elo1 != 10 || v.Model != "normalized" || show.Best.Verified != population.VerdictInconclusive {
		t.Errorf("show --json: %+v, best verified %q", v, show.Best.Verified)
	}
	if _, out, _ := tune(t, "", "runs", filepath.Join(root, "runs")); !strings.Contains(out, "over the start; verified: inconclusive") {
		t.Errorf("runs does not say the best was verified:\n%s", out)
	}
	var runs []results.RunLineJSON
	_, out, _ = tune(t, "", "runs", filepath.Join(root, "runs"), "--json")
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 || runs[0].Best == nil || runs[0].Best.Verified != population.VerdictInconclusive {
		t.Errorf("runs --json: %v %s", err, out)
	}

	off := filepath.Join(root, "off")
	code, out, errOut = tune(t, "", append(args, "--out", off, "--verify", "off")...)
	if code != 0 || strings.Contains(out, "verification") || !strings.Contains(out, "best: ") {
		t.Fatalf("--verify off: exit %d, %s\n%s", code, out, errOut)
	}
	r, err := results.OpenReadOnly(off)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n, _ := r.CountGames(population.StageVerify, 0); n != 0 {
		t.Errorf("--verify off played %d verification games", n)
	}

	for _, c := range []struct{ flag, value, says string }{
		{"--verify", "always", `verify "always": auto (verify a confident best at a deeper search) or off`},
		{"--verify-bounds", "5,0", `verify-bounds: bad SPRT "5,0": elo0 (5) must be below elo1 (0)`},
		{"--verify-pairs", "-3", "verify-pairs -3: 1 to 100000 pairs, or 0 for a twentieth of the run's games"},
	} {
		code, _, errOut := tune(t, "", append(args, "--out", filepath.Join(root, "bad"), c.flag, c.value)...)
		if code != exitUsage || !strings.Contains(errOut, c.says) {
			t.Errorf("%s %s: exit %d, %q; want %q", c.flag, c.value, code, errOut, c.says)
		}
	}
}
