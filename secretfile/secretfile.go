// Package secretfile reads the small secrets a user names by file (tokens,
// keys): the file must be a regular file, readable by its owner alone (on
// unix) and small. A named pipe, a device or a directory is refused
// without being opened for long: Read never blocks on one.
package secretfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// MaxSize is the largest secret file Read accepts, in bytes.
const MaxSize = 16 << 10

// ErrUnsafe is wrapped by the errors of a file that is not a plain,
// owner-only, small file.
var ErrUnsafe = errors.New("not a safe secret file")

// Read returns the content of the secret file at path; what names it in
// errors ("token file"). It refuses, with a message saying what to do, a
// file that is not regular (a FIFO, a device, a directory), that others
// than its owner may read or write (mode & 0o077 != 0, on unix), or that
// holds more than MaxSize bytes. It never blocks on a special file: the
// file is checked before it is opened, opened without blocking, and
// checked again once open.
func Read(path, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := check(path, what, st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	open, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !os.SameFile(st, open) {
		return nil, fmt.Errorf("%s %s changed while it was read: %w", what, path, ErrUnsafe)
	}
	if err := check(path, what, open); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s %s holds more than %d bytes: %w", what, path, MaxSize, ErrUnsafe)
	}
	return data, nil
}

func check(path, what string, st fs.FileInfo) error {
	m := st.Mode()
	if !m.IsRegular() {
		kind := "not a regular file"
		switch {
		case m&fs.ModeNamedPipe != 0:
			kind = "a named pipe (FIFO)"
		case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
			kind = "a device"
		case m.IsDir():
			kind = "a directory"
		case m&fs.ModeSocket != 0:
			kind = "a socket"
		}
		return fmt.Errorf("%s %s is %s: %w (want a plain file holding the secret)", what, path, kind, ErrUnsafe)
	}
	if st.Size() > MaxSize {
		return fmt.Errorf("%s %s holds %d bytes (at most %d): %w", what, path, st.Size(), MaxSize, ErrUnsafe)
	}
	if runtime.GOOS == "windows" {
		return nil // no unix permission bits to check
	}
	if perm := m.Perm(); perm&0o077 != 0 {
		who, how := "its group", "readable"
		if perm&0o007 != 0 {
			who = "everyone"
		}
		if perm&0o044 == 0 {
			how = "writable"
		}
		return fmt.Errorf("%s %s is %s by %s (mode %v): %w; run chmod 600 %s", what, path, how, who, perm, ErrUnsafe, path)
	}
	return nil
}
