package learn

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// BenchmarkSelfPlay plays 'tune learn's self-play: Othello games of the
// patterns evaluator (the shipped tables and weights) against itself at
// depth 2 and 4, on a pool of a worker per processor with 'tune learn's
// table size (2 MiB), 64 games an op from the same seed each time, with
// each EndPlay (end=engine, the engine's own search to the end; end=solver,
// the game's solver's moves there), and reports the positions (moves, the
// random openings' included) played per second.
func BenchmarkSelfPlay(b *testing.B) {
	g, err := all.Find("othello")
	if err != nil {
		b.Fatal(err)
	}
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		b.Fatal(err)
	}
	for _, run := range []struct {
		depth int
		end   EndPlay
	}{{2, EndPlayEngine}, {2, EndPlaySolver}, {4, EndPlayEngine}, {4, EndPlaySolver}} {
		b.Run(fmt.Sprintf("depth=%d/end=%s", run.depth, run.end), func(b *testing.B) {
			pool, err := tournament.NewPool(runtime.GOMAXPROCS(0), 2)
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			p := run.end.Player(g, tournament.Player{Name: "patterns", Evaluator: ev, Weights: ev.Defaults(),
				Limits: engine.Limits{Depth: run.depth}})
			positions := 0
			for b.Loop() {
				played, err := SelfPlay(context.Background(), pool, g, p, SelfPlayOptions{Games: 64, Seed: 56})
				if err != nil {
					b.Fatal(err)
				}
				for _, game := range played {
					positions += len(game.Moves)
				}
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
