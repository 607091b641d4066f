package tournament

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// cancellingBook is a book of moves that offers the first legal move of
// every position and cancels its context at its lookup number at.
type cancellingBook struct {
	cancel      context.CancelFunc
	lookups, at int
}

func (b *cancellingBook) BookMoves(p games.Position) ([]games.WeightedMove, error) {
	if b.lookups++; b.lookups == b.at {
		b.cancel()
	}
	moves, _ := p.Moves(nil)
	return []games.WeightedMove{{Move: moves[0], Weight: 1}}, nil
}

// TestBookWalkChecksContext: a walk through a book looks at its context
// before each lookup: cancelled at the third, it makes no fourth.
func TestBookWalkChecksContext(t *testing.T) {
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	book := &cancellingBook{cancel: cancel, at: 3}
	_, moves, err := bookWalk(ctx, g, book, rand.New(rand.NewPCG(1, 2)), 1000)
	if !errors.Is(err, context.Canceled) || book.lookups != 3 || len(moves) != 3 {
		t.Errorf("cancelled at lookup 3: %d lookups, %d moves, %v; want 3, 3, context.Canceled", book.lookups, len(moves), err)
	}
}
