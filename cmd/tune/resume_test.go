package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildDir  string
)

// TestMain keeps the tests' files in memory where it can (memoryTempDir)
// and removes the binary the process tests built.
func TestMain(m *testing.M) {
	mem := memoryTempDir()
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	if mem != "" {
		os.RemoveAll(mem)
	}
	os.Exit(code)
}

// buildTune compiles the tune command once for the tests that run it as a
// real process.
func buildTune(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "tune-test-bin-")
		if buildErr != nil {
			return
		}
		builtBin = filepath.Join(buildDir, "tune")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// crashArgs is a small Othello run: 4 generations of 8 genomes, each with a
// yardstick match; a few seconds in all.
func crashArgs(out string, workers int) []string {
	return []string{"run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "8",
		"--generations", "4", "--games", "2", "--yardstick-pairs", "3", "--openings", "random:6",
		"--seed", "7", "--workers", strconv.Itoa(workers), "--quiet", "--out", out}
}

// waitFor polls the run's database until cond holds, then returns true;
// false if the process ended first.
func waitFor(t *testing.T, dir string, done <-chan error, cond func(r *results.Run) bool) bool {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return false
		default:
		}
		if r, err := results.OpenReadOnly(dir); err == nil {
			ok := cond(r)
			r.Close()
			if ok {
				return true
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("condition not reached in 60 s")
	return false
}

// runUntil starts bin with args and SIGKILLs it once cond holds. It reports
// whether the kill happened (the run may finish first).
func runUntil(t *testing.T, bin string, args []string, dir string, cond func(r *results.Run) bool) bool {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if waitFor(t, dir, done, cond) {
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
		return true
	}
	return false
}

func exportCSV(t *testing.T, bin, dir string) string {
	t.Helper()
	out, err := exec.Command(bin, "export", dir, "--format", "csv").Output()
	if err != nil {
		t.Fatalf("export %s: %v", dir, err)
	}
	return string(out)
}

func generations(t *testing.T, dir string) []population.Generation {
	t.Helper()
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.Generations()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestKillAndResume kills a real tune run with SIGKILL mid-generation,
// during a yardstick match and between generations, resumes it each time
// (with another number of workers), and checks that it ends with exactly
// the genomes, fitness values and best genome of an uninterrupted run.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs several processes")
	}
	bin := buildTune(t)
	root := t.TempDir()
	want := filepath.Join(root, "whole")
	if out, err := exec.Command(bin, crashArgs(want, 2)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}

	dir := filepath.Join(root, "killed")
	count := func(stage string, gen int) func(r *results.Run) bool {
		return func(r *results.Run) bool {
			n, err := r.CountGames(stage, gen)
			return err == nil && n >= 3
		}
	}
	closed := func(n int) func(r *results.Run) bool {
		return func(r *results.Run) bool {
			in, err := r.Info()
			return err == nil && in.Generations >= n
		}
	}
	kills := 0
	// Mid-generation 1.
	if runUntil(t, bin, crashArgs(dir, 2), dir, count(population.StageGeneration, 1)) {
		kills++
	}
	resume := func(workers int, cond func(r *results.Run) bool) {
		args := []string{"resume", dir, "--quiet", "--workers", strconv.Itoa(workers)}
		if runUntil(t, bin, args, dir, cond) {
			kills++
		}
	}
	// During the yardstick match of generation 1, resumed with 1 worker.
	resume(1, count(population.StageYardstick, 1))
	// Between generations: as soon as generation 2 (index 2) is closed.
	resume(2, closed(3))
	// To the end, with 1 worker.
	if out, err := exec.Command(bin, "resume", dir, "--quiet", "--workers", "1").CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	if kills < 2 {
		t.Fatalf("only %d of 3 kills landed before the run finished", kills)
	}
	if got, exp := exportCSV(t, bin, dir), exportCSV(t, bin, want); got != exp {
		t.Fatalf("resumed history differs from the uninterrupted one:\n%s\nwant:\n%s", got, exp)
	}
	a, b := generations(t, dir), generations(t, want)
	if len(a) != len(b) || a[len(a)-1].Best != b[len(b)-1].Best {
		t.Fatalf("best genome differs")
	}
	for i := range a {
		ya, yb := a[i].Yardstick, b[i].Yardstick
		if !reflect.DeepEqual(ya, yb) {
			t.Fatalf("generation %d: yardstick %+v, want %+v", i, ya, yb)
		}
	}
	t.Logf("%d kills, resumed to the identical result", kills)
}

// TestRunRefusesExistingDir: tune run never writes into an existing run.
func TestRunRefusesExistingDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o644)
	code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--out", dir)
	if code != exitUsage || !bytes.Contains([]byte(errOut), []byte("exists already")) {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mine.txt")); string(data) != "keep" {
		t.Fatal("the user's file was touched")
	}
}

