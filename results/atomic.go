package results

import (
	"fmt"
	"os"

	"github.com/gametune/gametune/files"
)

// ErrFileExists is returned by WriteFileAtomic when path exists and
// overwriting was not asked for (files.ErrExists).
var ErrFileExists = files.ErrExists

// ErrNotRegular is returned by WriteFileAtomic when path is something other
// than a regular file (a symbolic link, a device, a directory, a pipe): it is
// never replaced, even when overwriting was asked for (files.ErrNotRegular).
var ErrNotRegular = files.ErrNotRegular

// WriteFileAtomic writes data to path atomically (files.WriteAtomic): a
// reader sees the old file or the new one, never half of one. Without
// overwrite, an existing path is refused (ErrFileExists); with overwrite,
// only a regular file is replaced (ErrNotRegular otherwise).
func WriteFileAtomic(path string, data []byte, overwrite bool) error {
	if err := files.WriteAtomic(path, data, overwrite); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// syncDir makes a rename or a link in dir durable (files.SyncDir).
func syncDir(dir string) error {
	if err := files.SyncDir(dir); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// openRegular opens a file of a run directory for reading, refusing at once
// one that is not a regular file (files.Open): a named pipe left in a run
// directory never blocks a reader.
func openRegular(path string) (*os.File, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return f, nil
}
