package lines_test

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/protocol/lines"
)

// TestReader: lines come without their endings (CRLF too), a last line
// without a newline counts, a line over MaxLine is skipped with
// ErrTooLong, and the end of the input is io.EOF.
func TestReader(t *testing.T) {
	in := "uci\r\nisready\n" + strings.Repeat("x", lines.MaxLine+10) + "\n\ngo"
	ctx := context.Background()
	r := lines.NewReader(ctx, strings.NewReader(in))
	for _, want := range []struct {
		text string
		err  error
	}{{"uci", nil}, {"isready", nil}, {"", lines.ErrTooLong}, {"", nil}, {"go", nil}, {"", io.EOF}, {"", io.EOF}} {
		got, err := r.Next(ctx)
		if got != want.text || !errors.Is(err, want.err) {
			t.Fatalf("Next: %.20q %v, want %q %v", got, err, want.text, want.err)
		}
	}
}

// TestReaderCancelled: Next returns at once when its context ends, though
// the input has nothing to read.
func TestReaderCancelled(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := lines.NewReader(ctx, pr)
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	if _, err := r.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next after cancel: %v", err)
	}
}

// TestWriter: lines written from several goroutines are never mixed.
func TestWriter(t *testing.T) {
	var b strings.Builder
	w := lines.NewWriter(&b)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				w.Println("info depth 1", "bestmove e2e4")
			}
		}()
	}
	wg.Wait()
	w.Write("= \n\n")
	got := strings.Split(strings.TrimSuffix(b.String(), "= \n\n"), "\n")
	for i := 0; i+1 < len(got); i += 2 {
		if got[i] != "info depth 1" || got[i+1] != "bestmove e2e4" {
			t.Fatalf("lines %d-%d: %q %q", i, i+1, got[i], got[i+1])
		}
	}
}

// TestEach: every line in order to the handler until it says stop, a line
// too long to tooLong.
func TestEach(t *testing.T) {
	in := "a\n" + strings.Repeat("x", lines.MaxLine+1) + "\nb\nquit\nc\n"
	var got []string
	var long error
	err := lines.Each(context.Background(), strings.NewReader(in), func(err error) { long = err }, func(l string) bool {
		got = append(got, l)
		return l != "quit"
	})
	if err != nil || strings.Join(got, " ") != "a b quit" || !errors.Is(long, lines.ErrTooLong) {
		t.Fatalf("Each: %v, lines %q, too long %v", err, got, long)
	}
}

func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		line string
		want lines.Command
		ok   bool
	}{
		{"usermove e2e4", lines.Command{Name: "usermove", Args: []string{"e2e4"}, Rest: "e2e4"}, true},
		{"  set game (;GM[Othello] PB[a b];)\r\n", lines.Command{Name: "set", Args: []string{"game", "(;GM[Othello]", "PB[a", "b];)"}, Rest: "game (;GM[Othello] PB[a b];)"}, true},
		{"ping", lines.Command{Name: "ping", Args: []string{}}, true},
		{" \t\r\n", lines.Command{}, false},
	} {
		got, ok := lines.Split(tt.line)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
