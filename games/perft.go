package games

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Perft counts the leaves of the game tree exactly depth plies below p
// (games that end earlier are not extended; a pass is a ply). It uses the
// position's fast counter when it has one.
func Perft(p Position, depth int) uint64 {
	if f, ok := p.(Perfter); ok {
		return f.Perft(depth)
	}
	return perft(p, depth, perftBuffers(depth))
}

// PerftGeneric is Perft without the game's fast counter: the reference the
// fast counters are tested against.
func PerftGeneric(p Position, depth int) uint64 {
	return perft(p, depth, perftBuffers(depth))
}

func perftBuffers(depth int) [][]Move {
	bufs := make([][]Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return bufs
}

func perft(p Position, depth int, bufs [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves, outcome := p.Moves(bufs[depth][:0])
	bufs[depth] = moves[:0]
	if outcome != Ongoing {
		return 0
	}
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.Play(m)
		n += perft(p, depth-1, bufs)
		p.Undo()
	}
	return n
}

// perftSlice bounds the time PerftContext spends in one call of the fast
// counter, and so the time it takes to notice a cancellation.
const perftSlice = 5 * time.Millisecond

// PerftContext is Perft that stops when ctx is done: it returns 0 and
// ctx.Err() then, within about perftSlice (5 ms) of the cancellation on an
// unloaded machine, whatever the depth; otherwise the count Perft gives,
// at the same speed.
//
// It walks the first plies itself, checking ctx before each subtree, and
// hands the subtrees below a leaf depth to the game's fast counter (or the
// generic one) in single calls. The leaf depth adapts to the time those
// calls take: it starts at 1 and goes one ply deeper while the calls take
// well under perftSlice (on average under 1/64 of it over at least four
// calls, none over 1/8), so that one more ply, multiplying the cost by the
// branching factor, stays near perftSlice; it comes back up a ply when a
// call overruns perftSlice, and then never goes deeper again. The count
// does not depend on where the tree is split, only the time does: the
// walk's overhead is a Play, an Undo and a move list per position above
// the leaves, a small share of the counter's work below them. Positions
// whose fast counter follows other moves than Moves (chess through draws
// by rule) list them through PerftMover.
func PerftContext(ctx context.Context, p Position, depth int) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	w := perftWalk{ctx: ctx, p: p, leaf: 1, deepest: depth, bufs: perftBuffers(depth)}
	w.counter, _ = p.(Perfter)
	w.mover, _ = p.(PerftMover)
	return w.count(depth)
}

// perftWalk is the state of one PerftContext.
type perftWalk struct {
	ctx     context.Context
	p       Position
	counter Perfter    // the game's fast counter, or nil
	mover   PerftMover // the moves the fast counter follows, or nil
	bufs    [][]Move   // move lists by remaining depth, for the walk and the generic counter

	leaf    int           // subtrees this deep or less go to the counter in one call
	deepest int           // leaf never goes above this (lowered after an overrun)
	calls   int           // counter calls at depth leaf since leaf last changed
	total   time.Duration // their time
	longest time.Duration // the longest of them
}

func (w *perftWalk) count(depth int) (uint64, error) {
	if depth <= w.leaf {
		start := time.Now()
		var n uint64
		if w.counter != nil {
			n = w.counter.Perft(depth)
		} else {
			n = perft(w.p, depth, w.bufs)
		}
		w.adapt(depth, time.Since(start))
		return n, nil
	}
	var moves []Move
	if w.mover != nil {
		moves = w.mover.PerftMoves(w.bufs[depth][:0])
	} else {
		var outcome Outcome
		moves, outcome = w.p.Moves(w.bufs[depth][:0])
		if outcome != Ongoing {
			return 0, nil
		}
	}
	w.bufs[depth] = moves[:0]
	var n uint64
	for _, m := range moves {
		if err := w.ctx.Err(); err != nil {
			return 0, err
		}
		w.p.Play(m)
		sub, err := w.count(depth - 1)
		w.p.Undo()
		if err != nil {
			return 0, err
		}
		n += sub
	}
	return n, nil
}

// adapt moves the leaf depth after a counter call at depth that took took.
func (w *perftWalk) adapt(depth int, took time.Duration) {
	if took > perftSlice && w.leaf > 1 {
		w.leaf--
		w.deepest = w.leaf
		w.calls, w.total, w.longest = 0, 0, 0
		return
	}
	if depth != w.leaf || w.leaf >= w.deepest {
		return
	}
	w.calls++
	w.total += took
	w.longest = max(w.longest, took)
	if w.calls >= 4 && w.total < time.Duration(w.calls)*perftSlice/64 && w.longest < perftSlice/8 {
		w.leaf++
		w.calls, w.total, w.longest = 0, 0, 0
	}
}

// MaxPerftDepth bounds the depth of a perft a user may ask for.
const MaxPerftDepth = 30

// ParsePerftDepth reads the depth of a perft a user asked for: a whole
// number from 0 to MaxPerftDepth, or an error that says so.
func ParsePerftDepth(s string) (int, error) {
	d, err := strconv.Atoi(s)
	if err != nil || d < 0 || d > MaxPerftDepth {
		return 0, fmt.Errorf("perft: depth %q must be a whole number from 0 to %d", s, MaxPerftDepth)
	}
	return d, nil
}

// PerftCount is a timed perft as data (the JSON of 'tune perft').
type PerftCount struct {
	Game     string  `json:"game"`
	Position string  `json:"position"`
	Depth    int     `json:"depth"`
	Nodes    uint64  `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	NPS      float64 `json:"nps"` // nodes per second
}

// TimedPerft counts the leaves depth plies below p, a position of g, as
// PerftContext does, and times the count.
func TimedPerft(ctx context.Context, g Game, p Position, depth int) (PerftCount, error) {
	start := time.Now()
	nodes, err := PerftContext(ctx, p, depth)
	if err != nil {
		return PerftCount{}, err
	}
	secs := time.Since(start).Seconds()
	return PerftCount{Game: g.Name(), Position: p.String(), Depth: depth, Nodes: nodes, Seconds: secs, NPS: float64(nodes) / max(secs, 1e-9)}, nil
}
