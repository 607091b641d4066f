package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestSearchEach: each completed iteration is given once, depths 1 to the
// limit in order with growing nodes; the last is the search's result; and
// the search is the one Search makes: the same move, score and nodes.
func TestSearchEach(t *testing.T) {
	for _, name := range []string{"chess", "othello", "checkers"} {
		g, _ := all.Find(name)
		ev := g.Evaluators()[0]
		w := ev.Defaults()
		const depth = 5
		plain, err := engine.New(engine.Options{TableMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.Search(context.Background(), g.Start(), ev, w, engine.Limits{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		each, _ := engine.New(engine.Options{TableMiB: 1})
		var its []engine.Result
		got, err := each.SearchEach(context.Background(), g.Start(), ev, w, engine.Limits{Depth: depth}, func(r engine.Result) {
			r.PV = append([]games.Move(nil), r.PV...)
			its = append(its, r)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.Move != want.Move || got.Score != want.Score || got.Stats != want.Stats || !reflect.DeepEqual(got.PV, want.PV) {
			t.Errorf("%s: SearchEach %+v, Search %+v", name, got, want)
		}
		if len(its) != depth {
			t.Fatalf("%s: %d iterations, want %d", name, len(its), depth)
		}
		for i, it := range its {
			if it.Stats.Depth != i+1 || len(it.PV) == 0 || it.PV[0] != it.Move || (i > 0 && it.Stats.Nodes <= its[i-1].Stats.Nodes) {
				t.Errorf("%s: iteration %d: depth %d, %d nodes, pv %v", name, i+1, it.Stats.Depth, it.Stats.Nodes, it.PV)
			}
		}
		last := its[depth-1]
		if last.Move != got.Move || last.Score != got.Score || last.Stats != got.Stats {
			t.Errorf("%s: last iteration %+v, result %+v", name, last, got)
		}
	}
}
