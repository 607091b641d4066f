package othello

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The evaluation's lookup before issue 56 (per-instance gathers and two
// base-3 lookups an instance), kept to check the new one against and to
// measure both side by side.

// oldPatternLookup writes into sums, class by class, the sum of e's values
// over the instances' readings for own and opp: those of patternReadings,
// added in its order. It makes no store before its last lookup, and the
// straight-line code of its three parts returns its sums in registers:
// otherwise the compiler, free to compute every gather before the first
// load, spills most of them.
func oldPatternLookup(own, opp Bitboard, e *patternStageTable, sums *[patternClassCount]float32) {
	ownT, oppT := transpose(own), transpose(opp)
	edge, corner3, corner5 := oldEdgeCornerSums(lowRanks(own, opp), highRanks(own, opp), e)
	edgeT, _, corner5T := oldEdgeCornerSums(lowRanks(ownT, oppT), highRanks(ownT, oppT), e)
	row2, row3, row4 := oldRowSums(own, opp, ownT, oppT, e)
	d8, d7, d6, d5, d4 := oldDiagonalSums(own, opp, e)
	*sums = [...]float32{edge + edgeT, corner3, corner5 + corner5T, row2, row3, row4, d8, d7, d6, d5, d4}
}

// plainPatterns lays data out as the expanded tables were before their
// places (patternPlaces): [s][r] is the value at stage s of reading r, the
// readings of patternReadings, which the old lookup reads.
func plainPatterns(data []float32) *[PatternStages]patternStageTable {
	l, classes := layout(), patterns().classes
	ex := new([PatternStages]patternStageTable)
	c := 0
	for r, e := range l.entry {
		for c+1 < len(classes) && classes[c+1].Offset <= r {
			c++
		}
		for s := range ex {
			ex[s][r] = data[int(e)+s*l.counts[c]]
		}
	}
	return ex
}

// oldLook is e's value of reading x.
func oldLook(e *patternStageTable, x int32) float32 { return e[uint32(x)&(patternStageSize-1)] }

// oldEdgeCornerSums sums the edges and corners along the ranks, read from
// the low and high ranks (lowRanks, highRanks) of the board; transposed,
// it sums those along the files but the corner3x3 instances, which it
// already holds: then corner3 is to be left out. One call a side of the
// board keeps the gathers in registers.
func oldEdgeCornerSums(lo, hi Bitboard, e *patternStageTable) (edge, corner3, corner5 float32) {
	edge1, corner31, corner51 := oldLowEdgeCornerSums(lo, e)
	edge8, corner38, corner58 := oldHighEdgeCornerSums(hi, e)
	return edge1 + edge8, corner31 + corner38, corner51 + corner58
}

func oldLowEdgeCornerSums(lo Bitboard, e *patternStageTable) (edge, corner3, corner5 float32) {
	edge = oldLook(e, edgeOffset+pairReading(&ternary, edge1(lo)))
	corner3 = oldLook(e, corner3x3Offset+pairReading(&ternary, corner3a1(lo))) + oldLook(e, corner3x3Offset+pairReading(&ternary3x3, corner3h1(lo)))
	corner5 = oldLook(e, corner2x5Offset+pairReading(&ternary, corner5a1(lo))) + oldLook(e, corner2x5Offset+pairReading(&ternary5x2, corner5h1(lo)))
	return edge, corner3, corner5
}

func oldHighEdgeCornerSums(hi Bitboard, e *patternStageTable) (edge, corner3, corner5 float32) {
	edge = oldLook(e, edgeOffset+pairReading(&ternary, edge8(hi)))
	corner3 = oldLook(e, corner3x3Offset+pairReading(&ternary, corner3a8(hi))) + oldLook(e, corner3x3Offset+pairReading(&ternary3x3, corner3h8(hi)))
	corner5 = oldLook(e, corner2x5Offset+pairReading(&ternary, corner5a8(hi))) + oldLook(e, corner2x5Offset+pairReading(&ternary5x2, corner5h8(hi)))
	return edge, corner3, corner5
}

func oldRowSums(own, opp, ownT, oppT Bitboard, e *patternStageTable) (row2, row3, row4 float32) {
	row2 = oldLook(e, row2Offset+rankReading(own, opp, 1)) + oldLook(e, row2Offset+rankReading(own, opp, 6)) +
		oldLook(e, row2Offset+rankReading(ownT, oppT, 1)) + oldLook(e, row2Offset+rankReading(ownT, oppT, 6))
	row3 = oldLook(e, row3Offset+rankReading(own, opp, 2)) + oldLook(e, row3Offset+rankReading(own, opp, 5)) +
		oldLook(e, row3Offset+rankReading(ownT, oppT, 2)) + oldLook(e, row3Offset+rankReading(ownT, oppT, 5))
	row4 = oldLook(e, row4Offset+rankReading(own, opp, 3)) + oldLook(e, row4Offset+rankReading(own, opp, 4)) +
		oldLook(e, row4Offset+rankReading(ownT, oppT, 3)) + oldLook(e, row4Offset+rankReading(ownT, oppT, 4))
	return row2, row3, row4
}

