package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gametune/gametune/files"
)

// lockRun takes the exclusive lock of a run directory: flock(2) on
// DIR/run.lock, which holds the id of the process holding it. The lock
// lives with the open file and dies with the process, so a crashed run
// never leaves a stale lock.
func lockRun(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results: locking the run: %w", err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("results: locking the run: %s is not a regular file (remove it: the lock file is made again)", path)
	}
	if err := lockExclusive(f); err != nil {
		f.Close()
		if errors.Is(err, errReaders) {
			return nil, fmt.Errorf("%w: %s was being read by other processes for %v (try again)", ErrInUse, dir, readerWait)
		}
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

// unlockRun releases the lock lockRun took on f. The file is emptied
// first, so that no lock file names a process that holds nothing (the file
// stays: a reader may have it open to wait on the lock, and a lock taken on
// a removed file would guard nothing).
func unlockRun(f *os.File) error {
	f.Truncate(0)
	return f.Close()
}

// writerWorking reports whether a process holds dir's lock as a writer
// (this one included, through another open of the file). A lock file
// naming a process that died holds no lock: flock's lock dies with the
// process.
func writerWorking(dir string) bool {
	f, err := files.Open(filepath.Join(dir, LockName))
	if err != nil {
		return false
	}
	defer f.Close()
	return errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
}

// lockHolder reads the process id written in a lock file ("?" when none).
func lockHolder(path string) string {
	data, err := files.ReadLimited(path, 32)
	if err != nil {
		return "?"
	}
	pid := strings.TrimSpace(string(data))
	if _, err := strconv.Atoi(pid); err != nil {
		return "?"
	}
	return pid
}

// errReaders is lockExclusive's error when readers held the lock for all
// of readerWait.
var errReaders = errors.New("results: the run was being read all along")

// readerWait is how long a writer waits for the readers of a run (each
// holds the lock shared while it reads) before it gives up.
const readerWait = 10 * time.Second

// lockExclusive takes f's lock exclusively, without waiting for another
// writer (EWOULDBLOCK) but waiting up to readerWait while only readers
// hold it shared: a reader holds it for one read, so that nothing
// changes the database it reads as immutable.
func lockExclusive(f *os.File) error {
	fd := int(f.Fd())
	deadline := time.Now().Add(readerWait)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		// Held shared (readers only), or exclusively (a writer)?
		if syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) != nil {
			return err
		}
		syscall.Flock(fd, syscall.LOCK_UN)
		if time.Now().After(deadline) {
			return errReaders
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readLock takes the run's lock shared, without creating its file: while
// it is held no writer works on the run and none can start. It is nil when
// the run has no lock file or a writer holds the lock.
func readLock(dir string) *os.File {
	f, err := files.Open(filepath.Join(dir, LockName))
	if err != nil {
		return nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil
	}
	return f
}
