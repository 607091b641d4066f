package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lineProcess is a tune process whose standard error is read line by
// line as it comes, each line with the time since the start.
type lineProcess struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	lines  chan timedLine
	done   chan error
	start  time.Time
}

type timedLine struct {
	text string
	at   time.Duration
}

func startLines(t *testing.T, bin string, args ...string) *lineProcess {
	t.Helper()
	p := &lineProcess{cmd: exec.Command(bin, args...), lines: make(chan timedLine, 1000), done: make(chan error, 1)}
	p.cmd.Stdout = &p.stdout
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.lines <- timedLine{sc.Text(), time.Since(p.start)}
		}
		close(p.lines)
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() { p.cmd.Process.Kill() })
	return p
}

// next is the next line of standard error within timeout (ok false when
// the stream ended or the time passed).
func (p *lineProcess) next(timeout time.Duration) (timedLine, bool) {
	select {
	case l, ok := <-p.lines:
		return l, ok
	case <-time.After(timeout):
		return timedLine{}, false
	}
}

// wait waits for the process to end within timeout and returns its exit
// status, and the lines of standard error not read yet.
func (p *lineProcess) wait(t *testing.T, timeout time.Duration) (int, []string) {
	t.Helper()
	var rest []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if ok {
				rest = append(rest, l.text)
				continue
			}
			p.lines = nil
		case err := <-p.done:
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			return p.cmd.ProcessState.ExitCode(), rest
		case <-deadline:
			t.Fatalf("the process did not end within %s", timeout)
		}
	}
}

// TestSolveProgressAndInterrupt (issue 29, item 1): solving Othello's start
// (60 empties) says at once what it solves, prints a progress line within
// a few seconds though standard error is not a terminal, and on SIGINT
// stops at once with what it found (exit status 130).
func TestSolveProgressAndInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	p := startLines(t, buildTune(t), "solve", "othello")
	first, ok := p.next(5 * time.Second)
	if !ok || !strings.HasPrefix(first.text, "solving othello") || first.at > 2*time.Second {
		t.Fatalf("first line %q at %s, want 'solving othello ...' at once", first.text, first.at)
	}
	progress, ok := p.next(10 * time.Second)
	if !ok || !strings.HasPrefix(progress.text, "solve: depth ") || !strings.Contains(progress.text, "nodes/s") ||
		!strings.Contains(progress.text, "empties") || !strings.Contains(progress.text, "elapsed") {
		t.Fatalf("progress line %q at %s", progress.text, progress.at)
	}
	sent := time.Now()
	p.cmd.Process.Signal(syscall.SIGINT)
	code, rest := p.wait(t, 10*time.Second)
	if code != exitInterrupted || time.Since(sent) > 3*time.Second {
		t.Errorf("exit %d %s after SIGINT, want %d at once; stderr %q", code, time.Since(sent), exitInterrupted, rest)
	}
	if out := p.stdout.String(); !strings.HasPrefix(out, "unknown: stopped (interrupted) after depth ") || !strings.Contains(out, "best move so far") {
		t.Errorf("summary %q", out)
	}
}

