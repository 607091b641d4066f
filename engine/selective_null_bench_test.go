package engine_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
)

// nullModes are the searchers TestNullMoveTreeSizes compares: the
// selective search, the same without null move, and one more for each
// set of search parameters in GAMETUNE_VARIANT_PARAMS ("name=value,...",
// sets separated by ";") over the game's defaults.
func nullModes(t *testing.T, defaults engine.SearchParams) (names []string, opts []engine.Options) {
	t.Helper()
	names = []string{"selective", "-null"}
	opts = []engine.Options{{Selective: true}, {Selective: true, NoNullMove: true}}
	for _, set := range strings.Split(os.Getenv("GAMETUNE_VARIANT_PARAMS"), ";") {
		if set == "" {
			continue
		}
		m := map[string]float64{}
		for _, kv := range strings.Split(set, ",") {
			k, v, _ := strings.Cut(kv, "=")
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("GAMETUNE_VARIANT_PARAMS: %q: %v", kv, err)
			}
			m[k] = f
		}
		p, err := engine.SearchParamsFrom(defaults, m)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, set)
		opts = append(opts, engine.Options{Selective: true, Params: p})
	}
	return names, opts
}

// TestNullMoveTreeSizes prints, with GAMETUNE_EXPERIMENTS=1, the nodes and
// time the selective chess search (pst) takes to each depth of
// GAMETUNE_DEPTHS (default "8,10") on the middlegames of testdata, with
// and without null move (and with the parameter sets of
// GAMETUNE_VARIANT_PARAMS), each position searched from a new game. The
// searchers take the positions in turn, so that a load on the machine
// falls on all of them alike: the ratios of their times hold on a shared
// core, their times do not. Node counts do not depend on the load.
func TestNullMoveTreeSizes(t *testing.T) {
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a measurement of a few minutes: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
	c := selectiveCases[0]
	ps, ev := c.load(t)
	w := ev.Defaults()
	names, opts := nullModes(t, engine.DefaultSearchParams(ps[0]))
	depths := os.Getenv("GAMETUNE_DEPTHS")
	if depths == "" {
		depths = "8,10"
	}
	for _, ds := range strings.Split(depths, ",") {
		depth, err := strconv.Atoi(ds)
		if err != nil {
			t.Fatalf("GAMETUNE_DEPTHS: %q: %v", ds, err)
		}
		searchers := make([]*engine.Searcher, len(opts))
		for i, o := range opts {
			if searchers[i], err = engine.New(o); err != nil {
				t.Fatal(err)
			}
		}
		nodes := make([]int64, len(opts))
		took := make([]time.Duration, len(opts))
		for _, p := range ps {
			for i, s := range searchers {
				s.NewGame()
				start := time.Now()
				res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: depth})
				if err != nil {
					t.Fatal(err)
				}
				took[i] += time.Since(start)
				nodes[i] += res.Stats.Nodes
			}
		}
		for i, name := range names {
			t.Logf("chess depth %2d %-40s %9d nodes/position (%.3f of selective), %6.0f ms/position (%.3f)", depth, name,
				nodes[i]/int64(len(ps)), float64(nodes[i])/float64(nodes[0]),
				float64(took[i].Milliseconds())/float64(len(ps)), float64(took[i])/float64(took[0]))
		}
	}
}
