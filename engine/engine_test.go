package engine_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/gametest"
)

// randomPosition plays up to plies random legal moves from the start and
// re-reads the result from its notation, so that it carries no history.
func randomPosition(t testing.TB, g games.Game, rng *rand.Rand, plies int) games.Position {
	t.Helper()
	p := g.Start()
	var buf []games.Move
	for i := 0; i < plies; i++ {
		moves, outcome := p.Moves(buf)
		if outcome != games.Ongoing {
			break
		}
		p.Play(moves[rng.IntN(len(moves))])
		if _, o := p.Moves(buf); o != games.Ongoing {
			p.Undo()
			break
		}
	}
	q, err := g.ParsePosition(p.String())
	if err != nil {
		t.Fatalf("%s: re-reading %q: %v", g.Name(), p.String(), err)
	}
	return q
}

// TestAlphaBetaMatchesMinimax is the engine's main property: on random
// reachable positions of every game, with random weights of every
// evaluator, the searcher with every enhancement on returns the value of
// plain minimax at the same depth. The depth is the largest (up to 5) whose
// minimax tree stays under a node budget, so that large games are checked
// at shallow depths and small games deeply.
func TestAlphaBetaMatchesMinimax(t *testing.T) {
	positions, budget := 300, int64(10000)
	if longChecks() {
		positions, budget = 1000, 20000
	}
	for _, g := range all.Games() {
		t.Run(g.Name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(g.Name()))))
			s, err := engine.New(engine.Options{TableMiB: 1, AspirationSize: 10, NoExact: true})
			if err != nil {
				t.Fatal(err)
			}
			checked, tried := 0, 0
			for pos := 0; pos < positions && tried < 20*positions; tried++ {
				p := randomPosition(t, g, rng, rng.IntN(40))
				if _, o := p.Moves(nil); o != games.Ongoing {
					continue
				}
				evs := g.Evaluators()
				ev := evs[rng.IntN(len(evs))]
				w := gametest.RandomWeights(rng, ev)
				for depth := 1; depth <= 5; depth++ {
					want, _, ok := engine.MinimaxLimited(p, ev, w, depth, budget)
					if !ok {
						break
					}
					if depth == 1 {
						pos++
					}
					s.NewGame()
					before := p.String()
					res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: depth})
					if err != nil {
						t.Fatalf("%q depth %d: %v", p, depth, err)
					}
					if p.String() != before {
						t.Fatalf("search changed the position: %q became %q", before, p)
					}
					if res.Score != want {
						t.Fatalf("%q (%s, weights %v) depth %d: alpha-beta %d, minimax %d", p, ev.Name, w, depth, res.Score, want)
					}
					checked++
				}
			}
			// Plain quiescence over every capture can exceed the budget even
			// at depth 1 in wild chess positions: those are skipped, and more
			// positions are drawn until the quota is met.
			if checked < positions {
				t.Fatalf("only %d searches checked in %d positions tried", checked, tried)
			}
			t.Logf("%d searches on %d positions agree with minimax (%d positions tried)", checked, positions, tried)
		})
	}
}

// TestEnhancementsOff checks that each enhancement switched off alone still
// gives the minimax value (each is an optimisation, none changes a value).
func TestEnhancementsOff(t *testing.T) {
	variants := map[string]engine.Options{
		"no-table":      {NoTable: true},
		"no-pvs":        {NoPVS: true},
		"no-aspiration": {NoAspiration: true},
		"no-killers":    {NoKillers: true},
		"no-history":    {NoHistory: true},
		"no-hint":       {NoHint: true},
	}
	for name, opts := range variants {
		t.Run(name, func(t *testing.T) {
			opts.TableMiB, opts.NoExact = 1, true
			s, err := engine.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range all.Games() {
				rng := rand.New(rand.NewPCG(7, 7))
				for i := 0; i < 50; i++ {
					p := randomPosition(t, g, rng, rng.IntN(20))
					if _, o := p.Moves(nil); o != games.Ongoing {
						continue
					}
					ev := g.Evaluators()[0]
					w := ev.Defaults()
					want, _, ok := engine.MinimaxLimited(p, ev, w, 2, 20000)
					if !ok {
						continue
					}
					s.NewGame()
					res, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 2})
					if err != nil {
						t.Fatal(err)
					}
					if res.Score != want {
						t.Fatalf("%s %q: got %d, minimax %d", g.Name(), p, res.Score, want)
					}
				}
			}
		})
	}
}

func TestSearchErrors(t *testing.T) {
	s, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find("tictactoe")
	ev := g.Evaluators()[0]
	ctx := context.Background()
	if _, err := s.Search(ctx, g.Start(), ev, ev.Defaults(), engine.Limits{}); err != engine.ErrNoLimit {
		t.Errorf("no limit: got %v, want ErrNoLimit", err)
	}
	if _, err := s.Search(ctx, g.Start(), ev, []float64{1}, engine.Limits{Depth: 2}); err == nil {
		t.Error("wrong number of weights: no error")
	}
	over, _ := g.ParsePosition("xxxoo----")
	if _, err := s.Search(ctx, over, ev, ev.Defaults(), engine.Limits{Depth: 2}); err != engine.ErrGameOver {
		t.Errorf("finished game: got %v, want ErrGameOver", err)
	}
	if _, err := engine.New(engine.Options{TableMiB: -1}); err == nil {
		t.Error("negative table size: no error")
	}
}

