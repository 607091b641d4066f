// Package enginetest holds the engine checks that every game's tests run:
// alpha-beta against plain minimax on the game's own positions. It lives
// beside the engine, not under games, because games never import the
// engine (games/gametest holds the checks that need only the contract).
package enginetest

import (
	"context"
	"math"
	"testing"
	"time"

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

// Searched is one side of SearchRatio: an evaluator, its weights and the
// name its metric carries.
type Searched struct {
	Name string
	Ev   *games.Evaluator
	W    []float64
}

// SearchRatio searches each position to depth with old, then at once with
// new, per iteration of b (a searcher of a tableMiB table, cleared before
// each search), reports each one's nodes per second and the ratio of new's
// over old's, and fails below floor. Each search visits the same nodes
// every time, so each position counts its fastest search with each: the
// machine's other work slows some runs, never speeds one up, and a
// position's two searches, run back to back, see the machine alike. Run it
// with -benchtime 3x or more.
func SearchRatio(b *testing.B, positions []games.Position, depth, tableMiB int, old, new Searched, floor float64) {
	b.Helper()
	s, err := engine.New(engine.Options{TableMiB: tableMiB})
	if err != nil {
		b.Fatal(err)
	}
	nodes := make([][2]int64, len(positions))
	times := make([][2]float64, len(positions))
	for i := range times {
		times[i] = [2]float64{math.Inf(1), math.Inf(1)}
	}
	for b.Loop() {
		for i, p := range positions {
			for j, e := range [2]Searched{old, new} {
				n, t := searchOne(b, s, p, depth, e)
				nodes[i][j], times[i][j] = n, min(times[i][j], t)
			}
		}
	}
	var rate [2]float64
	for j := range rate {
		var n int64
		var t float64
		for i := range positions {
			n, t = n+nodes[i][j], t+times[i][j]
		}
		rate[j] = float64(n) / t
	}
	oldRate, newRate := rate[0], rate[1]
	ratio := newRate / oldRate
	b.ReportMetric(oldRate, old.Name+"-nodes/s")
	b.ReportMetric(newRate, new.Name+"-nodes/s")
	b.ReportMetric(ratio, "ratio")
	if ratio < floor {
		b.Fatalf("%s searches %.0f nodes/s, %.2f of %s's %.0f: want at least %.2f", new.Name, newRate, ratio, old.Name, oldRate, floor)
	}
}

// SearchAll searches every position to depth with e, s cleared before
// each, and returns the nodes visited and the seconds the searches took
// (the clearing not included).
func SearchAll(b *testing.B, s *engine.Searcher, positions []games.Position, depth int, e Searched) (nodes int64, seconds float64) {
	b.Helper()
	for _, p := range positions {
		n, t := searchOne(b, s, p, depth, e)
		nodes, seconds = nodes+n, seconds+t
	}
	return nodes, seconds
}

// searchOne searches p to depth with e, s cleared before, and returns the
// nodes visited and the seconds the search took.
func searchOne(b *testing.B, s *engine.Searcher, p games.Position, depth int, e Searched) (int64, float64) {
	b.Helper()
	s.NewGame()
	start := time.Now()
	res, err := s.Search(context.Background(), p, e.Ev, e.W, engine.Limits{Depth: depth})
	if err != nil {
		b.Fatal(err)
	}
	return res.Stats.Nodes, time.Since(start).Seconds()
}
