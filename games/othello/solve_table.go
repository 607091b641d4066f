package othello

import (
	"math/bits"
	"sync"
)

// endTable is the exact solver's transposition table: bounds on the final
// score of positions searched to the end, keyed by the discs themselves
// (no hash collision can pass a wrong bound). Entries come in buckets of
// two, a cache line: the first keeps the entry with the most empty squares
// (the most work to redo), the second the latest. A table that workers
// share (share) locks a stripe of buckets around each access.
type endTable struct {
	entries []endEntry
	shift   uint
	locks   []sync.Mutex // nil for a worker's own table
}

// endEntry bounds a position's score: lower <= score <= upper. move is the
// best move found, -1 when none.
type endEntry struct {
	p, o         Bitboard
	lower, upper int8
	move         int8
	empties      uint8    // 0 for an unused entry
	_            [12]byte // a bucket fills a cache line
}

// lockStripes is the number of locks of a shared table.
const lockStripes = 1 << 10

// newEndTable makes a table of about mib MiB (at least a bucket).
func newEndTable(mib int) endTable {
	n := uint(mib) << 20 / 32
	size := uint(2)
	for size*2 <= n {
		size *= 2
	}
	return endTable{entries: make([]endEntry, size), shift: uint(64 - bits.TrailingZeros(size))}
}

// share makes t safe for several workers.
func (t *endTable) share() { t.locks = make([]sync.Mutex, lockStripes) }

// bucket returns the index of the first entry of p, o's bucket.
func (t *endTable) bucket(p, o Bitboard) int {
	h := (p ^ bits.RotateLeft64(o, 23)) * 0x9e3779b97f4a7c15
	h ^= o * 0xc2b2ae3d27d4eb4f
	return int(h>>t.shift) &^ 1
}

// lock locks the stripe of bucket i of a shared table and returns its
// unlock, nil for a worker's own table.
func (t *endTable) lock(i int) *sync.Mutex {
	if t.locks == nil {
		return nil
	}
	m := &t.locks[i>>1&(lockStripes-1)]
	m.Lock()
	return m
}

// probe returns the entry of p, o, and whether there is one.
func (t *endTable) probe(p, o Bitboard) (endEntry, bool) {
	i := t.bucket(p, o)
	b := t.entries[i : i+2 : i+2]
	m := t.lock(i)
	var e endEntry
	ok := false
	switch {
	case b[0].p == p && b[0].o == o && b[0].empties != 0:
		e, ok = b[0], true
	case b[1].p == p && b[1].o == o && b[1].empties != 0:
		e, ok = b[1], true
	}
	if m != nil {
		m.Unlock()
	}
	return e, ok
}

// store records that a search of p, o (empties empty squares) in the
// window (alpha, beta) scored score with best move move.
func (t *endTable) store(p, o Bitboard, empties, alpha, beta, score, move int) {
	i := t.bucket(p, o)
	b := t.entries[i : i+2 : i+2]
	m := t.lock(i)
	var e *endEntry
	switch {
	case b[0].p == p && b[0].o == o && b[0].empties != 0:
		e = &b[0]
	case b[1].p == p && b[1].o == o && b[1].empties != 0:
		e = &b[1]
	case int(b[0].empties) <= empties:
		b[1] = b[0]
		e = &b[0]
		*e = endEntry{p: p, o: o, lower: -64, upper: 64, empties: uint8(empties), move: -1}
	default:
		e = &b[1]
		*e = endEntry{p: p, o: o, lower: -64, upper: 64, empties: uint8(empties), move: -1}
	}
	switch {
	case score >= beta:
		e.lower = int8(max(int(e.lower), score))
	case score <= alpha:
		e.upper = int8(min(int(e.upper), score))
	default:
		e.lower, e.upper = int8(score), int8(score)
	}
	if move >= 0 && (score > alpha || e.move < 0) {
		e.move = int8(move)
	}
	if m != nil {
		m.Unlock()
	}
}

// clear empties the table.
func (t *endTable) clear() { clear(t.entries) }