// TestResumeRefusesChangedConfig: resuming with another config is refused
// and says what changed, unless --force.
func TestResumeRefusesChangedConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "2", "--games", "1", "--yardstick-pairs", "0", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "config.yaml"))
	changed := filepath.Join(t.TempDir(), "changed.yaml")
	os.WriteFile(changed, bytes.Replace(data, []byte("generations: 2"), []byte("generations: 3"), 1), 0o644)
	code, _, errOut := tune(t, "", "resume", dir, "--config", changed)
	if code != exitUsage || !strings.Contains(errOut, "generations: 2 -> 3") || !strings.Contains(errOut, "--force") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	same := filepath.Join(t.TempDir(), "same.yaml")
	os.WriteFile(same, data, 0o644)
	if code, out, errOut := tune(t, "", "resume", dir, "--config", same); code != 0 || !strings.Contains(out, "finished already") {
		t.Fatalf("same config: exit %d %s %s", code, out, errOut)
	}
	if code, _, errOut := tune(t, "", "resume", dir, "--config", changed, "--force", "--quiet"); code != 0 {
		t.Fatalf("forced: exit %d %s", code, errOut)
	}
	if code, out, _ := tune(t, "", "show", dir, "--json"); code != 0 || !strings.Contains(out, `"generations": 3`) {
		t.Fatalf("after the forced resume: %s", out)
	}
}

// TestExportReadByMatch: the json export of a run is a weights file that
// tune match and tune search read back, with the run's best weights; the
// other formats are written too, and never over an existing file.
func TestExportReadByMatch(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	if code, _, errOut := tune(t, "", "run", "--game", "kono", "--depth", "3", "--population", "4", "--generations", "2", "--games", "1", "--yardstick-pairs", "1", "--openings", "start", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	w := filepath.Join(root, "best.json")
	if code, _, errOut := tune(t, "", "export", dir, "--format", "json", "-o", w); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := tune(t, "", "match", "--game", "kono", "--a", w, "--b", "default", "--pairs", "2", "--openings", "start", "--depth", "3", "--json", "--quiet")
	if code != 0 || !strings.Contains(out, `"a": "`+w+`"`) {
		t.Fatalf("match --a %s: exit %d %s %s", w, code, out, errOut)
	}
	var show struct {
		Best struct {
			Weights map[string]float64 `json:"weights"`
		} `json:"best"`
	}
	_, showOut, _ := tune(t, "", "show", dir, "--json")
	if err := json.Unmarshal([]byte(showOut), &show); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(w)
	var file struct {
		Weights map[string]float64 `json:"weights"`
	}
	json.Unmarshal(data, &file)
	if len(file.Weights) != 2 || !reflect.DeepEqual(file.Weights, show.Best.Weights) {
		t.Fatalf("exported %v, the run's best %v", file.Weights, show.Best.Weights)
	}
	for _, f := range []string{"go", "c", "uci", "csv"} {
		out := filepath.Join(root, "best."+f)
		if code, _, errOut := tune(t, "", "export", dir, "--format", f, "-o", out); code != 0 {
			t.Fatalf("%s: %s", f, errOut)
		}
		if code, _, errOut := tune(t, "", "export", dir, "--format", f, "-o", out); code == 0 || !strings.Contains(errOut, "--force") {
			t.Fatalf("%s overwritten without --force: %s", f, errOut)
		}
	}
	if code, _, errOut := tune(t, "", "export", dir, "--format", "xml"); code != exitUsage || !strings.Contains(errOut, "json, go, c, uci, csv") {
		t.Fatalf("unknown format: %d %s", code, errOut)
	}
}

// TestRunInterrupted: Ctrl-C (SIGINT) stops a run with status 130 and the
// run marked interrupted; tune resume finishes it.
func TestRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(bin, crashArgs(dir, 2)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if !waitFor(t, dir, done, func(r *results.Run) bool {
		n, err := r.CountGames(population.StageGeneration, 0)
		return err == nil && n >= 4
	}) {
		t.Fatal("the run finished before it could be interrupted")
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := <-done
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want 130\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tune resume "+dir) {
		t.Errorf("no resume hint:\n%s", stderr.String())
	}
	r, _ := results.OpenReadOnly(dir)
	in, _ := r.Info()
	r.Close()
	if in.Status != "interrupted" {
		t.Fatalf("status %q, want interrupted", in.Status)
	}
	if out, err := exec.Command(bin, "resume", dir, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	r, _ = results.OpenReadOnly(dir)
	in, _ = r.Info()
	r.Close()
	if in.Status != "done" || in.Generations != 4 {
		t.Fatalf("after resume: %+v", in)
	}
}

// TestResumeForceKeepsTheGame: --force changes when a run stops, never the
// game, evaluator, algorithm or anything else the recorded games depend on.
func TestResumeForceKeepsTheGame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := tune(t, "", "run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--generations", "1", "--games", "1", "--yardstick-pairs", "0", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "config.yaml"))
	for _, c := range []struct{ from, to, key string }{
		{"game: tictactoe", "game: nim", "game"},
		{"algo: genetic", "algo: knockout", "algo"},
		{"depth: 1", "depth: 2", "depth"},
		{"seed: 1", "seed: 2", "seed"},
	} {
		if !bytes.Contains(data, []byte(c.from)) {
			t.Fatalf("config.yaml lacks %q:\n%s", c.from, data)
		}
		other := filepath.Join(t.TempDir(), "other.yaml")
		os.WriteFile(other, bytes.Replace(data, []byte(c.from), []byte(c.to), 1), 0o644)
		code, _, errOut := tune(t, "", "resume", dir, "--config", other, "--force")
		if code != exitUsage || !strings.Contains(errOut, "changes "+c.key) {
			t.Errorf("%s -> %s with --force: exit %d, %q; want refused naming %s", c.from, c.to, code, errOut, c.key)
		}
	}
	if code, out, _ := tune(t, "", "show", dir, "--json"); code != 0 || !strings.Contains(out, `"game": "tictactoe"`) {
		t.Fatalf("the run changed: %s", out)
	}
}

