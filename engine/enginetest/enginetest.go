// Package enginetest holds the engine checks that every game's tests run:
// alpha-beta against plain minimax on the game's own positions. It lives
// beside the engine, not under games, because games never import the
// engine (games/gametest holds the checks that need only the contract).
package enginetest

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// AlphaBetaVersusMinimax searches every position to depth with a searcher
// of opts, checks each value against plain minimax, and returns how many
// times fewer nodes alpha-beta visited and the share of its beta cutoffs
// made by the first move searched.
func AlphaBetaVersusMinimax(t *testing.T, opts engine.Options, positions []games.Position, ev *games.Evaluator, w []float64, depth int) (ratio, firstShare float64) {
	t.Helper()
	s, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var ab, mm, cuts, first int64
	for _, p := range positions {
		s.NewGame()
		res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		v, nodes := engine.MinimaxNodes(p, ev, w, depth)
		if v != res.Score {
			t.Fatalf("%s: alpha-beta %d, minimax %d", p, res.Score, v)
		}
		ab += res.Stats.Nodes
		mm += nodes
		cuts += res.Stats.Cutoffs
		first += res.Stats.FirstCutoffs
	}
	ratio, firstShare = float64(mm)/float64(ab), float64(first)/float64(cuts)
	t.Logf("depth %d: minimax %d nodes, alpha-beta %d: %.0fx fewer; first-move cutoffs %.1f%%", depth, mm, ab, ratio, 100*firstShare)
	return ratio, firstShare
}
