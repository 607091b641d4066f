package chess

import (
	"fmt"
	"math/bits"
)

// Magic bitboards: the attacks of a rook or bishop on square s depend only
// on the occupied squares of its relevant mask (its rays without the edge
// square that ends each, which is attacked whether or not it is occupied).
// Multiplying those by the square's magic number and keeping the top bits
// gives an index into a table of attacks filled once at start; the magic
// numbers (magics.go) were found by trial so that two occupancies share an
// index only when their attacks are equal (go test -run Magic -update
// finds them again). An attack is then an AND, a multiply, a shift and a
// load.

// magicEntry is one square's way into its table.
type magicEntry struct {
	mask   Bitboard // the relevant occupancy
	magic  uint64
	offset uint32 // where the square's attacks start in the table
	shift  uint8  // 64 minus the index bits
}

var (
	rookMagics, bishopMagics [64]magicEntry
	rookTable                [102400]Bitboard // Σ 2^popcount(mask) over the squares
	bishopTable              [5248]Bitboard
)

func rookAttacks(s int, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return rookTable[m.offset+uint32((occ&m.mask)*m.magic>>m.shift)]
}

func bishopAttacks(s int, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return bishopTable[m.offset+uint32((occ&m.mask)*m.magic>>m.shift)]
}

// relevantMask returns the squares of s's rays (rook or bishop) whose
// occupancy changes its attacks: each ray without its farthest square (the
// highest of the two upward rays, the lowest of the two downward ones; see
// sliderRays).
func relevantMask(s int, bishop bool) Bitboard {
	first := 0
	if bishop {
		first = 4
	}
	var mask Bitboard
	for i, ray := range sliderRays[s][first : first+4] {
		if ray == 0 {
			continue
		}
		last := lsb(ray)
		if i < 2 {
			last = 63 - bits.LeadingZeros64(ray)
		}
		mask |= ray &^ (1 << last)
	}
	return mask
}

// fillMagics fills one kind's table from its magic numbers; it fails when
// two occupancies with different attacks meet at one index (a wrong magic
// number: TestMagics says so).
func fillMagics(entries *[64]magicEntry, table []Bitboard, magics *[64]uint64, bishop bool) error {
	attacks := rookRays
	if bishop {
		attacks = bishopRays
	}
	offset := 0
	for s := 0; s < 64; s++ {
		mask := relevantMask(s, bishop)
		bitsUsed := popcount(mask)
		e := magicEntry{mask: mask, magic: magics[s], offset: uint32(offset), shift: uint8(64 - bitsUsed)}
		size := 1 << bitsUsed
		if offset+size > len(table) {
			return fmt.Errorf("chess: magic tables too small (%d entries)", len(table))
		}
		filled := make([]bool, size)
		// Every subset of the mask, by the carry-rippler walk.
		for sub := Bitboard(0); ; {
			i := (sub * e.magic) >> e.shift
			a := attacks(s, sub)
			if filled[i] && table[offset+int(i)] != a {
				return fmt.Errorf("chess: magic %#x of square %d maps two attack sets to one index", e.magic, s)
			}
			table[offset+int(i)], filled[i] = a, true
			if sub = (sub - mask) & mask; sub == 0 {
				break
			}
		}
		entries[s] = e
		offset += size
	}
	if offset != len(table) {
		return fmt.Errorf("chess: magic tables need %d entries, have %d", offset, len(table))
	}
	return nil
}

// errMagics is the error of filling the tables at start, nil when the magic
// numbers are right; TestMagics checks it.
var errMagics error

// initMagics fills the tables; board.go's init calls it once the rays are
// ready.
func initMagics() {
	if err := fillMagics(&rookMagics, rookTable[:], &rookMagicNumbers, false); err != nil {
		errMagics = err
		return
	}
	errMagics = fillMagics(&bishopMagics, bishopTable[:], &bishopMagicNumbers, true)
}
