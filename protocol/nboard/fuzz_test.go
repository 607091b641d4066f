package nboard

import (
	"context"
	"io"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// FuzzServe feeds any command sequence to Serve with a tiny search: it
// must not panic, and must return within a second of the end of its
// context, whatever the input asked for.
func FuzzServe(f *testing.F) {
	game := "set game (;GM[Othello]BO[8 " + startBoard + " *]B[F5];)"
	g, err := all.Find("othello")
	if err != nil {
		f.Fatal(err)
	}
	ev := g.Evaluators()[0]
	protocoltest.FuzzServe(f, []string{
		"nboard 2\nset depth 2\n" + game + "\ngo\nping 1\nquit",
		"set depth 60\ngo\nmove d6\nhint 3\nping 2\nping x\nset contempt 99999",
		"move f5/1e400/-3\nmove pa\nset game (;GM[Othello];)\nlearn\nnboard NaN\nhint 0",
	}, func(t *testing.T) protocoltest.ServeFunc {
		e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) }
	})
}
