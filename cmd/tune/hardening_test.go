package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/results"
)

// started is a real tune process with its outputs.
type started struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan error
}

// syncBuffer is a bytes.Buffer written by one goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func start(t *testing.T, bin string, args ...string) *started {
	t.Helper()
	p := &started{cmd: exec.Command(bin, args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan error, 1)}
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		p.stdin.Close()
	})
	return p
}

// exitCode waits for the process and returns its exit status.
func (p *started) exitCode(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case err := <-p.done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(within):
		t.Fatalf("%s still running after %v\nstdout: %s\nstderr: %s", p.cmd.Args[1], within, p.stdout, p.stderr)
	}
	return -1
}

// TestSignalsStopEveryCommand sends SIGINT or SIGTERM to every long
// command once it is busy (or waiting for input), as its first words on
// stdout or stderr tell (a fixed delay once sent some signals before the
// command could catch them, on a busy machine): each must end with status
// 130, promptly. docs/commands.md promises a second on an idle machine; the
// bound here is generous so that a loaded machine does not break it, and
// the order (signal, then exit 130) is what is checked.
func TestSignalsStopEveryCommand(t *testing.T) {
	bin := buildTune(t)
	dir := t.TempDir()
	cases := []struct {
		name  string
		args  []string
		ready string // wait for this on stdout or stderr
	}{
		{"perft", []string{"perft", "chess", "7"}, "perft: counting chess to depth 7"},
		{"play", []string{"play", "chess"}, "> "},
		{"search", []string{"search", "chess", "--depth", "40"}, "search: depth 1: "},
		{"solve", []string{"solve", "othello"}, "solving othello"},
		{"run", []string{"run", "--game", "othello", "--depth", "4", "--population", "10", "--generations", "50", "--out"}, "generation 1/50"},
		{"tournament", []string{"tournament", "--game", "othello", "--players", "default:full,default:report,default:full", "--pairs", "500", "--depth", "4"}, "roundrobin: "},
	}
	for _, c := range cases {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(fmt.Sprintf("%s/%v", c.name, sig), func(t *testing.T) {
				args := c.args
				if c.name == "run" {
					args = append(args[:len(args):len(args)], filepath.Join(dir, sig.String()))
				}
				p := start(t, bin, args...)
				deadline := time.Now().Add(60 * time.Second)
				for !strings.Contains(p.stdout.String(), c.ready) && !strings.Contains(p.stderr.String(), c.ready) {
					if time.Now().After(deadline) {
						t.Fatalf("no %q on stdout or stderr: %s %s", c.ready, p.stdout, p.stderr)
					}
					time.Sleep(5 * time.Millisecond)
				}
				sent := time.Now()
				p.cmd.Process.Signal(sig)
				code := p.exitCode(t, 30*time.Second)
				if code != exitInterrupted {
					t.Fatalf("exit %d, want 130\nstderr: %s", code, p.stderr)
				}
				t.Logf("ended %v after the signal", time.Since(sent).Round(time.Millisecond))
			})
		}
	}
}

// TestRunOutRace starts two tune runs with the same --out at once: one
// creates the run, the other is refused, and the run's config file and
// database agree on the seed.
func TestRunOutRace(t *testing.T) {
	bin := buildTune(t)
	for i := range 4 {
		dir := filepath.Join(t.TempDir(), "run")
		args := func(seed int) []string {
			return []string{"run", "--game", "nim", "--depth", "2", "--population", "4", "--generations", "1",
				"--games", "1", "--yardstick-pairs", "1", "--seed", fmt.Sprint(seed), "--quiet", "--out", dir}
		}
		a, b := start(t, bin, args(100+i)...), start(t, bin, args(200+i)...)
		ca, cb := a.exitCode(t, 60*time.Second), b.exitCode(t, 60*time.Second)
		if (ca == 0) == (cb == 0) {
			t.Fatalf("round %d: exits %d and %d, want one 0\n%s\n%s", i, ca, cb, a.stderr, b.stderr)
		}
		loser := b
		if cb == 0 {
			loser = a
		}
		if !strings.Contains(loser.stderr.String(), "exists already") && !strings.Contains(loser.stderr.String(), "in use by pid") {
			t.Errorf("round %d: the refused run says %q", i, loser.stderr)
		}
		r, err := results.OpenReadOnly(dir)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := r.Info()
		r.Close()
		file, _ := os.ReadFile(filepath.Join(dir, results.ConfigName))
		if !strings.Contains(string(file), fmt.Sprintf("seed: %d\n", in.Seed)) {
			t.Fatalf("round %d: run.db has seed %d, config.yaml:\n%s", i, in.Seed, file)
		}
	}
}

