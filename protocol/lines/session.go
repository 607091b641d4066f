package lines

import (
	"context"
	"fmt"
	"io"
)

// Kind says how Serve takes a command while the engine searches.
type Kind int

const (
	// InOrder commands wait for the search in flight and for the commands
	// read before them (UCI's position, go, setoption; NBoard's move, go).
	InOrder Kind = iota
	// AtOnce commands are run as soon as they are read, ahead of the
	// commands that wait (UCI's isready and quit, NBoard's quit).
	AtOnce
	// Interrupt commands end the search in flight as soon as they are read,
	// then take their turn in order; at the head of the queue they run even
	// while a search started by an earlier command goes on, and so end that
	// one too (UCI's stop, NBoard's ping).
	Interrupt
)

// The bounds of the commands that wait behind a search: a GUI has a few
// at most; more are refused (ErrQueueFull) rather than kept.
const (
	MaxWaiting      = 1000
	MaxWaitingBytes = 8 * MaxLine
)

// ErrQueueFull is given to Session.Fail for a command dropped because too
// many wait behind the search in flight.
var ErrQueueFull = fmt.Errorf("lines: %d commands or %d MiB already wait for the search; this one was dropped (send stop)", MaxWaiting, MaxWaitingBytes>>20)

// Session is what Serve needs of a protocol server whose searches run on
// their own goroutine. Its functions are called from Serve's goroutine
// only.
type Session struct {
	Kind   func(line string) Kind
	Handle func(line string) bool // runs one command; false ends the session (quit)
	// Busy returns a channel closed when the search in flight ends, or nil
	// when none runs (then it must stay nil until Handle starts one).
	Busy func() <-chan struct{}
	// Held reports whether the search in flight waits for Interrupt (an
	// infinite search): at the end of the input none can come, so it is
	// interrupted. nil: no search waits.
	Held      func() bool
	Interrupt func()      // ends the search in flight now, with its report
	Fail      func(error) // a line too long (ErrTooLong) or one too many (ErrQueueFull)
}

// Serve reads the lines of r and runs them through s, never waiting for a
// search to read the next line: AtOnce commands run as they come, InOrder
// ones wait their turn, Interrupt ones end the search first. It returns
// nil after a command Handle ends the session with (the commands still
// waiting are dropped: quit), or at the end of r once the commands read
// have run in order, still waiting for the searches before them that end
// by themselves (a held one is interrupted); ctx's error when ctx ends
// first.
func Serve(ctx context.Context, r io.Reader, s Session) error {
	in := NewReader(ctx, r)
	var q queue
	for {
		for q.ready(s) {
			if !s.Handle(q.pop()) {
				return nil
			}
		}
		var idle <-chan struct{}
		if q.len() > 0 {
			idle = s.Busy()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-idle:
		case l, ok := <-in.ch:
			switch {
			case !ok:
				return q.drain(ctx, s)
			case l.err != nil:
				s.Fail(l.err)
			case !q.take(s, l.text):
				return nil
			}
		}
	}
}

// queue holds the commands that wait, in order, within the bounds.
type queue struct {
	lines []string
	bytes int
}

func (q *queue) len() int { return len(q.lines) }

func (q *queue) pop() string {
	text := q.lines[0]
	q.lines[0] = ""
	q.lines, q.bytes = q.lines[1:], q.bytes-len(text)
	return text
}

// ready reports whether the command at the head may run now.
func (q *queue) ready(s Session) bool {
	return len(q.lines) > 0 && (s.Kind(q.lines[0]) == Interrupt || s.Busy() == nil)
}

// take runs or queues a command just read; false: the session ends.
func (q *queue) take(s Session, text string) bool {
	kind := s.Kind(text)
	if kind == AtOnce {
		return s.Handle(text)
	}
	if kind == Interrupt {
		s.Interrupt()
	}
	if len(q.lines) >= MaxWaiting || q.bytes+len(text) > MaxWaitingBytes {
		s.Fail(ErrQueueFull)
		return true
	}
	q.lines = append(q.lines, text)
	q.bytes += len(text)
	return true
}

// drain runs the commands still waiting at the end of the input, each in
// its turn.
func (q *queue) drain(ctx context.Context, s Session) error {
	for q.len() > 0 {
		if !q.ready(s) {
			if s.Held != nil && s.Held() {
				s.Interrupt()
				continue
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-s.Busy():
			}
			continue
		}
		if !s.Handle(q.pop()) {
			return nil
		}
	}
	return nil
}
