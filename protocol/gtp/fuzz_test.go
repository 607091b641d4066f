package gtp

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
// context, whatever clocks the input set.
func FuzzServe(f *testing.F) {
	g, err := all.Find("othello")
	if err != nil {
		f.Fatal(err)
	}
	ev := g.Evaluators()[0]
	protocoltest.FuzzServe(f, []string{
		"1 protocol_version\nboardsize 8\nclear_board\nplay b d3\ngenmove w\nundo\nfinal_score\nquit",
		"time_settings 86400 86400 1000\ntime_left b 86400 1000\ngenmove b\ntime_left w NaN 0",
		"time_settings 0 30 5\ngenmove black\nkomi 1e999\nshowboard\nlist_commands\nknown_command genmove",
		"99999999999999999999 name\n# comment\n\x01version\ttime_left b 1 1",
	}, func(t *testing.T) protocoltest.ServeFunc {
		e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) }
	})
}
