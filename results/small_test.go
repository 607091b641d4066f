package results

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// deadPid is the id of a process that has ended.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no 'true' to start and end a process:", err)
	}
	return cmd.ProcessState.Pid()
}

// TestLockEmptiedOnClose: a run closed after it ran (done, or interrupted)
// leaves no process id in its lock file, and reads as not running.
func TestLockEmptiedOnClose(t *testing.T) {
	for _, status := range []Status{StatusDone, StatusInterrupted} {
		dir := filepath.Join(t.TempDir(), "run")
		r, err := Create(dir, []byte("game: nim\n"), "nim", "genetic", 1, "test")
		if err != nil {
			t.Fatal(err)
		}
		if err := r.SetStatus(StatusRunning); err != nil {
			t.Fatal(err)
		}
		if pid := lockHolder(filepath.Join(dir, LockName)); pid != strconv.Itoa(os.Getpid()) {
			t.Errorf("while open, the lock names %q, want this process %d", pid, os.Getpid())
		}
		if err := r.SetStatus(status); err != nil {
			t.Fatal(err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, LockName))
		if err == nil && strings.TrimSpace(string(data)) != "" {
			t.Errorf("%s: after Close the lock holds %q, want no process id", status, data)
		}
		// A new writer takes the run at once.
		r, err = Open(dir)
		if err != nil {
			t.Fatalf("%s: reopening: %v", status, err)
		}
		r.Close()
	}
}

// TestDeadWriterNotRunning: a run whose writer was killed (its status
// still "running", its lock file naming a dead process, the lock itself
// released with the process) reads as interrupted, not running; while a
// writer holds it, it reads as running.
func TestDeadWriterNotRunning(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, []byte("game: nim\n"), "nim", "genetic", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetStatus(StatusRunning); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	if in, err := ro.Info(); err != nil || in.Status != StatusRunning {
		t.Errorf("with its writer alive: status %q (%v), want running", in.Status, err)
	}
	ro.Close()
	r.Close()
	// What a killed writer leaves: the status it set, its pid in the file.
	if err := os.WriteFile(filepath.Join(dir, LockName), []byte(strconv.Itoa(deadPid(t))+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro, err = OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ro.Info()
	ro.Close()
	if err != nil {
		t.Fatal(err)
	}
	if in.Status != StatusInterrupted {
		t.Errorf("after its writer died: status %q, want %q", in.Status, StatusInterrupted)
	}
	w, err := Open(dir)
	if err != nil {
		t.Fatalf("a lock naming a dead process is free: %v", err)
	}
	w.Close()
}
