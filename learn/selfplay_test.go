package learn

import (
	"context"
	"reflect"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/tournament"
)

func findGame(t *testing.T, name string) games.Game {
	t.Helper()
	g, err := all.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newPool(t *testing.T, workers int) *tournament.Pool {
	t.Helper()
	p, err := tournament.NewPool(workers, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func builtin(t *testing.T, g games.Game, evaluator string, depth int) tournament.Player {
	t.Helper()
	ev, err := games.FindEvaluator(g, evaluator)
	if err != nil {
		t.Fatal(err)
	}
	return tournament.Player{Name: evaluator, Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: depth}}
}

// TestSelfPlayGames: self-play games replay legally from the start to
// their end, whose outcome by the rules is the stored result; the openings
// differ; the games do not depend on the number of workers.
func TestSelfPlayGames(t *testing.T) {
	g := findGame(t, "othello")
	p := builtin(t, g, "full", 1)
	opts := SelfPlayOptions{Games: 12, Seed: 7, First: 3}
	one, err := SelfPlay(context.Background(), newPool(t, 1), g, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	two, err := SelfPlay(context.Background(), newPool(t, 2), g, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("the games differ between 1 and 2 workers")
	}
	openings := map[uint64]bool{}
	for i, game := range one {
		pos := g.Start()
		for ply, m := range game.Moves {
			moves, out := pos.Moves(nil)
			if out != games.Ongoing || !legal(moves, m) {
				t.Fatalf("game %d: move %d is not legal", i, ply+1)
			}
			pos.Play(m)
			if ply == DefaultMinOpening-1 {
				openings[pos.Hash()] = true
			}
		}
		_, out := pos.Moves(nil)
		want := map[games.Outcome]float64{games.FirstWins: 1, games.SecondWins: 0, games.Draw: 0.5}
		if r, over := want[out]; !over || r != game.Result {
			t.Errorf("game %d ends %v with result %v", i, out, game.Result)
		}
	}
	if len(openings) < 8 {
		t.Errorf("12 games share their first %d plies: %d distinct", DefaultMinOpening, len(openings))
	}
	three, err := SelfPlay(context.Background(), newPool(t, 1), g, p, SelfPlayOptions{Games: 10, Seed: 7, First: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(three[:10], one[2:12]) {
		t.Error("game i depends on more than the seed and its index")
	}
}

// TestSelfPlayResultsAreExact: from the first position of a self-play game
// with at most othello.ExactEmpties empty squares, a separate solve gives
// the game's result.
func TestSelfPlayResultsAreExact(t *testing.T) {
	g := findGame(t, "othello")
	p := builtin(t, g, "full", 1)
	gs, err := SelfPlay(context.Background(), newPool(t, 2), g, p, SelfPlayOptions{Games: 6, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(engine.Options{TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, game := range gs {
		pos := g.Start().(*othello.Position)
		ply := 0
		for ; pos.Empties() > othello.ExactEmpties; ply++ {
			pos.Play(game.Moves[ply])
		}
		s.NewGame()
		res, err := s.Search(context.Background(), pos, p.Evaluator, p.Weights, engine.Limits{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		solved := 0.5
		switch {
		case engine.IsWin(res.Score):
			solved = 1
		case engine.IsLoss(res.Score):
			solved = 0
		case res.Score != 0:
			t.Fatalf("game %d: the solve at %d empties scored %d, not a result", i, pos.Empties(), res.Score)
		}
		if got := Label(game.Result, pos.Turn()); got != solved {
			t.Errorf("game %d: result %v for the side to move at ply %d, the solve says %v", i, got, ply, solved)
		}
	}
}

func TestSelfPlayRefusesBadOptions(t *testing.T) {
	g := findGame(t, "tictactoe")
	p := builtin(t, g, "", 1)
	for _, opts := range []SelfPlayOptions{
		{Games: -1}, {Games: 1, MinOpening: 5, MaxOpening: 2}, {Games: 1, MaxOpening: 61}, {Games: 1, First: -1},
	} {
		if _, err := SelfPlay(context.Background(), newPool(t, 1), g, p, opts); err == nil {
			t.Errorf("%+v: no error", opts)
		}
	}
	_, err := SelfPlay(context.Background(), newPool(t, 1), g, p, SelfPlayOptions{Games: 1, MinOpening: 9, MaxOpening: 9})
	if err == nil {
		t.Error("openings of 9 plies of tic-tac-toe: no error")
	}
}
