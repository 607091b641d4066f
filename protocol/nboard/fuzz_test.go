package nboard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games/all"
)

// FuzzServe feeds any command sequence to Serve with a tiny search: it
// must not panic, and must return within a second of the end of its
// context, whatever the input asked for.
func FuzzServe(f *testing.F) {
	game := "set game (;GM[Othello]BO[8 " + startBoard + " *]B[F5];)"
	for _, s := range []string{
		"nboard 2\nset depth 2\n" + game + "\ngo\nping 1\nquit",
		"set depth 60\ngo\nmove d6\nhint 3\nping 2\nping x\nset contempt 99999",
		"move f5/1e400/-3\nmove pa\nset game (;GM[Othello];)\nlearn\nnboard NaN\nhint 0",
	} {
		f.Add(s)
	}
	g, err := all.Find("othello")
	if err != nil {
		f.Fatal(err)
	}
	ev := g.Evaluators()[0]
	f.Fuzz(func(t *testing.T, input string) {
		e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- Serve(ctx, strings.NewReader(input), io.Discard, e) }()
		select {
		case <-done:
		case <-time.After(1500 * time.Millisecond):
			t.Fatalf("Serve did not return within 1 s of its deadline on %q", input)
		}
	})
}
