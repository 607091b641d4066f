package lines_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gametune/gametune/protocol/lines"
)

// fakeEngine is a session whose "search N" commands run until "end" makes
// them end by themselves (bounded) or an interrupt stops them; "hold"
// searches end only by interrupt. It logs what ran.
type fakeEngine struct {
	log    []string
	done   chan struct{}
	held   bool
	failed []error
}

func (f *fakeEngine) session() lines.Session {
	return lines.Session{
		Kind: func(text string) lines.Kind {
			switch text {
			case "ready", "quit":
				return lines.AtOnce
			case "stop":
				return lines.Interrupt
			}
			return lines.InOrder
		},
		Handle: func(text string) bool {
			f.log = append(f.log, text)
			switch {
			case strings.HasPrefix(text, "search"), text == "hold":
				f.done, f.held = make(chan struct{}), text == "hold"
			case text == "stop":
				f.stop()
			}
			return text != "quit"
		},
		Busy: func() <-chan struct{} {
			if f.done == nil {
				return nil
			}
			select {
			case <-f.done:
				f.done = nil
				return nil
			default:
				return f.done
			}
		},
		Held:      func() bool { return f.done != nil && f.held },
		Interrupt: f.stop,
		Fail:      func(err error) { f.failed = append(f.failed, err) },
	}
}

func (f *fakeEngine) stop() {
	if f.done != nil {
		f.log = append(f.log, "(stopped)")
		close(f.done)
		f.done = nil
	}
}

// TestServeOrder: while a search runs, AtOnce commands overtake the
// waiting ones, an Interrupt stops the search at once and then takes its
// turn (stopping the search a waiting command started), and at the end of
// the input the waiting commands run, a held search before them stopped.
func TestServeOrder(t *testing.T) {
	f := &fakeEngine{}
	input := "search 1\nset a\nready\nsearch 2\nstop\nhold\nset b\nready\n"
	if err := lines.Serve(context.Background(), strings.NewReader(input), f.session()); err != nil {
		t.Fatal(err)
	}
	want := "search 1|ready|(stopped)|set a|search 2|stop|(stopped)|hold|ready|(stopped)|set b"
	if got := strings.Join(f.log, "|"); got != want {
		t.Errorf("ran\n%s\nwant\n%s", got, want)
	}
}

// TestServeQuit: quit ends the session at once; the commands waiting are
// dropped.
func TestServeQuit(t *testing.T) {
	f := &fakeEngine{}
	if err := lines.Serve(context.Background(), strings.NewReader("search 1\nset a\nquit\nset b\n"), f.session()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.log, "|"); got != "search 1|quit" {
		t.Errorf("ran %s, want search 1|quit", got)
	}
}

// TestServeQueueBound: behind a search, at most MaxWaiting commands wait;
// the next are refused with ErrQueueFull, and the session goes on.
func TestServeQueueBound(t *testing.T) {
	f := &fakeEngine{}
	input := "search 1\n" + strings.Repeat("set\n", lines.MaxWaiting+3) + "stop\n"
	if err := lines.Serve(context.Background(), strings.NewReader(input), f.session()); err != nil {
		t.Fatal(err)
	}
	if len(f.failed) != 4 || !errors.Is(f.failed[0], lines.ErrQueueFull) {
		t.Fatalf("failures %v, want 4 ErrQueueFull (3 sets and the stop)", f.failed)
	}
	if sets := strings.Count(strings.Join(f.log, "|"), "set"); sets != lines.MaxWaiting {
		t.Errorf("%d sets ran, want %d", sets, lines.MaxWaiting)
	}
}

// TestServeCancelled: the end of the context ends a session whose
// commands wait behind a search that does not end.
func TestServeCancelled(t *testing.T) {
	f := &fakeEngine{}
	ctx, cancel := context.WithCancel(context.Background())
	s := f.session()
	handle := s.Handle
	s.Handle = func(text string) bool {
		if text == "set a" {
			t.Error("set a ran before the search ended")
		}
		ok := handle(text)
		if text == "search 1" {
			cancel()
		}
		return ok
	}
	if err := lines.Serve(ctx, strings.NewReader("search 1\nset a\n"), s); !errors.Is(err, context.Canceled) {
		t.Errorf("Serve: %v, want context.Canceled", err)
	}
}