// TestSolveBounds (issue 29, item 1): --nodes and --time stop a solve
// far from the end with an unknown value that says which bound came first
// (exit status 0), and bad bounds are usage errors.
func TestSolveBounds(t *testing.T) {
	code, out, errOut := tune(t, "", "solve", "othello", "--nodes", "200000", "--quiet")
	if code != exitOK || !strings.HasPrefix(out, "unknown: stopped (node limit) after depth ") {
		t.Errorf("--nodes: exit %d, %q %q", code, out, errOut)
	}
	start := time.Now()
	code, out, errOut = tune(t, "", "solve", "othello", "--time", "500ms", "--json", "--quiet")
	if code != exitOK || !strings.Contains(out, `"stopped": "time limit"`) || !strings.Contains(out, `"value": "unknown"`) || time.Since(start) > 10*time.Second {
		t.Errorf("--time: exit %d after %s, %q %q", code, time.Since(start), out, errOut)
	}
	for _, bad := range [][]string{{"--nodes", "-1"}, {"--time", "-1s"}, {"--progress-every", "0s"}} {
		if code, _, errOut := tune(t, "", append([]string{"solve", "othello"}, bad...)...); code != exitUsage {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
	// A bound that does not bind: tic-tac-toe is a draw.
	if code, out, _ := tune(t, "", "solve", "tictactoe", "--time", "1m", "--nodes", "100000000"); code != exitOK || !strings.HasPrefix(out, "draw") {
		t.Errorf("tictactoe: exit %d, %q", code, out)
	}
}

// smallRun is a small Othello run of gens generations, not quiet.
func smallRun(dir string, gens int) []string {
	return []string{"run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "8",
		"--generations", strconv.Itoa(gens), "--games", "2", "--yardstick-pairs", "2", "--openings", "random:6",
		"--seed", "7", "--workers", "1", "--out", dir}
}

// TestRunSaysPlanAtOnce (issue 29, item 2): a run's first line comes at
// once and says what it does (game, evaluator, method, length, workers),
// before the line closing the first generation, though standard error is
// not a terminal. (The time left is not said in a run's first second, when
// its pace is a game's or two: TestRunLeft and
// TestGamesLeftFromTheFirstGeneration in tuning hold it.)
func TestRunSaysPlanAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	p := startLines(t, buildTune(t), smallRun(filepath.Join(t.TempDir(), "run"), 2)...)
	first, ok := p.next(10 * time.Second)
	for _, want := range []string{"othello", "evaluator report", "genetic", "2 generations", "depth 2", "1 workers"} {
		if !ok || !strings.Contains(first.text, want) {
			t.Errorf("first line %q lacks %q", first.text, want)
		}
	}
	// At once: before any game on an idle machine; the bound is generous
	// so that a busy one passes.
	if first.at > 30*time.Second {
		t.Errorf("first line at %s, want it at once", first.at)
	}
	for {
		l, ok := p.next(60 * time.Second)
		if !ok {
			t.Fatal("no line closing the first generation")
		}
		if strings.HasPrefix(l.text, "generation 1/2: best") {
			break
		}
	}
	if code, rest := p.wait(t, 60*time.Second); code != exitOK {
		t.Errorf("exit %d: %q", code, rest)
	}
}

// lockPid is the process id a run's lock file names ("" for none).
func lockPid(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "run.lock"))
	if errors.Is(err, os.ErrNotExist) {
		return ""
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

// checkNotRunning fails if 'tune runs' or 'tune show' says the run in dir
// runs.
func checkNotRunning(t *testing.T, bin, dir string) {
	t.Helper()
	for _, args := range [][]string{{"runs", filepath.Dir(dir)}, {"show", dir}} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil || strings.Contains(string(out), "status running") || args[0] == "runs" && slices.Contains(strings.Fields(string(out)), "running") {
			t.Errorf("tune %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestRunLeavesNoDeadPid (issue 29, item 3): after a finished run and after
// an interrupted one, the lock file names no process; after a killed one
// it names a dead process, and neither 'tune runs' nor 'tune show' says the
// run is running.
func TestRunLeavesNoDeadPid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	root := t.TempDir()
	done := filepath.Join(root, "done")
	if out, err := exec.Command(bin, append(smallRun(done, 1), "--quiet")...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if pid := lockPid(t, done); pid != "" {
		t.Errorf("a finished run's lock names pid %s", pid)
	}
	checkNotRunning(t, bin, done)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		dir := filepath.Join(root, sig.String())
		p := startLines(t, bin, smallRun(dir, 50)...)
		for {
			l, ok := p.next(30 * time.Second)
			if !ok {
				t.Fatal("the run ended before it played")
			}
			if strings.Contains(l.text, "/50 games") || strings.Contains(l.text, "best") {
				break
			}
		}
		p.cmd.Process.Signal(sig)
		code, _ := p.wait(t, 30*time.Second)
		pid := lockPid(t, dir)
		switch sig {
		case syscall.SIGINT:
			if code != exitInterrupted || pid != "" {
				t.Errorf("interrupted: exit %d, lock names pid %q, want %d and none", code, pid, exitInterrupted)
			}
		case syscall.SIGKILL:
			if pid != strconv.Itoa(p.cmd.Process.Pid) {
				t.Errorf("killed: lock names %q, want the dead process %d (the test's premise)", pid, p.cmd.Process.Pid)
			}
		}
		checkNotRunning(t, bin, dir)
	}
}