// TestResumeLocked: three tune resume of one run at once: one plays the
// remaining games, the others are refused naming its pid, and the run ends
// as an uninterrupted one does.
func TestResumeLocked(t *testing.T) {
	bin := buildTune(t)
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--game", "othello", "--evaluator", "report", "--depth", "2", "--population", "8",
		"--generations", "3", "--games", "2", "--yardstick-pairs", "2", "--openings", "random:6",
		"--seed", "11", "--quiet", "--out", dir}
	if !runUntil(t, bin, args, dir, func(r *results.Run) bool {
		n, err := r.CountGames("gen", 0)
		return err == nil && n >= 2
	}) {
		t.Fatal("the run finished before it could be killed")
	}
	var ps []*started
	for range 3 {
		ps = append(ps, start(t, bin, "resume", dir, "--quiet"))
	}
	ok := 0
	for _, p := range ps {
		switch code := p.exitCode(t, 120*time.Second); code {
		case 0:
			ok++
		default:
			if !strings.Contains(p.stderr.String(), "in use by pid") {
				t.Errorf("a refused resume exits %d saying %q", code, p.stderr)
			}
		}
	}
	if ok != 1 {
		t.Fatalf("%d resumes succeeded, want exactly 1", ok)
	}
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := r.Info()
	r.Close()
	if in.Status != "done" || in.Generations != 3 {
		t.Fatalf("after the resumes: %+v", in)
	}
}

// TestKilledWhileCreating kills tune run in its first milliseconds: what it
// leaves is either no run (and run starts it again) or a whole run that
// resume finishes.
func TestKilledWhileCreating(t *testing.T) {
	bin := buildTune(t)
	for _, delay := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 8 * time.Millisecond, 15 * time.Millisecond, 30 * time.Millisecond, 60 * time.Millisecond} {
		dir := filepath.Join(t.TempDir(), "run")
		args := []string{"run", "--game", "nim", "--depth", "2", "--population", "4", "--generations", "2",
			"--games", "1", "--yardstick-pairs", "1", "--seed", "5", "--quiet", "--out", dir}
		p := start(t, bin, args...)
		time.Sleep(delay)
		p.cmd.Process.Kill()
		<-p.done
		var out []byte
		var err error
		if _, serr := os.Stat(dir); serr == nil {
			out, err = exec.Command(bin, "resume", dir, "--quiet").CombinedOutput()
		} else {
			out, err = exec.Command(bin, args...).CombinedOutput()
		}
		if err != nil {
			t.Fatalf("killed after %v: the next command fails: %v\n%s", delay, err, out)
		}
		r, err := results.OpenReadOnly(dir)
		if err != nil {
			t.Fatalf("killed after %v: %v", delay, err)
		}
		in, _ := r.Info()
		r.Close()
		if in.Status != "done" {
			t.Fatalf("killed after %v, then finished: %+v", delay, in)
		}
	}
}

