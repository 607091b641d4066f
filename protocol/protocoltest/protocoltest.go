// Package protocoltest drives the engine server loops of the protocol
// packages (uci, gtp, nboard) in their tests: a live session over pipes,
// where commands are sent while the engine searches and answers are
// awaited line by line, and a fuzz harness that feeds any command sequence
// to a loop and holds it to its deadline.
package protocoltest

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// ServeFunc is a protocol's server loop with its engine bound: it reads
// commands from r and writes answers to w until the input ends or ctx
// does.
type ServeFunc func(ctx context.Context, r io.Reader, w io.Writer) error

// Live is a session served over pipes until the test ends.
type Live struct {
	t     testing.TB
	in    chan string // written on their own goroutine: a server that stops reading fails Expect, not Send
	lines chan string
	done  chan error
	ended bool // serve returned, its error taken by Wait
}

// Start serves a session with serve; at the test's end the input is closed
// and serve must return within 10 s.
func Start(t testing.TB, serve ServeFunc) *Live {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	l := &Live{t: t, in: make(chan string, 4096), lines: make(chan string, 4096), done: make(chan error, 1)}
	go func() {
		for s := range l.in {
			io.WriteString(inW, s+"\n")
		}
		inW.Close()
	}()
	go func() {
		err := serve(context.Background(), inR, outW)
		outW.Close()
		l.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
		close(l.lines)
	}()
	t.Cleanup(func() {
		close(l.in)
		inR.CloseWithError(io.EOF)
		if returned, _ := l.Wait(10 * time.Second); !returned {
			t.Error("Serve did not return within 10 s of the end of its input")
		}
	})
	return l
}

// Send sends command lines.
func (l *Live) Send(lines ...string) {
	for _, s := range lines {
		l.in <- s
	}
}

// Expect waits for a line starting with prefix and returns the lines
// before it.
func (l *Live) Expect(prefix string, timeout time.Duration) []string {
	l.t.Helper()
	_, seen := l.Await(prefix, timeout)
	return seen
}

// Await waits for a line starting with prefix and returns it and the lines
// before it; the test fails if none comes within timeout or the session
// ends first.
func (l *Live) Await(prefix string, timeout time.Duration) (string, []string) {
	l.t.Helper()
	var seen []string
	deadline := time.After(timeout)
	for {
		select {
		case s, ok := <-l.lines:
			if !ok {
				l.t.Fatalf("the session ended before %q; it wrote %q", prefix, seen)
			}
			if strings.HasPrefix(s, prefix) {
				return s, seen
			}
			seen = append(seen, s)
		case <-deadline:
			l.t.Fatalf("no %q within %v; the session wrote %q", prefix, timeout, seen)
		}
	}
}

// Rest returns the lines not yet awaited, once the session's output has
// ended (after serve returned).
func (l *Live) Rest() []string {
	var out []string
	for s := range l.lines {
		out = append(out, s)
	}
	return out
}

// Wait waits up to timeout for serve to return: whether it returned, and
// its error (nil when Wait already took it).
func (l *Live) Wait(timeout time.Duration) (returned bool, err error) {
	if l.ended {
		return true, nil
	}
	select {
	case err := <-l.done:
		l.ended = true
		return true, err
	case <-time.After(timeout):
		return false, nil
	}
}

// FuzzServe fuzzes a server loop from seeds: newServe makes the loop of
// one input (a new engine each time); fed the input with a deadline of
// 500 ms, it must not panic and must return within a second of it.
func FuzzServe(f *testing.F, seeds []string, newServe func(t *testing.T) ServeFunc) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		serve := newServe(t)
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- serve(ctx, strings.NewReader(input), io.Discard) }()
		select {
		case <-done:
		case <-time.After(1500 * time.Millisecond):
			t.Fatalf("Serve did not return within 1 s of its deadline on %q", input)
		}
	})
}
