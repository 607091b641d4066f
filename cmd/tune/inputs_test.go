package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/results"
)

// TestFilesReadRefuseSpecialFiles (issue 57): every file a command reads
// (weights, books, positions, configs, engines files, run folders' files)
// is refused at once when it is a named pipe: no command waits for a
// writer that never comes. Each command runs as a process of its own; it
// must end by itself with a usage error naming the pipe (each used to stay
// blocked in open() until SIGKILL). A directory or a device where a file
// is wanted is refused the same way.
func TestFilesReadRefuseSpecialFiles(t *testing.T) {
	bin := buildTune(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// A run whose database is a named pipe; a folder of runs holding it.
	run := filepath.Join(dir, "runs", "run")
	if out, err := exec.Command(bin, "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1",
		"--games", "1", "--yardstick-pairs", "0", "--quiet", "--out", run).CombinedOutput(); err != nil {
		t.Fatalf("a small run: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(run, results.DBName))
	if err := syscall.Mkfifo(filepath.Join(run, results.DBName), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name string
		args []string
	}{
		{"report --weights", []string{"report", "--weights", fifo, "--game", "othello"}},
		{"match --openings", []string{"match", "--game", "othello", "--openings", fifo, "--depth", "1", "--pairs", "1"}},
		{"match --openings file=", []string{"match", "--game", "chess", "--openings", "file=" + fifo + " format=bin", "--depth", "1", "--pairs", "1"}},
		{"match --a", []string{"match", "--game", "othello", "--a", fifo, "--depth", "1", "--pairs", "1"}},
		{"match --engines", []string{"match", "--game", "othello", "--engines", fifo, "--depth", "1", "--pairs", "1"}},
		{"tournament --openings", []string{"tournament", "--game", "nim", "--players", "default,default", "--openings", fifo, "--depth", "1", "--pairs", "1"}},
		{"search --weights", []string{"search", "othello", "--weights", fifo, "--depth", "1"}},
		{"play --weights", []string{"play", "nim", "--weights", fifo}},
		{"engine --weights", []string{"engine", "othello", "--weights", fifo}},
		{"export --weights", []string{"export", "--weights", fifo}},
		{"learn --start", []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--start", fifo, "-o", out("l1.gtw")}},
		{"learn --positions", []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--positions", fifo, "-o", out("l2.gtw")}},
		{"run --config", []string{"run", "--config", fifo, "--out", out("r1")}},
		{"run --start", []string{"run", "--game", "nim", "--start", fifo, "--out", out("r2")}},
		{"run --openings", []string{"run", "--game", "nim", "--openings", fifo, "--out", out("r3")}},
		{"compare --start", []string{"compare", "--game", "nim", "--start", fifo, "--budget-games", "100", "--out", out("c1")}},
		{"resume --config", []string{"resume", run, "--config", fifo}},
		{"show", []string{"show", run}},
		{"export DIR", []string{"export", run}},
		{"ladder", []string{"ladder", run}},
		{"plot", []string{"plot", run}},
		{"report DIR", []string{"report", run}},
		{"resume", []string{"resume", run}},
		{"runs", []string{"runs", filepath.Dir(run)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := start(t, bin, c.args...)
			select {
			case <-p.done:
			case <-time.After(10 * time.Second):
				p.cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-p.done:
					t.Fatalf("blocked until SIGTERM\nstderr: %s", p.stderr)
				case <-time.After(time.Second):
					t.Fatalf("blocked, and still running a second after SIGTERM\nstderr: %s", p.stderr)
				}
			}
			code, errOut := p.cmd.ProcessState.ExitCode(), p.stderr.String()
			if c.name == "runs" {
				// runs lists what it can and says what it skipped.
				if !strings.Contains(errOut, "named pipe (FIFO)") {
					t.Errorf("exit %d, %q; want the pipe named", code, errOut)
				}
				return
			}
			if code != exitUsage || !strings.Contains(errOut, "is not a regular file: it is a named pipe (FIFO)") {
				t.Errorf("exit %d, %q; want 2 and the pipe refused", code, errOut)
			}
		})
	}
}
