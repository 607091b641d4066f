package enginetest_test

import (
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/enginetest"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/tictactoe"
)

// TestTicTacToe runs the check on tic-tac-toe's start and the positions one
// move later: alpha-beta agrees with minimax and visits fewer nodes.
func TestTicTacToe(t *testing.T) {
	start := tictactoe.Start()
	positions := []games.Position{start.Clone()}
	moves, _ := start.Moves(nil)
	for _, m := range moves {
		p := start.Clone()
		p.Play(m)
		positions = append(positions, p)
	}
	ev, err := games.FindEvaluator(tictactoe.Game(), "")
	if err != nil {
		t.Fatal(err)
	}
	ratio, _ := enginetest.AlphaBetaVersusMinimax(t, engine.Options{TableMiB: 1}, positions, ev, ev.Defaults(), 5)
	if ratio <= 1 {
		t.Fatalf("alpha-beta visited %.2f times fewer nodes than minimax, want more than 1", ratio)
	}
}
