package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// creatingPrefix marks the hidden directory in which Create makes a run
// before renaming it to its place: ".NAME.creating-PID-RANDOM", PID being
// the creating process's id, so that a later process can tell when its
// creator is gone (killed while creating: nothing else removes it).
const creatingPrefix = ".creating-"

// creatingName matches the hidden directories of runs being created:
// with the creator's pid (group 2), or without, as gametune versions before
// it named them.
var creatingName = regexp.MustCompile(`^\..+\.creating-(([0-9]+)-)?[0-9]+$`)

// legacyAge is how old a directory of a run being created, named without
// its creator's pid, must be to count as abandoned: creating a run takes
// well under a second, so one that is an hour old was left by a process
// killed while it created it.
const legacyAge = time.Hour

// RemoveAbandoned removes the hidden directories left in folder by
// processes killed while they created a run there (Create): those whose
// creator is no longer running (or, named by an older gametune without
// their creator, an hour old). It leaves alone a directory whose creator
// runs, and one that holds anything Create does not make. It returns the
// directories removed, and the first error met (it goes on after one).
func RemoveAbandoned(folder string) ([]string, error) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("results: %w", err)
	}
	var removed []string
	var first error
	for _, e := range entries {
		m := creatingName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		dir := filepath.Join(folder, e.Name())
		if !abandoned(dir, m[2]) || !onlyCreated(dir) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			if first == nil {
				first = fmt.Errorf("results: removing the abandoned %s: %w", dir, err)
			}
			continue
		}
		removed = append(removed, dir)
	}
	return removed, first
}

// abandoned reports whether the run being created in dir, by the process
// pid ("" when its name does not say), was abandoned.
func abandoned(dir, pid string) bool {
	if pid == "" {
		st, err := os.Stat(dir)
		return err == nil && time.Since(st.ModTime()) > legacyAge
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return !processAlive(n)
}

// processAlive reports whether the process pid runs (a process of another
// user included).
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// onlyCreated reports whether dir holds only files Create makes (the
// config, its temporary file, the database and SQLite's files beside it).
func onlyCreated(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case !e.Type().IsRegular():
			return false
		case name == ConfigName, name == DBName, name == DBName+"-wal", name == DBName+"-shm", name == DBName+"-journal":
		case strings.HasPrefix(name, "."+ConfigName+".tmp-"), strings.HasPrefix(name, ".write-check-"):
		default:
			return false
		}
	}
	return true
}
