package othello

import (
	"math/bits"
	"sync/atomic"
)

// endTable is the exact solver's transposition table: bounds on the final
// score of positions searched to the end, keyed by the discs themselves
// (no hash collision can pass a wrong bound). Entries come in buckets of
// two, a cache line: the first keeps the entry with the most empty squares
// (the most work to redo), the second the latest.
//
// A table that workers share (share) takes no lock: each word of an entry
// is read and written whole (sync/atomic), and an entry carries a check of
// its other words, so that an entry read while another worker writes it,
// its words from two writes, fails the check and is taken for a miss. Two
// stores to one entry at once may lose one of them, as a full table loses
// entries: what is left is always true.
type endTable struct {
	entries []endEntry
	shift   uint
	shared  bool
}

// endEntry bounds a position's score: lower <= score <= upper, with its
// best move (-1 when none), its empty squares (0 for an unused entry) and
// the selectivity level of the search that found the bounds (exactLevel
// for an exact search), packed in data (endData); check is endCheck of
// the other three words.
type endEntry struct {
	p, o, data, check uint64
}

// endData is the unpacked data word of an entry.
type endData struct {
	lower, upper int8
	move         int8
	empties      uint8
	level        uint8 // the search's selectivity level (solve_selective.go)
}

func (d endData) pack() uint64 {
	return uint64(uint8(d.lower)) | uint64(uint8(d.upper))<<8 | uint64(uint8(d.move))<<16 | uint64(d.empties)<<24 |
		uint64(d.level)<<32
}

func unpack(x uint64) endData {
	return endData{lower: int8(x), upper: int8(x >> 8), move: int8(x >> 16), empties: uint8(x >> 24), level: uint8(x >> 32)}
}

// bounds tells whether d's bounds hold for a search at level: those of a
// search as exact as it or more. Entries of a less exact search serve it
// only for their move.
func (d endData) bounds(level int) bool { return int(d.level) >= level }

// endCheck mixes an entry's words, so that words of two entries rarely
// pass for one.
func endCheck(p, o, data uint64) uint64 {
	return (p*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(o, 29)*0xc2b2ae3d27d4eb4f ^ data) + 1
}

// newEndTable makes a table of about kib KiB (at least a bucket).
func newEndTable(kib int) endTable {
	n := uint(kib) << 10 / 32
	size := uint(2)
	for size*2 <= n {
		size *= 2
	}
	return endTable{entries: newEntries(int(size)), shift: uint(64 - bits.TrailingZeros(size))}
}

// share makes t safe for several workers.
func (t *endTable) share() { t.shared = true }

// bucket returns the index of the first entry of p, o's bucket.
func (t *endTable) bucket(p, o Bitboard) int {
	h := (p ^ bits.RotateLeft64(o, 23)) * 0x9e3779b97f4a7c15
	h ^= o * 0xc2b2ae3d27d4eb4f
	return int(h>>t.shift) &^ 1
}

// read returns e's words, whole words each in a shared table.
func (t *endTable) read(e *endEntry) endEntry {
	if !t.shared {
		return *e
	}
	return endEntry{atomic.LoadUint64(&e.p), atomic.LoadUint64(&e.o), atomic.LoadUint64(&e.data), atomic.LoadUint64(&e.check)}
}

// write sets e to p, o and d with its check.
func (t *endTable) write(e *endEntry, p, o Bitboard, d endData) {
	data := d.pack()
	check := endCheck(uint64(p), uint64(o), data)
	if !t.shared {
		*e = endEntry{uint64(p), uint64(o), data, check}
		return
	}
	atomic.StoreUint64(&e.check, 0) // a reader between the stores below sees a miss
	atomic.StoreUint64(&e.p, uint64(p))
	atomic.StoreUint64(&e.o, uint64(o))
	atomic.StoreUint64(&e.data, data)
	atomic.StoreUint64(&e.check, check)
}

// holds tells whether entry e, as read, is p, o's: used and whole.
func holds(e endEntry, p, o Bitboard) bool {
	return e.p == uint64(p) && e.o == uint64(o) && e.data>>24&0xff != 0 && e.check == endCheck(e.p, e.o, e.data)
}

// fetch starts bringing p, o's bucket into the processor's cache, so that
// a probe of it soon after does not wait as long.
func (t *endTable) fetch(p, o Bitboard) { prefetch(&t.entries[t.bucket(p, o)]) }

// probe returns the entry of p, o, and whether there is one.
func (t *endTable) probe(p, o Bitboard) (endData, bool) {
	i := t.bucket(p, o)
	b := t.entries[i : i+2 : i+2]
	if e := t.read(&b[0]); holds(e, p, o) {
		return unpack(e.data), true
	}
	if e := t.read(&b[1]); holds(e, p, o) {
		return unpack(e.data), true
	}
	return endData{}, false
}

// store records that a search of p, o (empties empty squares) at
// selectivity level (exactLevel for an exact search) in the window
// (alpha, beta) scored score with best move move. The bounds of an entry
// found at another level are replaced when the new search is more exact,
// and kept, with the new search's result dropped, when it is less.
func (t *endTable) store(p, o Bitboard, empties, alpha, beta, score, move, level int) {
	i := t.bucket(p, o)
	b := t.entries[i : i+2 : i+2]
	first, second := t.read(&b[0]), t.read(&b[1])
	var slot *endEntry
	d := endData{lower: -64, upper: 64, empties: uint8(empties), move: -1, level: uint8(level)}
	switch {
	case holds(first, p, o):
		slot, d = &b[0], unpack(first.data)
	case holds(second, p, o):
		slot, d = &b[1], unpack(second.data)
	case int(unpack(first.data).empties) <= empties || first.check != endCheck(first.p, first.o, first.data):
		if first.data>>24&0xff != 0 && first.check == endCheck(first.p, first.o, first.data) {
			t.write(&b[1], Bitboard(first.p), Bitboard(first.o), unpack(first.data))
		}
		slot = &b[0]
	default:
		slot = &b[1]
	}
	if int(d.level) != level {
		if int(d.level) > level {
			return // a more exact search's bounds stay
		}
		d.lower, d.upper, d.level = -64, 64, uint8(level)
	}
	switch {
	case score >= beta:
		d.lower = int8(max(int(d.lower), score))
	case score <= alpha:
		d.upper = int8(min(int(d.upper), score))
	default:
		d.lower, d.upper = int8(score), int8(score)
	}
	if move >= 0 && (score > alpha || d.move < 0) {
		d.move = int8(move)
	}
	t.write(slot, p, o, d)
}

// hugeTables: tables of hugePage and more ask the system for large
// pages (Linux).
var hugeTables = true

// clear empties the table.
func (t *endTable) clear() { clear(t.entries) }
