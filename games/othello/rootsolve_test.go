package othello_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// endPositions returns positions of random games from seed, one at each
// number of empty squares from ExactEmpties down to 1 that a game passes
// through with a move to play (a pass included), n games.
func endPositions(t testing.TB, seed uint64, n int) []*othello.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 56))
	var out []*othello.Position
	for range n {
		p := othello.Start()
		for {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				break
			}
			if p.Empties() <= othello.ExactEmpties {
				out = append(out, p.Clone().(*othello.Position))
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// TestSolveRootMatchesEngine: with engine.Options.SolveRoot, a search from
// a position of ExactEmpties or fewer empty squares returns the score of
// the engine's own search to the end (a searcher without it), at depth 1
// and 2; its move keeps that score (the engine's score of the position
// after it is the same win, draw or loss, a ply nearer); and the moves
// found do not depend on the searches before (the positions searched
// again in the reverse order, by the same searcher).
func TestSolveRootMatchesEngine(t *testing.T) {
	ps := endPositions(t, 7, 12)
	ev := othello.Game().Evaluators()[0]
	w := ev.Defaults()
	plain, err := engine.New(engine.Options{TableMiB: 2})
	if err != nil {
		t.Fatal(err)
	}
	solving, err := engine.New(engine.Options{TableMiB: 2, SolveRoot: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	moves := make([]games.Move, len(ps))
	wins, losses, draws := 0, 0, 0
	for i, p := range ps {
		for depth := 1; depth <= 2; depth++ {
			want, err := plain.Search(ctx, p, ev, w, engine.Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			got, err := solving.Search(ctx, p, ev, w, engine.Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if got.Score != want.Score || got.Stats.Nodes < 1 || got.Stats.Evals != 0 || len(got.PV) != 1 || got.PV[0] != got.Move {
				t.Fatalf("%s, depth %d: score %d, nodes %d, evals %d, PV %v; the engine's score %d",
					p, depth, got.Score, got.Stats.Nodes, got.Stats.Evals, got.PV, want.Score)
			}
			moves[i] = got.Move
		}
		v, mover := moves[i], p.Turn()
		p.Play(v)
		after, err := plain.Search(ctx, p, ev, w, engine.Limits{Depth: 1})
		score := 0
		if err == nil {
			score = -after.Score
		} else if err == engine.ErrGameOver {
			score = gameOverScore(p, mover)
		} else {
			t.Fatal(err)
		}
		p.Undo()
		want, _ := plain.Search(ctx, p, ev, w, engine.Limits{Depth: 1})
		switch {
		case want.Score > 0:
			wins++
			score--
		case want.Score < 0:
			losses++
			score++
		default:
			draws++
		}
		if score != want.Score {
			t.Fatalf("%s: move %s scores %d, the position %d", p, p.FormatMove(v), score, want.Score)
		}
	}
	for i := len(ps) - 1; i >= 0; i-- {
		got, err := solving.Search(ctx, ps[i], ev, w, engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got.Move != moves[i] {
			t.Fatalf("%s: move %s searched again, %s first", ps[i], ps[i].FormatMove(got.Move), ps[i].FormatMove(moves[i]))
		}
	}
	if wins == 0 || losses == 0 || draws == 0 {
		t.Errorf("%d wins, %d losses, %d draws among %d positions: want some of each", wins, losses, draws, len(ps))
	}
}

// gameOverScore is the score for mover of p, a finished game, as it is
// scored from the position before mover's last move, less the ply: Mate
// won, -Mate lost, 0 drawn.
func gameOverScore(p *othello.Position, mover games.Side) int {
	_, outcome := p.Moves(nil)
	winner, ok := outcome.Winner()
	switch {
	case !ok:
		return 0
	case winner == mover:
		return engine.Mate
	}
	return -engine.Mate
}

// TestSolveRootNoAllocs: searches with SolveRoot allocate nothing once the
// searcher has made its end solver.
func TestSolveRootNoAllocs(t *testing.T) {
	ps := endPositions(t, 9, 2)
	ev := othello.Game().Evaluators()[0]
	w := ev.Defaults()
	s, err := engine.New(engine.Options{TableMiB: 1, SolveRoot: true})
	if err != nil {
		t.Fatal(err)
	}
	search := func() {
		for _, p := range ps {
			if _, err := s.Search(context.Background(), p, ev, w, engine.Limits{Depth: 2}); err != nil {
				t.Fatal(err)
			}
		}
	}
	search()
	if n := testing.AllocsPerRun(5, search); n != 0 {
		t.Errorf("%v allocations a run of %d searches, want 0", n, len(ps))
	}
}
