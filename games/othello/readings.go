package othello

import (
	"encoding/binary"
	"math/bits"
)

// A position's readings (halfReadings) are linear in its discs: those of
// own and opp are those of own alone plus twice those of opp alone. So a
// move's are its node's updated by the discs it changes, a disc's share
// being its square's (squareReadings), which Frontier does: it reads each
// node two plies above the horizon once and updates the readings down to
// the positions it evaluates, cheaper than reading them afresh.

// squareReadings[s] are the readings of a disc of the side to move on
// square s alone (an opponent's disc reads twice them).
var squareReadings = func() (t [64]halfReadings) {
	for s := range t {
		t[s].readGo(1<<s, 0)
	}
	return t
}()

// moveReadings sets out to base, the readings of a node seen from the
// side to move's opponent, after the side to move played sq and flipped
// fl, seen from the new side to move: a flipped disc from once to twice
// its square's readings, the disc played twice its square's.
func moveReadings(base *halfReadings, fl Bitboard, sq int, out *halfReadings) {
	updateReadings(&squareReadings, base, uint64(fl), 1<<sq, 0, out)
}

// undoReadings sets out to node, the readings of a node seen from its side
// to move, after that side played sq and flipped fl, seen from the side
// that played: the flipped discs from twice to once their squares'
// readings, the disc played once its square's.
func undoReadings(node *halfReadings, fl Bitboard, sq int, out *halfReadings) {
	updateReadings(&squareReadings, node, 1<<sq, 0, uint64(fl), out)
}

// updateReadingsGo sets out to base plus the readings of the squares of
// once, twice those of twice, less those of minus (updateReadings in Go).
func updateReadingsGo(t *[64]halfReadings, base *halfReadings, once, twice, minus uint64, out *halfReadings) {
	*out = *base
	for _, x := range [...]struct{ squares, k uint64 }{{once, 1}, {twice, 2}, {minus, ^uint64(0)}} {
		for b := x.squares; b != 0; b &= b - 1 {
			addReadings(out, &t[bits.TrailingZeros64(b)], x.k)
		}
	}
}

// addReadings adds k times d to r, word by word (k = -1 as a uint64 takes
// d away: the words wrap, and every lane ends exact, as it ends with the
// readings of discs).
func addReadings(r, d *halfReadings, k uint64) {
	for j := 0; j < halfReadingBytes; j += 8 {
		binary.LittleEndian.PutUint64(r[j:], binary.LittleEndian.Uint64(r[j:])+k*binary.LittleEndian.Uint64(d[j:]))
	}
}
