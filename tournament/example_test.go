package tournament_test

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/tournament"
)

// A bracket of five entrants where the lower index always wins: byes for
// the first three seeds, and entrant 0 wins.
func ExampleKnockout() {
	lowerWins := func(ctx context.Context, batch []tournament.BracketGame) ([]float64, error) {
		scores := make([]float64, len(batch))
		for i, g := range batch {
			if g.A < g.B {
				scores[i] = 1
			}
		}
		return scores, nil
	}
	winner, matches, _ := tournament.Knockout(context.Background(), 5, tournament.BracketOptions{BestOf: 3}, lowerWins)
	for _, m := range matches {
		if m.B == tournament.Bye {
			fmt.Printf("round %d: %d has a bye\n", m.Round, m.A)
		} else {
			fmt.Printf("round %d: %d-%d, %g-%g\n", m.Round, m.A, m.B, m.ScoreA, m.ScoreB)
		}
	}
	fmt.Println("winner", winner)
	// Output:
	// round 0: 0 has a bye
	// round 0: 1 has a bye
	// round 0: 2 has a bye
	// round 0: 3-4, 3-0
	// round 1: 0-3, 3-0
	// round 1: 1-2, 3-0
	// round 2: 0-1, 3-0
	// winner 0
}
