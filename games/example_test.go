package games_test

import (
	"fmt"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// Perft counts Othello's positions four plies from the start.
func ExamplePerft() {
	fmt.Println(games.Perft(othello.Start(), 4))
	// Output: 244
}
