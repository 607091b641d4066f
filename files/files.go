// Package files opens the files gametune reads and writes the ones it
// leaves behind. A file read must be a regular file: a named pipe (FIFO), a
// device, a socket or a directory is refused at once, never waited on, and
// a file is read through a limit. A file written is checked before the work
// that fills it (its folder exists and takes a new file), written
// atomically, and kept under a name of its own when its final write fails.
package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the errors of Open, ReadLimited, WriteAtomic
// and CheckWritable for a path that is not a regular file: a named pipe, a
// device, a socket, a directory (or, for the writers, a symbolic link).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error of ReadLimited for a file larger than
// its limit.
var ErrTooLarge = errors.New("file too large")

// Open opens the named file for reading, as os.Open does, but refuses at
// once anything but a regular file (a symbolic link to one is followed):
// the error wraps ErrNotRegular and says what the path is. It never blocks:
// the path is checked before it is opened, opened with O_NONBLOCK (a named
// pipe put in its place meanwhile does not wait for a writer), and checked
// again once open. Reads of the regular file it returns block as usual.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if pe, ok := err.(*fs.PathError); ok {
		pe.Op = "open" // the error os.Open would give
	}
	if err != nil {
		return nil, err
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err == nil {
		err = regular(path, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// regular says what st is when it is not a regular file.
func regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return &notRegularError{path: path, kind: Kind(st.Mode())}
}

type notRegularError struct{ path, kind string }

func (e *notRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file: it is %s (give the path of a plain file)", e.path, e.kind)
}

func (e *notRegularError) Unwrap() error { return ErrNotRegular }

// Kind names what a file of mode m is, with its article: "a named pipe
// (FIFO)", "a directory", "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "a special file"
}

// ReadLimited reads the named file (Open: a regular file only) as
// os.ReadFile does, but never more than limit+1 bytes of it: a larger file
// gives an error that wraps ErrTooLarge and states the limit. A negative
// limit counts as 0.
func ReadLimited(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAllLimited(f, path, limit)
}

// ReadAllLimited reads r to its end, at most limit bytes of it: more is an
// error wrapping ErrTooLarge that names path and states the limit.
func ReadAllLimited(r io.Reader, path string, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	n := limit
	if n < math.MaxInt64 {
		n++ // one byte over the limit tells a file at the limit from a larger one
	}
	data, err := io.ReadAll(io.LimitReader(r, n))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &tooLargeError{path: path, limit: limit}
	}
	return data, nil
}

type tooLargeError struct {
	path  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most read from such a file", e.path, ByteSize(e.limit))
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// ByteSize writes n bytes as "4 MiB", "64 KiB" or "100 bytes", whichever is
// exact.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
