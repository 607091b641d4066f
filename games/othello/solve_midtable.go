package othello

import "math/bits"

// midTable keeps the bounds of a worker's midSearch scores (the sort and
// ProbCut searches, solve_order.go), so that a position those searches
// meet again at the same depth is cut or ordered from what they found:
// a node's sort searches of depth d reach its moves' moves at depth d-1,
// which the sort of a move's own moves asks for again. Each worker has
// its own, cleared before the root's moves are sorted, so that the root's
// order does not depend on what the workers searched before.
type midTable struct {
	entries []midEntry
	shift   uint
}

// midEntry bounds the depth-deep midSearch score of p, o (tenths of a
// disc): lower <= score <= upper, with the best move found (-1: none).
type midEntry struct {
	p, o         Bitboard
	lower, upper int32
	depth, move  int8
}

// midTableBits: a worker's midTable has 1<<midTableBits entries (32 bytes
// each): 256 KiB, beside the near table in the processor's L2. On FFO
// #49-#52 (one worker) the table took 1.2% fewer nodes and 4-6% less
// time; 1 or 4 MiB found the same nodes, more slowly.
var midTableBits = 13

// midTableDepth is the least depth of the midSearch nodes kept (from 1:
// the same time).
var midTableDepth = 2

func newMidTable(bits int) midTable {
	return midTable{entries: make([]midEntry, 1<<bits), shift: uint(64 - bits)}
}

// slot is the entry of p, o: its own when it holds them.
func (t *midTable) slot(p, o Bitboard) *midEntry {
	h := (p ^ bits.RotateLeft64(o, 31)) * 0x9e3779b97f4a7c15
	return &t.entries[h>>t.shift]
}

// clear empties the table.
func (t *midTable) clear() { clear(t.entries) }
