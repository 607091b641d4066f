package uci

import (
	"context"
	"io"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// FuzzServe feeds any command sequence to Serve with a tiny default
// search: it must not panic, and must return within a second of the end of
// its context, whatever searches the input asked for.
func FuzzServe(f *testing.F) {
	g, err := all.Find("chess")
	if err != nil {
		f.Fatal(err)
	}
	ev := g.Evaluators()[0]
	protocoltest.FuzzServe(f, []string{
		"uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit",
		"position startpos\ngo depth 60\nposition startpos moves e2e4\ngo nodes 100\nstop\nisready",
		"position startpos\ngo infinite\nposition startpos\ngo\nucinewgame",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1\ngo perft 3\nstop\ngo perft 31",
		"setoption name Move Overhead value 5000\nsetoption name Hash value 0\ngo wtime 100 btime 100 movestogo 1000",
		"position startpos\ngo movetime 1\ngo mate 2 depth 1\nponderhit\nstop\nstop",
	}, func(t *testing.T) protocoltest.ServeFunc {
		e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, MaxTableMiB: 4, Limits: engine.Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) }
	})
}
