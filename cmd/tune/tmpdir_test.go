package main

import (
	"os"
	"syscall"
)

// memoryTempDir makes the temporary directory of this test process, and of
// the processes it starts, a new folder in /dev/shm when that is a tmpfs
// with at least 1 GiB free and TMPDIR is not set; it returns the folder
// ("" when it left TMPDIR alone). The tests' run databases commit every
// game with synchronous=FULL, and on disk each commit waits for an fsync:
// thousands of waits, each followed by a wait for the CPU on a loaded
// machine, made the process tests several times slower there than their
// CPU. On tmpfs the files, the WAL and the renames are the same and fsync
// returns at once; what the tests kill with SIGKILL survives in the page
// cache either way. A TMPDIR the caller set is kept.
func memoryTempDir() string {
	const tmpfsMagic = 0x01021994
	if os.Getenv("TMPDIR") != "" {
		return ""
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &fs); err != nil || fs.Type != tmpfsMagic || uint64(fs.Bavail)*uint64(fs.Bsize) < 1<<30 {
		return ""
	}
	dir, err := os.MkdirTemp("/dev/shm", "gametune-test-")
	if err != nil {
		return ""
	}
	os.Setenv("TMPDIR", dir)
	return dir
}
