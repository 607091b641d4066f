package engine

import (
	"fmt"
	"unsafe"

	"github.com/gametune/gametune/games"
)

// Bound says how a stored score relates to the true value of its position.
type bound uint8

const (
	boundNone  bound = iota // empty slot
	boundExact              // the score is exact
	boundLower              // the true value is at least the score (a beta cutoff)
	boundUpper              // the true value is at most the score (all moves failed low)
)

// entry is one slot of the transposition table: 24 bytes.
type entry struct {
	key   uint64
	move  games.Move
	score int32
	depth int16
	bound bound
	age   uint8 // the table's age when stored: an older slot is empty
}

// bucket holds two slots: slot 0 keeps the deepest result seen, slot 1 the
// most recent one. It is padded to a cache line (64 bytes), and the bucket
// array starts on one (the allocator aligns large blocks to pages), so a
// probe and the store after it touch one line: unpadded, one bucket in two
// straddled two lines, and the table's misses are most of what a search
// waits for.
type bucket struct {
	slot [2]entry
	_    [64 - 2*24]byte
}

// Table is a transposition table of a fixed size. Each bucket has two slots:
// a depth-preferred slot, replaced only by a result of at least the same
// depth, and an always-replace slot that takes everything else. Its memory
// is allocated once, by NewTable; Store and Probe never allocate.
//
// Clear costs nothing most of the time: every slot records the table's age
// when it was written, and Clear starts a new age, so that the older slots
// read as empty. Only when the 255 ages are used up does Clear wipe the
// memory (and go back to the first age).
type Table struct {
	buckets []bucket
	mask    uint64
	age     uint8 // 1-255; slots of another age are empty
}

// bucketSize is the size of one bucket in bytes.
const bucketSize = int(unsafe.Sizeof(bucket{}))

// NewTable returns a table of at most mib mebibytes: a power of two buckets
// of 64 bytes (two slots each), as many as fit. A power-of-two mib is used
// whole. mib must be at least 1.
func NewTable(mib int) (*Table, error) {
	if mib < 1 || mib > MaxTableMiB {
		return nil, fmt.Errorf("engine: transposition table size %d MiB out of range (1-%d)", mib, MaxTableMiB)
	}
	n := uint64(mib) << 20 / uint64(bucketSize)
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &Table{buckets: make([]bucket, size), mask: size - 1, age: 1}, nil
}

// Clear empties the table: in constant time but once every 255 calls,
// which wipe its memory.
func (t *Table) Clear() {
	if t.age == 255 {
		clear(t.buckets)
		t.age = 0
	}
	t.age++
}

// Len is the number of slots.
func (t *Table) Len() int { return 2 * len(t.buckets) }

// probe returns the slot holding key, if any.
func (t *Table) probe(key uint64) (entry, bool) {
	b := &t.buckets[key&t.mask].slot
	if b[0].age == t.age && b[0].key == key {
		return b[0], true
	}
	if b[1].age == t.age && b[1].key == key {
		return b[1], true
	}
	return entry{}, false
}

// store records a result for key.
func (t *Table) store(key uint64, move games.Move, score int32, depth int, b bound) {
	bk := &t.buckets[key&t.mask].slot
	e := entry{key: key, move: move, score: score, depth: int16(depth), bound: b, age: t.age}
	empty := bk[0].age != t.age
	if empty || bk[0].key == key || depth >= int(bk[0].depth) {
		if !empty && bk[0].key != key {
			bk[1] = bk[0] // the older deep result moves to the second slot
		}
		bk[0] = e
		return
	}
	bk[1] = e
}
