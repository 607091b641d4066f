package learn

import (
	"context"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// TestSelfPlaySolverScores: self-play with the solver's moves at 12 empty
// squares or fewer (EndPlaySolver) records at each of those positions the
// score the engine's own exact search gives it (a searcher without the
// solver, from a fresh table), and ends each game with the result of the
// engine's play (EndPlayEngine) on the same seed: both play exactly from
// the game's first position in the exact range, which the two reach by
// the same moves.
func TestSelfPlaySolverScores(t *testing.T) {
	g := findGame(t, "othello")
	n := 24
	if testing.Short() {
		n = 8
	}
	for _, depth := range []int{2, 4} {
		p := builtin(t, g, "patterns", depth)
		opts := SelfPlayOptions{Games: n, Seed: 56}
		old, err := SelfPlay(context.Background(), newPool(t, 2), g, EndPlayEngine.Player(g, p), opts)
		if err != nil {
			t.Fatal(err)
		}
		played, err := SelfPlay(context.Background(), newPool(t, 2), g, EndPlaySolver.Player(g, p), opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.New(engine.Options{TableMiB: 2})
		if err != nil {
			t.Fatal(err)
		}
		checked, differ := 0, 0
		for i, game := range played {
			if game.Result != old[i].Result {
				t.Errorf("depth %d, game %d: result %v with the solver, %v with the engine", depth, i, game.Result, old[i].Result)
			}
			exact := firstExact(t, g, game.Moves)
			if exact < 0 || !samePrefix(game.Moves, old[i].Moves, exact) {
				t.Errorf("depth %d, game %d: the games part before their first position of %d empty squares (ply %d)",
					depth, i, othello.ExactEmpties, exact)
				continue
			}
			if !samePrefix(game.Moves, old[i].Moves, len(game.Moves)) || len(game.Moves) != len(old[i].Moves) {
				differ++
			}
			pos := g.Start()
			for ply, m := range game.Moves {
				if ply >= exact && game.Scores[ply] != NoScore {
					s.NewGame()
					res, err := s.Search(context.Background(), pos, p.Evaluator, p.Weights, p.Limits)
					if err != nil {
						t.Fatal(err)
					}
					if int64(res.Score) != int64(game.Scores[ply]) {
						t.Errorf("depth %d, game %d, ply %d (%s): score %d recorded, the engine's %d",
							depth, i, ply, pos, game.Scores[ply], res.Score)
					}
					checked++
				}
				pos.Play(m)
			}
		}
		if checked < 8*n || differ == 0 {
			t.Errorf("depth %d: %d positions checked, %d games of other moves: want some of each", depth, checked, differ)
		}
	}
}

// firstExact is the ply of the first position of moves (played from the
// start) with othello.ExactEmpties empty squares or fewer, -1 if none.
func firstExact(t *testing.T, g games.Game, moves []games.Move) int {
	t.Helper()
	pos := g.Start()
	for ply, m := range moves {
		if pos.(*othello.Position).Empties() <= othello.ExactEmpties {
			return ply
		}
		pos.Play(m)
	}
	return -1
}

// samePrefix tells whether a and b have the same first n moves.
func samePrefix(a, b []games.Move, n int) bool {
	if len(a) < n || len(b) < n {
		return false
	}
	for i := range n {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEndPlayPlayer: EndPlaySolver turns the end solver on for Othello's
// players only; the players of games without one (checkers, chess) stay
// as they were, and EndPlayEngine leaves every player's search exact.
func TestEndPlayPlayer(t *testing.T) {
	for _, c := range []struct {
		game string
		play EndPlay
		want bool
	}{
		{"othello", EndPlaySolver, true}, {"othello", EndPlayEngine, false},
		{"checkers", EndPlaySolver, false}, {"chess", EndPlaySolver, false}, {"chess", EndPlayEngine, false},
	} {
		g := findGame(t, c.game)
		p := builtin(t, g, g.Evaluators()[0].Name, 2)
		got := c.play.Player(g, p)
		if got.Search.SolveRoot != c.want || got.Search.Selective || got.Name != p.Name || got.Limits != p.Limits {
			t.Errorf("%s, %s: search %+v, want SolveRoot %v and the player otherwise unchanged", c.game, c.play, got.Search, c.want)
		}
	}
}
