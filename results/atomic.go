package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrFileExists is returned by WriteFileAtomic when path exists and
// overwriting was not asked for.
var ErrFileExists = errors.New("results: the file exists already")

// ErrNotRegular is returned by WriteFileAtomic when path is something other
// than a regular file (a symbolic link, a device, a directory, a pipe): it is
// never replaced, even when overwriting was asked for.
var ErrNotRegular = errors.New("results: not a regular file")

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, then syncs the directory: a
// reader sees the old file or the new one, never half of one.
//
// Without overwrite, an existing path is refused (ErrFileExists), and the
// check cannot race with another writer: the temporary file is linked to
// path, which fails if path appeared meanwhile. With overwrite, only a
// regular file is replaced; a symbolic link, device or directory at path is
// refused with ErrNotRegular.
func WriteFileAtomic(path string, data []byte, overwrite bool) error {
	st, err := os.Lstat(path)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%w: %s is a %s; it was left as it is (write to a new regular file)", ErrNotRegular, path, fileKind(st.Mode()))
	case err == nil && !overwrite:
		return fmt.Errorf("%w: %s", ErrFileExists, path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("results: %w", err)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a rename or a link, removes nothing or the extra name
	fail := func(err error) error {
		f.Close()
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	if overwrite {
		err = os.Rename(tmp, path)
	} else {
		err = os.Link(tmp, path)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%w: %s", ErrFileExists, path)
		}
	}
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return syncDir(dir)
}

// syncDir makes a rename or a link in dir durable where the file system
// can sync a directory (some cannot, and say EINVAL: that is not an error
// of the write).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	d.Sync()
	return d.Close()
}

func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
