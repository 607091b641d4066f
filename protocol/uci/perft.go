package uci

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Division is a perft divided by the first move, as Stockfish's "go perft
// N" writes it: the leaves below each move of the position, in the order
// the game lists them, and their sum.
type Division struct {
	Moves  []string // in the notation of bestmove
	Counts []uint64 // Counts[i] leaves below Moves[i]
	Nodes  uint64   // the leaves in all; 1 at depth 0
}

// Divide counts the leaves depth plies below p, move by move, with
// games.PerftContext (the published perft tables); p is played on and
// restored. When ctx ends first it returns ctx's error and the moves
// counted so far.
func Divide(ctx context.Context, p games.Position, depth int) (Division, error) {
	var d Division
	if depth <= 0 {
		d.Nodes = 1
		return d, nil
	}
	var moves []games.Move
	if m, ok := p.(games.PerftMover); ok {
		moves = m.PerftMoves(nil)
	} else if ms, outcome := p.Moves(nil); outcome == games.Ongoing {
		moves = ms
	}
	for _, m := range moves {
		text := moveText(p, m)
		p.Play(m)
		n, err := games.PerftContext(ctx, p, depth-1)
		p.Undo()
		if err != nil {
			return d, err
		}
		d.Moves, d.Counts, d.Nodes = append(d.Moves, text), append(d.Counts, n), d.Nodes+n
	}
	return d, nil
}

// Lines writes the division as Stockfish does: "e2e4: 20" for each move,
// then an empty line, "Nodes searched: N" and an empty line.
func (d Division) Lines() []string {
	out := make([]string, 0, len(d.Moves)+3)
	for i, m := range d.Moves {
		out = append(out, m+": "+strconv.FormatUint(d.Counts[i], 10))
	}
	return append(out, "", "Nodes searched: "+strconv.FormatUint(d.Nodes, 10), "")
}

// counting is the perft a server runs on its own goroutine, so that
// commands are read meanwhile and stop ends it.
type counting struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// start counts depth plies below a copy of p and writes the division to
// out, or a line saying it was stopped.
func (c *counting) start(ctx context.Context, p games.Position, depth int, out *lines.Writer) {
	c.stop()
	q := p.Clone()
	ctx, c.cancel = context.WithCancel(ctx)
	c.done = make(chan struct{})
	go func(ctx context.Context, done chan struct{}) {
		defer close(done)
		d, err := Divide(ctx, q, depth)
		if err != nil {
			out.Println(InfoString(fmt.Sprintf("perft %d stopped after %d moves, %d nodes", depth, len(d.Moves), d.Nodes)))
			return
		}
		out.Println(d.Lines()...)
	}(ctx, c.done)
}

// busy is the end of the perft in flight; nil: none.
func (c *counting) busy() <-chan struct{} {
	if c.done == nil {
		return nil
	}
	select {
	case <-c.done:
		c.cancel()
		c.cancel, c.done = nil, nil
		return nil
	default:
		return c.done
	}
}

// stop ends the perft in flight, if any, and waits for its line.
func (c *counting) stop() {
	if c.done != nil {
		c.cancel()
		<-c.done
		c.cancel, c.done = nil, nil
	}
}
