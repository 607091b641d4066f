package checkers

import (
	"fmt"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// The patterns evaluator reads the board in regions, as Scan (Fabien
// Letouzey's draughts program) does: nine overlapping 4x4 regions whose
// top-left corners lie on rows 0, 2, 4 and columns 0, 2, 4 (a stride of 2,
// so every square lies in one to four of them). A region holds 8 dark
// squares, two on each of its rows; on row r of a region at column C they
// are squares 4r+C/2 and 4r+C/2+1, whatever the row's parity (an even row's
// dark squares are on columns 1, 3, 5, 7, an odd row's on 0, 2, 4, 6).
//
// Everything is read from the side to move's point of view, its pieces
// moving down the board (towards square 31), as Black's do: when White is
// to move the board is turned half round (square s becomes 31-s, which
// bits.Reverse32 does to a whole bitboard) and the colours swapped. The
// left-right mirror is no symmetry of the board (it maps dark squares onto
// light ones, and the single corner onto the double), so every region has
// its own table.
//
// A region's configuration is its squares read in base 3 (0 empty, 1 a
// piece of the side to move, 2 an opponent's; a king counts as a piece
// here), the first square of the reading the least significant digit; its
// reading order is row by row, left to right. The 3^8 = 6561
// configurations by PatternStages stages make a region's table. The kings
// table adds a value for each king by its (turned) square, the side to
// move's and the opponent's apart, by stage.

// PatternStages is the number of game stages of the patterns evaluator's
// tables, by the number of pieces on the board (PatternStage).
const PatternStages = 4

// PatternStage is the stage of a position with pieces pieces on the board:
// (24 - pieces) * 4 / 24, at most 3: 19-24 pieces stage 0, 13-18 stage 1,
// 7-12 stage 2, 0-6 stage 3.
func PatternStage(pieces int) int {
	return min(PatternStages-1, max(0, (24-pieces)*PatternStages/24))
}

// The shape of the patterns evaluator's tables and features.
const (
	patternRegions     = 9                                    // the region tables, then kings
	regionConfigs      = 6561                                 // 3^8 configurations of a region
	regionTableSize    = PatternStages * regionConfigs        // [stage][configuration]
	kingsTableSize     = PatternStages * 2 * 32               // [stage][own, opponent's][square]
	kingsOffset        = patternRegions * regionTableSize     // where the kings table starts in Data
	patternDataSize    = kingsOffset + kingsTableSize         // Data's length
	patternTableCount  = patternRegions + 1                   // tables: the regions, then kings
	fullFeatureCount   = 10                                   // full's features come first
	patternFeatureSize = fullFeatureCount + patternTableCount // then one scale a table
	kingsScale         = fullFeatureCount + patternRegions    // the kings table's scale feature
	regionMaskBits     = 0x3333                               // a region's squares from its first
	regionGatherMask   = regionMaskBits | regionMaskBits<<32  // both sides' (regionGather)
	gatherPairs        = 0x0f0f | 0x0f0f<<32                  // after the first fold
	gatherBytes        = 0xff | 0xff<<32                      // after the second
	stageTableLen      = 33                                   // patternStageOf's length
	patternScaleDoc    = "scale of the %s table (its values are in the evaluation's units, score x100)"
	patternRegionDoc   = "4x4 region at rows %d-%d, columns %d-%d (8 dark squares): a value per configuration (empty, own piece, opponent's; a king counts as a piece) and stage, from the side to move's view"
	patternKingsDoc    = "kings by square, the side to move's and the opponent's, by stage, from the side to move's view (its men moving down the board)"
)

// regionShift[k] is the first square of region k (rows 4R.., column C/2):
// its 8 squares are regionShift[k] plus 0, 1, 4, 5, 8, 9, 12, 13. Region k
// has its top-left corner on row 2*(k/3), column 2*(k%3).
var regionShift = [patternRegions]uint8{0, 1, 2, 8, 9, 10, 16, 17, 18}

// regionRowCol returns the top-left corner of region k.
func regionRowCol(k int) (row, col int) { return 2 * (k / 3), 2 * (k % 3) }

// regionName is region k's table name: "r0c0" to "r4c4", by its corner.
func regionName(k int) string {
	r, c := regionRowCol(k)
	return fmt.Sprintf("r%dc%d", r, c)
}

// regionSquares returns region k's squares in reading order.
func regionSquares(k int) [8]int {
	var sq [8]int
	for j, d := range [8]int{0, 1, 4, 5, 8, 9, 12, 13} {
		sq[j] = int(regionShift[k]) + d
	}
	return sq
}

// regionMask returns region k's squares as a bitboard.
func regionMask(k int) Bitboard { return regionMaskBits << regionShift[k] }

// ternary8[x] reads the 8 bits of x as base-3 digits: bit j is 3^j.
var ternary8 = func() (t [256]uint16) {
	for x := range t {
		p := 1
		for j := range 8 {
			if x&(1<<j) != 0 {
				t[x] += uint16(p)
			}
			p *= 3
		}
	}
	return t
}()

// patternStageOf[n] is PatternStage(n), for n pieces (0 to 32).
var patternStageOf = func() (t [stageTableLen]uint8) {
	for n := range t {
		t[n] = uint8(PatternStage(n))
	}
	return t
}()

// patternView returns p's pieces from the side to move's point of view
// (its men moving down): both sides' pieces in one word, the side to
// move's in bits 0-31 and the opponent's in bits 32-63, and each side's
// kings.
func (p *Position) patternView() (both uint64, ownKings, oppKings Bitboard) {
	black, white := p.men[0]|p.kings[0], p.men[1]|p.kings[1]
	if p.turn == games.First {
		return uint64(black) | uint64(white)<<32, p.kings[0], p.kings[1]
	}
	return uint64(bits.Reverse32(white)) | uint64(bits.Reverse32(black))<<32,
		bits.Reverse32(p.kings[1]), bits.Reverse32(p.kings[0])
}

// regionGather takes region k's squares of both sides of both (patternView)
// to bits 0-7 (the side to move's) and 32-39 (the opponent's), in reading
// order: two folds of the rows' pairs of bits. Shifted by at most 18, the
// opponent's bits land from bit 14 on, clear of the side to move's mask.
func regionGather(both uint64, shift uint8) uint64 {
	x := both >> shift & regionGatherMask
	x = (x | x>>2) & gatherPairs
	return (x | x>>4) & gatherBytes
}

// regionReading is region k's configuration in both: 0 to 6560.
func regionReading(both uint64, shift uint8) int {
	g := regionGather(both, shift)
	return int(ternary8[g&0xff]) + 2*int(ternary8[g>>32&0xff])
}

// patternTables lays the tables out in Data, in this order: the regions'
// (shape [PatternStages, 6561]), then kings ([PatternStages, 2, 32]).
func patternTables() []games.Table {
	tables := make([]games.Table, 0, patternTableCount)
	for k := range patternRegions {
		r, c := regionRowCol(k)
		tables = append(tables, games.Table{
			Name:  regionName(k),
			Doc:   fmt.Sprintf(patternRegionDoc, r, r+3, c, c+3),
			Shape: []int{PatternStages, regionConfigs},
		})
	}
	return append(tables, games.Table{Name: "kings", Doc: patternKingsDoc, Shape: []int{PatternStages, 2, 32}})
}

// patternFeatures are full's features (the same names, meanings, defaults
// and ranges), then one scale a table, in the order of patternTables,
// named after its table: "r0c0-scale", ..., "kings-scale".
func patternFeatures() []games.Feature {
	fs := append([]games.Feature(nil), fullEvaluator.Features...)
	for _, t := range patternTables() {
		fs = append(fs, games.Feature{
			Name: t.Name + "-scale", Doc: fmt.Sprintf(patternScaleDoc, t.Name),
			Default: 1, Min: 0, Max: 4, Step: 0.05, Table: t.Name,
		})
	}
	return fs
}
