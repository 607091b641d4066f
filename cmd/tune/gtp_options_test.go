package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGTPEngineOptions: option.NAME=V on a GTP engine goes through its
// GoGui parameter command (gametune's gametune-param), so that a tuner can
// set the Othello engine's search parameters as it sets a UCI engine's: a
// value in range plays, one out of range is refused by the engine (its
// games lost, the refusal in the engine log), a name the engine does not
// list and an engine without a parameter command are refused before any
// game.
func TestGTPEngineOptions(t *testing.T) {
	bin := buildTune(t)
	engine := "cmd=" + bin + ",arg=engine,arg=othello,arg=--depth,arg=2,proto=gtp,"
	logOf := regexp.MustCompile(`engine stderr goes to (\S+)`)
	play := func(option string) (int, string, string) {
		t.Helper()
		code, out, errOut := tune(t, "", "match", "--game", "othello", "--a", engine+option, "--b", "default",
			"--depth", "2", "--pairs", "1", "--openings", "random:4", "--seed", "3")
		log := ""
		if m := logOf.FindStringSubmatch(errOut); m != nil {
			data, _ := os.ReadFile(m[1])
			log = string(data)
			os.Remove(m[1])
		}
		return code, out, log
	}
	if code, out, log := play("option.lmr-base=100"); code != 0 || strings.Contains(log, "refused") || !strings.Contains(out, "W-D-L") {
		t.Errorf("lmr-base=100: exit %d, log %q\n%s", code, log, out)
	}
	code, out, log := play("option.lmr-base=9999")
	if code != 0 || !strings.Contains(log, `refused "gametune-param lmr-base 9999"`) || !strings.Contains(out, "0-0-2") {
		t.Errorf("lmr-base=9999: exit %d, log %q\n%s; want both games lost to the engine's refusal", code, log, out)
	}
	code, _, errOut := tune(t, "", "match", "--game", "othello", "--a", engine+"option.no-such=1", "--b", "default",
		"--depth", "2", "--pairs", "1")
	if code != exitUsage || !strings.Contains(errOut, `lists no option "no-such"`) || !strings.Contains(errOut, "lmr-base") {
		t.Errorf("an option the engine does not list: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(rhinoPath); err != nil {
		t.Skipf("%s is not installed (Debian's grhino): the engine without a parameter command is not tried", rhinoPath)
	}
	code, _, errOut = tune(t, "", "match", "--game", "othello", "--a", "cmd="+rhinoPath+",proto=gtp,arg=-l,arg=1,option.depth=3",
		"--b", "default", "--depth", "2", "--pairs", "1")
	if code != exitUsage || !strings.Contains(errOut, "GTP parameter command") {
		t.Errorf("gtp-rhino with an option: exit %d, %q", code, errOut)
	}
}

// TestRunTuneEngineGTP: SPSA tunes the Othello engine's search parameters
// through GTP (a short run at depth 3), and show and export name them.
func TestRunTuneEngineGTP(t *testing.T) {
	bin := buildTune(t)
	dir := t.TempDir()
	params := filepath.Join(dir, "params.txt")
	os.WriteFile(params, []byte("lmr-base, int, 75, 0, 300, 15, 0.004\nprobcut-threshold, int, 150, 0, 500, 15, 0.004\n"), 0o644)
	run := filepath.Join(dir, "run")
	code, out, errOut := tune(t, "", "run", "--game", "othello", "--algo", "spsa", "--params", params, "--budget-games", "8",
		"--tune-engine", "cmd="+bin+",proto=gtp,arg=engine,arg=othello,arg=--depth,arg=3", "--openings", "random:4",
		"--ladder-pairs", "-1", "--verify", "off", "--workers", "2", "--seed", "5", "--out", run)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	code, out, _ = tune(t, "", "export", run, "--format", "uci")
	if code != 0 || !strings.Contains(out, "setoption name lmr-base value ") || !strings.Contains(out, "setoption name probcut-threshold value ") {
		t.Fatalf("export: exit %d %q", code, out)
	}
}
