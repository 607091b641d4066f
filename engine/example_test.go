package engine_test

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/nim"
	"github.com/gametune/gametune/games/tictactoe"
)

// A searcher finds the course's winning move from 20 matches: take 3,
// leaving 17 = 4*4 + 1.
func ExampleSearcher_Search() {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	p := nim.Game().Start()
	ev, _ := games.FindEvaluator(nim.Game(), "basic")
	res, _ := s.Search(context.Background(), p, ev, ev.Defaults(), engine.Limits{Depth: 20})
	fmt.Println("take", p.FormatMove(res.Move), "-", engine.IsWin(res.Score))
	// Output: take 3 - true
}

// Solve exhausts tic-tac-toe: a draw with best play.
func ExampleSearcher_Solve() {
	s, _ := engine.New(engine.Options{TableMiB: 1})
	ev, _ := games.FindEvaluator(tictactoe.Game(), "lines")
	sol, _ := s.Solve(context.Background(), tictactoe.Start(), ev, 9)
	fmt.Println(sol.Value, "at depth", sol.Depth)
	// Output: draw at depth 9
}