// TestEndlessFiles: files a user names are read through a size limit;
// books, streamed, must be regular files.
func TestEndlessFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--game", "nim", "--config", "/dev/zero", "--out", filepath.Join(dir, "a")},
		{"search", "nim", "--weights", "/dev/zero"},
		{"run", "--game", "nim", "--start", "/dev/zero", "--out", filepath.Join(dir, "b")},
		{"run", "--game", "nim", "--openings", "/dev/zero", "--out", filepath.Join(dir, "c")},
	} {
		code, _, errOut := tune(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "MiB") && !strings.Contains(errOut, "/dev/zero is not a regular file") {
			t.Errorf("tune %s: exit %d, %q; want exit 2 and the limit", strings.Join(args, " "), code, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("refused runs left %d entries behind", len(entries))
	}
	code, out, _ := tune(t, "load /dev/zero\nquit\n", "play", "nim")
	if code != 0 || !strings.Contains(out, "cannot load") || !strings.Contains(out, "/dev/zero is not a regular file: it is a device") {
		t.Errorf("play, load /dev/zero: exit %d:\n%s", code, out)
	}
}

// TestHugeSizesRefused: sizes no machine holds are refused before anything
// is created, from flags and from YAML (a float for an integer too).
func TestHugeSizesRefused(t *testing.T) {
	dir := t.TempDir()
	yamlFile := func(text string) string {
		path := filepath.Join(t.TempDir(), "c.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		return path
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--game", "tictactoe", "--depth", "1", "--population", "1000000000"}, "population 1000000000"},
		{[]string{"run", "--config", yamlFile("game: tictactoe\ndepth: 1\npopulation: 1e9\n")}, "population"},
		{[]string{"run", "--config", yamlFile("game: tictactoe\ndepth: 1\ngames: 2.5\n")}, "games"},
		{[]string{"run", "--game", "tictactoe", "--depth", "1", "--candidates", "100000000", "--algo", "knockout"}, "candidates"},
		{[]string{"run", "--game", "tictactoe", "--depth", "1", "--workers", "100000"}, "--workers 100000"},
		{[]string{"run", "--config", yamlFile("game: tictactoe\nopening-list: ['xxx------']\n")}, "opening-list"},
	} {
		out := filepath.Join(dir, "r")
		code, _, errOut := tune(t, "", append(c.args, "--out", out)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("tune %s: exit %d, %q; want exit 2 naming %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("tune %s left %s behind", strings.Join(c.args, " "), out)
		}
	}
}

// TestFinishedOpeningsRefused: an opening whose game is over leaves no game
// to play: refused with its line, by match and run alike.
func TestFinishedOpeningsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openings.txt")
	os.WriteFile(path, []byte("# tic-tac-toe\nx--o-----\nxxxoo----\n"), 0o644)
	for _, args := range [][]string{
		{"match", "--game", "tictactoe", "--openings", path, "--pairs", "1"},
		{"run", "--game", "tictactoe", "--depth", "1", "--openings", path, "--out", filepath.Join(t.TempDir(), "r")},
	} {
		code, _, errOut := tune(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, ":3:") || !strings.Contains(errOut, "over") {
			t.Errorf("tune %s: exit %d, %q; want exit 2 naming line 3 and the game over", args[0], code, errOut)
		}
	}
}

// TestBudgetAndLadderBadInput: budgets that are not positive, a time
// budget that is not a duration, and a ladder of a run with one finished
// generation are refused with exit 2.
func TestBudgetAndLadderBadInput(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--game", "nim", "--depth", "2", "--population", "4", "--generations", "1", "--games", "1", "--yardstick-pairs", "1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--budget-games", "0"}, "--budget-games 0: want a positive number"},
		{[]string{"--budget-games", "-5"}, "--budget-games -5: want a positive number"},
		{[]string{"--budget-time", "soon"}, `budget-time "soon" is not a positive duration`},
		{[]string{"--budget-time", "-1h"}, `budget-time "-1h" is not a positive duration`},
		{[]string{"--budget-time", "0s"}, `budget-time "0s" is not a positive duration`},
		{[]string{"--ladder-pairs", "-2"}, "ladder-pairs -2"},
	} {
		out := filepath.Join(dir, "r")
		code, _, errOut := tune(t, "", append(append(append([]string{}, base...), c.args...), "--out", out)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	one := filepath.Join(dir, "one")
	if code, _, errOut := tune(t, "", append(base, "--out", one, "--quiet")...); code != 0 {
		t.Fatal(errOut)
	}
	code, _, errOut := tune(t, "", "ladder", one)
	if code != exitUsage || !strings.Contains(errOut, "at least two finished generations") {
		t.Errorf("ladder of a one-generation run: exit %d, %q", code, errOut)
	}
}

// TestTexelPositionsFrom: a Texel run fits on another run's games and on a
// positions file too; a positions file with a line without a result, or a
// run of another game, is refused before anything is created.
func TestTexelPositionsFrom(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	base := []string{"--game", "tictactoe", "--depth", "2", "--yardstick-pairs", "0", "--ladder-pairs", "-1", "--quiet"}
	if code, _, errOut := tune(t, "", append([]string{"run", "--population", "4", "--generations", "1", "--games", "1", "--out", first}, base...)...); code != 0 {
		t.Fatal(errOut)
	}
	positions := filepath.Join(dir, "positions.txt")
	os.WriteFile(positions, []byte("# x to win\nxx-oo---- | 1-0\n"), 0o644)
	texel := []string{"run", "--algo", "texel", "--texel-rounds", "1", "--texel-games", "2", "--positions-from", first, "--positions", positions}
	if code, _, errOut := tune(t, "", append(append(texel, "--out", filepath.Join(dir, "texel")), base...)...); code != 0 {
		t.Fatalf("texel with given positions: exit %d %s", code, errOut)
	}
	os.WriteFile(positions, []byte("xx-oo----\n"), 0o644)
	bad := filepath.Join(dir, "bad")
	code, _, errOut := tune(t, "", append(append(texel, "--out", bad), base...)...)
	if code != exitUsage || !strings.Contains(errOut, "line 1: no result") {
		t.Fatalf("a positions line without a result: exit %d %q", code, errOut)
	}
	other := filepath.Join(dir, "nim")
	if code, _, errOut := tune(t, "", "run", "--game", "nim", "--depth", "2", "--population", "4", "--generations", "1", "--games", "1", "--yardstick-pairs", "0", "--ladder-pairs", "-1", "--out", other, "--quiet"); code != 0 {
		t.Fatal(errOut)
	}
	code, _, errOut = tune(t, "", append([]string{"run", "--algo", "texel", "--positions-from", other, "--out", bad}, base...)...)
	if code != exitUsage || !strings.Contains(errOut, "is a run of nim, not tictactoe") {
		t.Fatalf("another game's run: exit %d %q", code, errOut)
	}
	code, _, errOut = tune(t, "", append([]string{"run", "--positions", positions, "--out", bad}, base...)...)
	if code != exitUsage || !strings.Contains(errOut, "need algo texel") {
		t.Fatalf("positions without texel: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Fatal("a refused run left its directory")
	}
}