// TestNodeLimit checks that a node limit stops the search close to the
// limit and still returns a legal move, and that it is reproducible.
func TestNodeLimit(t *testing.T) {
	g, _ := all.Find("kono")
	ev := g.Evaluators()[0]
	s, _ := engine.New(engine.Options{TableMiB: 1})
	var first engine.Result
	for i := 0; i < 2; i++ {
		s.NewGame()
		res, err := s.Search(context.Background(), g.Start(), ev, ev.Defaults(), engine.Limits{Nodes: 500})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Nodes > 500 {
			t.Fatalf("visited %d nodes with a limit of 500", res.Stats.Nodes)
		}
		if _, err := g.Start().ParseMove(g.Start().FormatMove(res.Move)); err != nil {
			t.Fatalf("illegal move: %v", err)
		}
		if i == 1 && (res.Move != first.Move || res.Score != first.Score || res.Stats.Nodes != first.Stats.Nodes) {
			t.Fatalf("node-limited search not reproducible: %+v then %+v", first, res)
		}
		first = res
	}
}

// TestNodeLimitExact: in chess, where a limit often falls inside
// quiescence, no search visits more nodes than its limit, and it stops on
// it (the tree is larger than every limit tried).
func TestNodeLimitExact(t *testing.T) {
	g, _ := all.Find("chess")
	ev := g.Evaluators()[0]
	s, _ := engine.New(engine.Options{TableMiB: 1})
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 40; i++ {
		p := randomPosition(t, g, rng, rng.IntN(30))
		if _, o := p.Moves(nil); o != games.Ongoing {
			continue
		}
		limit := int64(500 + rng.IntN(5000))
		s.NewGame()
		res, err := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Nodes: limit, Depth: 30})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Nodes != limit {
			t.Fatalf("%q: visited %d nodes with a limit of %d", p, res.Stats.Nodes, limit)
		}
	}
}

func TestCancel(t *testing.T) {
	g, _ := all.Find("kono")
	ev := g.Evaluators()[0]
	s, _ := engine.New(engine.Options{TableMiB: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Search(ctx, g.Start(), ev, ev.Defaults(), engine.Limits{Depth: 40})
	if err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// BenchmarkSearch searches each game's start position; 0 allocs/op is the
// bar once the searcher's buffers have grown.
func BenchmarkSearch(b *testing.B) {
	depths := map[string]int{"tictactoe": 9, "nim": 20, "kono": 20}
	for _, g := range all.Games() {
		d, ok := depths[g.Name()]
		if !ok {
			continue
		}
		b.Run(g.Name(), func(b *testing.B) {
			s, _ := engine.New(engine.Options{TableMiB: 4})
			ev := g.Evaluators()[0]
			w := ev.Defaults()
			p := g.Start()
			ctx := context.Background()
			var nodes int64
			for b.Loop() {
				s.NewGame()
				res, _ := s.Search(ctx, p, ev, w, engine.Limits{Depth: d})
				nodes += res.Stats.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// TestSearchDoesNotAllocate: once a searcher's buffers have grown, a whole
// search allocates nothing, in every game.
func TestSearchDoesNotAllocate(t *testing.T) {
	depths := map[string]int{"tictactoe": 8, "kono": 8, "nim": 8, "othello": 4, "checkers": 5, "chess": 3}
	for _, g := range all.Games() {
		d, ok := depths[g.Name()]
		if !ok {
			t.Errorf("%s: no depth for the allocation test", g.Name())
			continue
		}
		s, _ := engine.New(engine.Options{TableMiB: 1})
		ev := g.Evaluators()[0]
		w := ev.Defaults()
		p := g.Start()
		ctx := context.Background()
		allocs := testing.AllocsPerRun(5, func() {
			s.NewGame()
			s.Search(ctx, p, ev, w, engine.Limits{Depth: d})
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per search", g.Name(), allocs)
		}
	}
}

// TestEvalCacheNewWeights: the evaluation cache keeps nothing from one
// search to the next, whose weights may differ: a searcher that searched
// each game's positions with one draw of weights searches them with
// another exactly as a new searcher does (score, move, nodes and
// evaluations).
func TestEvalCacheNewWeights(t *testing.T) {
	for _, g := range all.Games() {
		rng := rand.New(rand.NewPCG(7, uint64(len(g.Name()))))
		used, err := engine.New(engine.Options{TableMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 5; i++ {
			p := randomPosition(t, g, rng, 4+rng.IntN(20))
			if _, o := p.Moves(nil); o != games.Ongoing {
				continue
			}
			ev := g.Evaluators()[rng.IntN(len(g.Evaluators()))]
			w1, w2 := gametest.RandomWeights(rng, ev), gametest.RandomWeights(rng, ev)
			lim := engine.Limits{Depth: 3}
			used.NewGame()
			if _, err := used.Search(context.Background(), p, ev, w1, lim); err != nil {
				t.Fatal(err)
			}
			used.NewGame()
			got, err := used.Search(context.Background(), p, ev, w2, lim)
			if err != nil {
				t.Fatal(err)
			}
			fresh, _ := engine.New(engine.Options{TableMiB: 1})
			want, err := fresh.Search(context.Background(), p, ev, w2, lim)
			if err != nil {
				t.Fatal(err)
			}
			if got.Score != want.Score || got.Move != want.Move || got.Stats.Nodes != want.Stats.Nodes || got.Stats.Evals != want.Stats.Evals {
				t.Errorf("%s %q (%s): after other weights %d %v (%d nodes), a new searcher %d %v (%d nodes)",
					g.Name(), p, ev.Name, got.Score, got.Move, got.Stats.Nodes, want.Score, want.Move, want.Stats.Nodes)
			}
		}
	}
}
