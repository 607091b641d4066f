// Package tournamenttest holds the benchmark every game's tests run on
// whole games: what a game of tuning costs, search and recording included.
// It lives beside tournament, not under games, because games never import
// the tournaments.
package tournamenttest

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// BenchmarkGame plays, an op each, the game of g from its start between two
// copies of evaluator ev with its default weights at depth, searching with
// tables of tableMiB. It reports the milliseconds a game takes and the
// game's plies.
func BenchmarkGame(b *testing.B, g games.Game, ev *games.Evaluator, depth, tableMiB int) {
	b.Helper()
	s, err := tournament.NewSearchers(tableMiB)
	if err != nil {
		b.Fatal(err)
	}
	pl := tournament.Player{Name: ev.Name, Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: depth}}
	spec := tournament.GameSpec{Game: g, First: pl, Second: pl}
	var plies int
	for b.Loop() {
		rec, err := tournament.Play(context.Background(), s, spec)
		if err != nil {
			b.Fatal(err)
		}
		plies = rec.Plies
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/game")
	b.ReportMetric(float64(plies), "plies")
}