func oldDiagonalSums(own, opp Bitboard, e *patternStageTable) (d8, d7, d6, d5, d4 float32) {
	d8 = oldLook(e, diag8Offset+diagonalReading(own, opp, 0x8040201008040201, 56)) + oldLook(e, diag8Offset+diagonalReading(own, opp, 0x0102040810204080, 56))
	d7 = oldLook(e, diag7Offset+diagonalReading(own, opp, 0x0080402010080402, 57)) + oldLook(e, diag7Offset+diagonalReading(own, opp, 0x4020100804020100, 56)) +
		oldLook(e, diag7Offset+diagonalReading(own, opp, 0x0001020408102040, 56)) + oldLook(e, diag7Offset+diagonalReading(own, opp, 0x0204081020408000, 57))
	d6 = oldLook(e, diag6Offset+diagonalReading(own, opp, 0x0000804020100804, 58)) + oldLook(e, diag6Offset+diagonalReading(own, opp, 0x2010080402010000, 56)) +
		oldLook(e, diag6Offset+diagonalReading(own, opp, 0x0000010204081020, 56)) + oldLook(e, diag6Offset+diagonalReading(own, opp, 0x0408102040800000, 58))
	d5 = oldLook(e, diag5Offset+diagonalReading(own, opp, 0x0000008040201008, 59)) + oldLook(e, diag5Offset+diagonalReading(own, opp, 0x1008040201000000, 56)) +
		oldLook(e, diag5Offset+diagonalReading(own, opp, 0x0000000102040810, 56)) + oldLook(e, diag5Offset+diagonalReading(own, opp, 0x0810204080000000, 59))
	d4 = oldLook(e, diag4Offset+diagonalReading(own, opp, 0x0000000001020408, 56)) + oldLook(e, diag4Offset+diagonalReading(own, opp, 0x0000000080402010, 60)) +
		oldLook(e, diag4Offset+diagonalReading(own, opp, 0x0804020100000000, 56)) + oldLook(e, diag4Offset+diagonalReading(own, opp, 0x1020408000000000, 60))
	return d8, d7, d6, d5, d4
}

// TestPatternLookupMatchesOld checks that patternLookup gives every
// class's sum bit for bit as oldPatternLookup did (each reading its own
// layout of the same tables), on the positions of
// random games and on random boards (discs anywhere, either side), with
// random tables of every stage.
func TestPatternLookupMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(56, 1))
	data := randomPatternData(rng, 20)
	ex, plain := expandPatterns(data), plainPatterns(data)
	check := func(own, opp Bitboard) {
		t.Helper()
		for s := range ex {
			var got, want [patternClassCount]float32
			patternLookup(own, opp, &ex[s], &got)
			oldPatternLookup(own, opp, &plain[s], &want)
			for c := range got {
				if math.Float32bits(got[c]) != math.Float32bits(want[c]) {
					t.Fatalf("own %#x opp %#x stage %d: class %s sums to %v, want %v", uint64(own), uint64(opp), s, patternSources[c].name, got[c], want[c])
				}
			}
		}
	}
	count := 40
	if testing.Short() {
		count = 10
	}
	for _, p := range patternPositions(56, count) {
		check(p.mine(), p.theirs())
	}
	for range 20 * count {
		a, b := Bitboard(rng.Uint64()), Bitboard(rng.Uint64())
		check(a&^b, b&^a)
		check(a&b, a&^b)
	}
	check(0, 0)
	check(^Bitboard(0), 0)
	check(0, ^Bitboard(0))
}

// BenchmarkPatternLookup compares the lookups on the positions of
// BenchmarkEvaluatePatterns, each at its stage.
func BenchmarkPatternLookup(b *testing.B) {
	data := randomPatternData(rand.New(rand.NewPCG(27, 1)), 20)
	positions := patternPositions(3, 10)
	for _, c := range []struct {
		name   string
		ex     *[PatternStages]patternStageTable
		lookup func(own, opp Bitboard, e *patternStageTable, sums *[patternClassCount]float32)
	}{{"old", plainPatterns(data), oldPatternLookup}, {"new", expandPatterns(data), patternLookup}} {
		b.Run(c.name, func(b *testing.B) {
			var sums [patternClassCount]float32
			i := 0
			for b.Loop() {
				p := positions[i%len(positions)]
				c.lookup(p.mine(), p.theirs(), &c.ex[PatternStage(popcount(p.discs[0]|p.discs[1]))], &sums)
				i++
			}
		})
	}
}
