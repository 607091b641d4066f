package games

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// ErrTooLarge is wrapped by the error of ReadFileLimited for a file larger
// than its limit.
var ErrTooLarge = errors.New("games: file too large")

// ReadFileLimited reads the named file as os.ReadFile does, but never more
// than limit+1 bytes of it: a larger file, or an endless one such as
// /dev/zero or a pipe that keeps writing, gives an error that wraps
// ErrTooLarge and states the limit. A negative limit counts as 0.
func ReadFileLimited(path string, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := limit
	if n < math.MaxInt64 {
		n++ // one byte over the limit tells a file at the limit from a larger one
	}
	data, err := io.ReadAll(io.LimitReader(f, n))
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
	return fmt.Sprintf("%s is larger than %s, the most read from such a file", e.path, byteSize(e.limit))
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// byteSize writes n bytes as "4 MiB", "64 KiB" or "100 bytes", whichever is
// exact.
func byteSize(n int64) string {
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
