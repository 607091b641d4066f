package files

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrExists is wrapped by the errors of WriteAtomic and CheckWritable when
// the path exists and overwriting was not asked for.
var ErrExists = errors.New("the file exists already")

// WriteAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, then syncs the directory: a
// reader sees the old file or the new one, never half of one.
//
// Without overwrite, an existing path is refused (ErrExists), and the check
// cannot race with another writer: the temporary file is linked to path,
// which fails if path appeared meanwhile. With overwrite, only a regular
// file is replaced; a symbolic link, device, pipe or directory at path is
// refused with ErrNotRegular.
func WriteAtomic(path string, data []byte, overwrite bool) error {
	if err := checkTarget(path, overwrite); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a rename or a link, removes nothing or the extra name
	fail := func(err error) error {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
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
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if overwrite {
		err = os.Rename(tmp, path)
	} else {
		err = os.Link(tmp, path)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%w: %s", ErrExists, path)
		}
	}
	if err != nil {
		return err
	}
	return SyncDir(dir)
}

// checkTarget refuses a path that exists and is not a regular file, or
// that exists when overwrite is false.
func checkTarget(path string, overwrite bool) error {
	st, err := os.Lstat(path)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%w: %s is %s; it was left as it is (write to a new regular file)", ErrNotRegular, path, Kind(st.Mode()))
	case err == nil && !overwrite:
		return fmt.Errorf("%w: %s", ErrExists, path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	return nil
}

// SyncDir makes a rename or a link in dir durable where the file system
// can sync a directory (some cannot, and say EINVAL: that is not an error
// of the write).
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	d.Sync()
	return d.Close()
}

// CheckWritable checks, before the work whose result goes to path, that
// WriteAtomic could write it there: path is a regular file (replaced only
// with overwrite) or not there yet, and its folder exists and takes a new
// file (one is created and removed). It changes nothing else.
func CheckWritable(path string, overwrite bool) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("cannot write %s: the folder %s does not exist (create it first)", path, dir)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	case !st.IsDir():
		return fmt.Errorf("cannot write %s: %s is %s, not a folder", path, dir, Kind(st.Mode()))
	}
	if err := checkTarget(path, overwrite); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".gametune-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: the folder %s takes no new file (%w)", path, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// WriteOrKeep writes data to path as WriteAtomic does. When that fails for
// another reason than the path itself (ErrExists, ErrNotRegular: checked
// before the work, with CheckWritable), as on a full disk or a folder
// removed meanwhile, the data is kept in a new file beside path, or else
// in the temporary folder, and the error names it: a night's result is
// never lost to its last write.
func WriteOrKeep(path string, data []byte, overwrite bool) error {
	err := WriteAtomic(path, data, overwrite)
	if err == nil || errors.Is(err, ErrExists) || errors.Is(err, ErrNotRegular) {
		return err
	}
	kept, kerr := Keep(path, data)
	if kerr != nil {
		return fmt.Errorf("%w (and keeping the result elsewhere failed too: %v)", err, kerr)
	}
	return fmt.Errorf("%w; the result is kept in %s (move it where it belongs)", err, kept)
}

// Keep writes data to a new file named after path, "NAME.kept-*" beside
// path or else in the temporary folder, and returns its name.
func Keep(path string, data []byte) (string, error) {
	base := filepath.Base(path) + ".kept-*"
	var firstErr error
	for _, dir := range []string{filepath.Dir(path), os.TempDir()} {
		f, err := os.CreateTemp(dir, base)
		if err == nil {
			_, err = f.Write(data)
			if err == nil {
				err = f.Sync()
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				return f.Name(), nil
			}
			os.Remove(f.Name())
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return "", firstErr
}

// CheckAppendable checks, before the work, that data can be appended to
// path: an existing path must be a regular file that opens for writing; a
// new one needs a folder that takes it (CheckWritable).
func CheckAppendable(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return CheckWritable(path, false)
	}
	if err != nil {
		return err
	}
	if err := regular(path, st); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("cannot append to %s: %w", path, err)
	}
	return f.Close()
}
