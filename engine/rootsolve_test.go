package engine_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestSolveRootOnlyWhereItApplies: Options.SolveRoot changes nothing in a
// game without an end solver (chess, checkers, tic-tac-toe), nor in
// Othello outside its exact range (more than 12 empty squares), nor within
// it in a search with a node limit: the same move, score, PV and stats as
// without it. Within the range (depth-limited) it answers with the
// engine's score (TestSolveRootMatchesEngine in games/othello checks it
// on many positions).
func TestSolveRootOnlyWhereItApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 2))
	type search struct {
		game  string
		plies int
		lim   engine.Limits
		same  bool // the answer must be the same as without SolveRoot, stats included
	}
	for _, c := range []search{
		{"chess", 12, engine.Limits{Depth: 4}, true},
		{"checkers", 12, engine.Limits{Depth: 6}, true},
		{"tictactoe", 2, engine.Limits{Depth: 9}, true},
		{"othello", 20, engine.Limits{Depth: 4}, true},
		{"othello", 50, engine.Limits{Nodes: 200_000}, true},
		{"othello", 50, engine.Limits{Depth: 2}, false},
	} {
		g, err := all.Find(c.game)
		if err != nil {
			t.Fatal(err)
		}
		ev := g.Evaluators()[0]
		w := ev.Defaults()
		p := randomPosition(t, g, rng, c.plies)
		var res [2]engine.Result
		for i, on := range []bool{false, true} {
			s, err := engine.New(engine.Options{TableMiB: 1, SolveRoot: on})
			if err != nil {
				t.Fatal(err)
			}
			if res[i], err = s.Search(context.Background(), p, ev, w, c.lim); err != nil {
				t.Fatal(err)
			}
			res[i].PV = append([]games.Move(nil), res[i].PV...)
		}
		switch {
		case c.same && !reflect.DeepEqual(res[0], res[1]):
			t.Errorf("%s %s, %+v: with SolveRoot %+v, without %+v", c.game, p, c.lim, res[1], res[0])
		case !c.same && (res[0].Score != res[1].Score || res[0].Stats.Nodes == res[1].Stats.Nodes):
			t.Errorf("%s %s, %+v: with SolveRoot score %d in %d nodes, without %d in %d: want the same score, other nodes",
				c.game, p, c.lim, res[1].Score, res[1].Stats.Nodes, res[0].Score, res[0].Stats.Nodes)
		}
	}
}
