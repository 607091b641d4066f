package engine_test

import (
	"strconv"
	"testing"

	"github.com/gametune/gametune/engine"
)

// depthTenPositions is how many of each game's middlegames (the first ones
// of its testdata file) BenchmarkDepthTen searches.
var depthTenPositions = map[string]int{"chess": 1, "othello": 4, "checkers": 4}

// exactChessDepth is the depth of the exact chess search in
// BenchmarkDepthTen: on its position it visits 128 million nodes to depth 8
// (100 s on one core) and grows some 5 times a ply, so that depth 10 would
// take about 40 minutes.
const exactChessDepth = 8

// BenchmarkDepthTen searches the first middlegames (depthTenPositions) of
// each game (testdata) to depth 10, exact and selective, from a new game
// each, and reports the nodes a position takes to reach depth 10 and the
// effective branching factor (the depth-th root of the mean nodes): the
// issue's "nodes to depth 10 before and after". The exact chess search goes
// to exactChessDepth only (the sub-benchmark's name says the depth). Run it
// alone, one iteration:
//
//	go test ./engine -run '^$' -bench DepthTen -benchtime 1x
func BenchmarkDepthTen(b *testing.B) {
	for _, c := range selectiveCases {
		ps, ev := c.load(b)
		ps = ps[:depthTenPositions[c.game]]
		w := ev.Defaults()
		for _, mode := range []struct {
			name string
			opts engine.Options
		}{
			{"exact", engine.Options{TableMiB: 64}},
			{"selective", engine.Options{TableMiB: 64, Selective: true}},
		} {
			depth := 10
			if c.game == "chess" && !mode.opts.Selective {
				depth = exactChessDepth
			}
			b.Run(c.game+"/"+mode.name+"/depth"+strconv.Itoa(depth), func(b *testing.B) {
				s, err := engine.New(mode.opts)
				if err != nil {
					b.Fatal(err)
				}
				var nodes int64
				var ebf float64
				for b.Loop() {
					nodes, ebf = searchCase(b, s, ps, ev, w, depth)
				}
				b.ReportMetric(float64(nodes)/float64(len(ps)), "nodes/position")
				b.ReportMetric(ebf, "ebf")
			})
		}
	}
}
