package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockRun takes the exclusive lock of a run directory: flock(2) on
// DIR/run.lock, which holds the id of the process holding it. The lock
// lives with the open file and dies with the process, so a crashed run
// never leaves a stale lock.
func lockRun(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results: locking the run: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is in use by pid %s (wait for it to end, or stop it)", ErrInUse, dir, lockHolder(path))
		}
		return nil, fmt.Errorf("results: locking the run %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// lockHolder reads the process id written in a lock file ("?" when none).
func lockHolder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 32 {
		return "?"
	}
	pid := strings.TrimSpace(string(data))
	if _, err := strconv.Atoi(pid); err != nil {
		return "?"
	}
	return pid
}
