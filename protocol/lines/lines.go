// Package lines is the plumbing the protocol servers (protocol/uci, gtp,
// xboard, nboard) and the play command share: a GUI's or a person's
// commands read line by line on their own goroutine, so that a server
// answers while a search runs and stops at once when its context ends,
// answers written whole lines at a time from the loop and the search
// alike, and a command line split into its words (Split).
package lines

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// MaxLine bounds an input line: a UCI position after a thousand moves or a
// GGF game is a few KiB.
const MaxLine = 1 << 20

// ErrTooLong is returned by Next for a line longer than MaxLine, which is
// skipped; the next call reads the line after it.
var ErrTooLong = fmt.Errorf("lines: a line longer than %d bytes was skipped", MaxLine)

// Reader reads lines from an io.Reader on its own goroutine.
type Reader struct {
	ch <-chan line
}

type line struct {
	text string
	err  error
}

// NewReader starts reading r, until its end or until ctx ends.
func NewReader(ctx context.Context, r io.Reader) *Reader {
	ch := make(chan line)
	go read(ctx, r, ch)
	return &Reader{ch: ch}
}

// Next waits for the next line, without its line ending. It returns io.EOF
// at the end of the input, ctx's error when ctx ends first, and ErrTooLong
// for a line it skipped.
func (r *Reader) Next(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case l, ok := <-r.ch:
		if !ok {
			return "", io.EOF
		}
		return l.text, l.err
	}
}

// Each calls handle with each line of r, in order, until handle returns
// false (Each returns nil), the end of r (nil too) or the end of ctx (its
// error). A line longer than MaxLine is skipped and given to tooLong
// instead (ErrTooLong).
func Each(ctx context.Context, r io.Reader, tooLong func(error), handle func(line string) bool) error {
	in := NewReader(ctx, r)
	for {
		text, err := in.Next(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, ErrTooLong):
			tooLong(err)
		case err != nil:
			return err
		case !handle(text):
			return nil
		}
	}
}

// read sends the lines of in on ch and closes ch at the end of the input.
func read(ctx context.Context, in io.Reader, ch chan<- line) {
	defer close(ch)
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		b, long, err := ReadLine(r, MaxLine)
		if len(b) == 0 && !long && err != nil {
			return
		}
		l := line{text: strings.TrimRight(string(b), "\r\n")}
		if long {
			l = line{err: ErrTooLong}
		}
		select {
		case ch <- l:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// ReadLine reads up to and with the next newline, keeping at most limit
// bytes of it: long reports a line that was longer (the rest is read past,
// never held).
func ReadLine(r *bufio.Reader, limit int) (b []byte, long bool, err error) {
	for {
		var part []byte
		part, err = r.ReadSlice('\n')
		if len(b)+len(part) <= limit {
			b = append(b, part...)
		} else {
			long = true
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return b, long, err
		}
	}
}

// Writer writes to its io.Writer one call at a time: a server's loop and
// its search's goroutine both answer. Write errors are ignored: a GUI that
// went away ends the input too.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Println writes each of lines followed by a newline, in one write.
func (l *Writer) Println(lines ...string) {
	var b strings.Builder
	for _, s := range lines {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	l.Write(b.String())
}

// Write writes text as it is (GTP responses carry their own empty line).
func (l *Writer) Write(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, text)
}