// TestExportRefusesLinks: export -o never replaces a symbolic link or a
// device, even with --force.
func TestExportRefusesLinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	if code, _, errOut := tune(t, "", "run", "--game", "nim", "--depth", "2", "--population", "4", "--generations", "1", "--games", "1", "--yardstick-pairs", "0", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	target := filepath.Join(root, "precious.txt")
	os.WriteFile(target, []byte("mine\n"), 0o644)
	link := filepath.Join(root, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	for _, out := range []string{link, "/dev/null"} {
		code, _, errOut := tune(t, "", "export", dir, "-o", out, "--force")
		if code != exitUsage || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("export -o %s --force: exit %d, %q; want refused", out, code, errOut)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if data, _ := os.ReadFile(target); string(data) != "mine\n" {
		t.Fatalf("the link's target holds %q", data)
	}
}

// TestBestAgrees: runs, show, export and the report name the same best
// genome, with and without a confident gain, and tune ladder replaces the
// run's ladder consistently.
func TestBestAgrees(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	if code, _, errOut := tune(t, "", "run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "8",
		"--generations", "4", "--games", "3", "--yardstick-pairs", "2", "--ladder-pairs", "4", "--seed", "3", "--out", dir, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	check := func(stage string) {
		t.Helper()
		var show struct {
			Choice struct {
				Label   string             `json:"label"`
				Summary string             `json:"summary"`
				Weights map[string]float64 `json:"weights"`
			} `json:"best"`
			Ladder *struct {
				Entries []json.RawMessage `json:"entries"`
			} `json:"ladder"`
		}
		_, out, _ := tune(t, "", "show", dir, "--json")
		if err := json.Unmarshal([]byte(out), &show); err != nil {
			t.Fatal(err)
		}
		if show.Ladder == nil || show.Choice.Label == "" {
			t.Fatalf("%s: show has no ladder or best: %s", stage, out)
		}
		var runs []struct {
			Best struct {
				Label   string             `json:"label"`
				Weights map[string]float64 `json:"weights"`
			} `json:"best"`
		}
		_, out, _ = tune(t, "", "runs", root, "--json")
		if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 1 {
			t.Fatalf("%s: runs: %v %s", stage, err, out)
		}
		_, out, _ = tune(t, "", "export", dir, "--format", "json")
		var file struct {
			Weights map[string]float64 `json:"weights"`
		}
		if err := json.Unmarshal([]byte(out), &file); err != nil {
			t.Fatal(err)
		}
		if runs[0].Best.Label != show.Choice.Label || !reflect.DeepEqual(runs[0].Best.Weights, show.Choice.Weights) || !reflect.DeepEqual(file.Weights, show.Choice.Weights) {
			t.Fatalf("%s: show %s %v, runs %s %v, export %v", stage, show.Choice.Label, show.Choice.Weights, runs[0].Best.Label, runs[0].Best.Weights, file.Weights)
		}
		if code, _, errOut := tune(t, "", "report", dir); code != 0 {
			t.Fatal(errOut)
		}
		page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
		if !strings.Contains(html.UnescapeString(string(page)), "Best: "+show.Choice.Summary) || !strings.Contains(string(page), `id="ladder"`) || !strings.Contains(string(page), `id="plot-elo"`) || !strings.Contains(string(page), "champion, by the ladder") {
			t.Fatalf("%s: the report does not name the best %q or lacks the ladder", stage, show.Choice.Summary)
		}
		t.Logf("%s: best %s", stage, show.Choice.Summary)
	}
	check("after the run")
	if code, out, errOut := tune(t, "", "ladder", dir, "--pairs", "6", "--quiet"); code != 0 || !strings.Contains(out, "best: ") {
		t.Fatalf("ladder: exit %d %s %s", code, out, errOut)
	}
	check("after tune ladder --pairs 6")
}
