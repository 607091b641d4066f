package othello

import "math/bits"

// etcEmpties is the least number of empty squares at which a null-window
// node looks its moves' positions up in the table before searching them
// (12 rather than 16: 4% fewer nodes on FFO #45-#52, in about the same
// time on one worker; 11 since the probes are fetched together, 1% fewer
// nodes on #45-#48 and 1.6% on #49-#52 than 12, 10 no better).
var etcEmpties = 11

// etc looks the positions after each move up in the table (enhanced
// transposition cutoff): when one of them is bounded low enough that the
// move scores above alpha, the node is cut without a search; else it
// returns the move to search first by etcHint (-1: none). Their
// buckets are asked of memory all together first (prefetch), as these
// probes miss the processor's caches: on FFO #55 they were 12% of the
// time before; with the fetches first, FFO #53 on one worker took 5% less
// time (two pairs side by side, 93.3 s and 96.3 s against 94.9 s and
// 106.2 s).
func (w *worker) etc(p, o, moves Bitboard, alpha, n int) (int, int, bool) {
	t := w.tableOf(n - 1)
	var next [32][2]Bitboard // the positions after the moves
	var sqs [32]int8
	k := 0
	for m := moves; m != 0 && k < len(next); m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p, o, sq)
		next[k] = [2]Bitboard{o &^ f, p | f | 1<<sq}
		sqs[k] = int8(sq)
		t.fetch(next[k][0], next[k][1])
		k++
	}
	hint, hintUpper := -1, 99
	for i, x := range next[:k] {
		e, ok := t.probe(x[0], x[1])
		if !ok {
			continue
		}
		if e.bounds(w.level) && -int(e.upper) > alpha {
			w.nodes++
			return -int(e.upper), -1, true
		}
		if etcHint && -int(e.upper) > alpha && int(e.upper) < hintUpper {
			hint, hintUpper = int(sqs[i]), int(e.upper)
		}
	}
	return 0, hint, false
}

// etcHint: a null-window node with no move of its own in the table
// searches first the move whose position a less exact search (a
// selectivity level before) bounded best, when that bound puts the move
// above alpha: 1.6%, 0.3% and 0.8% fewer nodes on FFO #45-#48, #49-#52
// and #53 on one worker, in about the same time.
var etcHint = true
