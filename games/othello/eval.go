package othello

import (
	"math"

	"github.com/gametune/gametune/games"
)

// squareWeights is the classic positional table of Othello programs:
// corners 100, the X-squares diagonal to them -50, the C-squares beside them
// -20, the A- and B-squares of the edges 10 and 5, the centre -1 to -2.
var squareWeights = [64]int{
	100, -20, 10, 5, 5, 10, -20, 100,
	-20, -50, -2, -2, -2, -2, -50, -20,
	10, -2, -1, -1, -1, -1, -2, 10,
	5, -2, -1, -1, -1, -1, -2, 5,
	5, -2, -1, -1, -1, -1, -2, 5,
	10, -2, -1, -1, -1, -1, -2, 10,
	-20, -50, -2, -2, -2, -2, -50, -20,
	100, -20, 10, 5, 5, 10, -20, 100,
}

const (
	cornerMask Bitboard = 1<<0 | 1<<7 | 1<<56 | 1<<63
	edgeMask   Bitboard = 0xff000000000000ff | 0x0101010101010101 | 0x8080808080808080
)

const rank8 Bitboard = 0xff00000000000000

// Edges and rows are looked up in tables indexed by their 8 squares as a
// byte (bit i the i-th square from one end), built at init.
var (
	// edgeRuns[x]: on an edge holding discs x, the discs of the unbroken
	// runs that grow from each end the discs hold, the ends themselves not
	// counted. An edge full of one colour counts each disc of its inside
	// twice, once from each corner, and each corner once, as the other
	// edge's run counts it.
	edgeRuns [256]uint8
	// rowWeights[r][x]: the sum of squareWeights over the squares of rank
	// r+1 that x holds (bit i is file i).
	rowWeights [8][256]int16
)

func init() {
	for x := range 256 {
		n := 0
		if x&1 != 0 {
			for i := 1; i < 8 && x&(1<<i) != 0; i++ {
				n++
			}
		}
		if x&0x80 != 0 {
			for i := 6; i >= 0 && x&(1<<i) != 0; i-- {
				n++
			}
		}
		edgeRuns[x] = uint8(n)
		for r := range rowWeights {
			v := 0
			for i := range 8 {
				if x&(1<<i) != 0 {
					v += squareWeights[8*r+i]
				}
			}
			rowWeights[r][x] = int16(v)
		}
	}
}

// anchored counts the discs of b in the unbroken runs of b's colour that
// grow from each corner b holds along its two edges (the classic corner
// pattern: discs that can no longer be flipped along the edge). A disc
// counts once for each run that reaches it: a corner once, the inside of
// an edge full of b's discs twice. Four edge lookups.
func anchored(b Bitboard) int {
	return popcount(b&cornerMask) +
		int(edgeRuns[uint8(b)]) + int(edgeRuns[uint8(b>>56)]) +
		int(edgeRuns[fileByte(b)]) + int(edgeRuns[fileByte(b>>7)])
}

// positional sums squareWeights over the discs of b, a row lookup a rank.
func positional(b Bitboard) int {
	w := &rowWeights // written out: the loop is not unrolled
	return int(w[0][uint8(b)]) + int(w[1][uint8(b>>8)]) + int(w[2][uint8(b>>16)]) + int(w[3][uint8(b>>24)]) +
		int(w[4][uint8(b>>32)]) + int(w[5][uint8(b>>40)]) + int(w[6][uint8(b>>48)]) + int(w[7][uint8(b>>56)])
}

// reportEvaluator is the classic four-term evaluation: four differences, mine minus theirs.
var reportEvaluator = &games.Evaluator{
	Name: "report",
	Doc:  "four classic Othello terms: discs, mobility, disc-square weights (corners good, squares next to them bad) and discs anchored to owned corners (score x10)",
	Features: []games.Feature{
		{Name: "discs", Doc: "disc difference", Default: 1, Min: 0, Max: 2.5, Step: 0.1},
		{Name: "mobility", Doc: "difference of legal moves", Default: 1, Min: 0, Max: 2.5, Step: 0.1},
		{Name: "position", Doc: "difference of the positional table's sums (corners 100, X-squares -50, C-squares -20)", Default: 1, Min: 0, Max: 2.5, Step: 0.1},
		{Name: "corner-pattern", Doc: "difference of discs in same-colour runs growing from owned corners along the edges", Default: 1, Min: 0, Max: 2.5, Step: 0.1},
	},
	Evaluate: evaluateReport,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [4]float64
		reportFeatures(gp.(*Position), &f)
		for i, x := range f {
			dst[i] = 10 * x
		}
	},
}

func reportFeatures(p *Position, f *[4]float64) {
	me, them := p.mine(), p.theirs()
	f[0] = float64(popcount(me) - popcount(them))
	f[1] = float64(popcount(p.legal) - popcount(legalMoves(them, me)))
	f[2] = float64(positional(me) - positional(them))
	f[3] = float64(anchored(me) - anchored(them))
}

func evaluateReport(gp games.Position, w []float64) int {
	var f [4]float64
	reportFeatures(gp.(*Position), &f)
	return int(math.Round(10 * (w[0]*f[0] + w[1]*f[1] + w[2]*f[2] + w[3]*f[3])))
}

// fullEvaluator is a stronger evaluation: corners, X- and C-squares next to empty
// corners, mobility, frontier (potential mobility), edges, anchored discs,
// parity and the disc difference split by game phase.
var fullEvaluator = &games.Evaluator{
	Name: "full",
	Doc:  "corners, X/C-squares, mobility, frontier, edges, anchored discs, parity, discs by phase (score x10)",
	Features: []games.Feature{
		{Name: "corners", Doc: "corners held, difference", Default: 25, Min: 0, Max: 60, Step: 0.5},
		{Name: "x-squares", Doc: "X-squares held next to an empty corner, difference", Default: -12, Min: -40, Max: 10, Step: 0.5},
		{Name: "c-squares", Doc: "C-squares held next to an empty corner, difference", Default: -4, Min: -20, Max: 10, Step: 0.5},
		{Name: "mobility", Doc: "legal moves, difference", Default: 3, Min: 0, Max: 15, Step: 0.25},
		{Name: "frontier", Doc: "discs next to an empty square (potential mobility for the opponent), difference", Default: -1.5, Min: -10, Max: 5, Step: 0.25},
		{Name: "edges", Doc: "discs on the edges, corners excluded, difference", Default: 0.5, Min: -5, Max: 5, Step: 0.25},
		{Name: "anchored", Doc: "discs in same-colour runs from owned corners along the edges, difference", Default: 4, Min: 0, Max: 20, Step: 0.5},
		{Name: "parity", Doc: "+1 when the side to move can expect the last move (odd empties), -1 otherwise", Default: 2, Min: -10, Max: 10, Step: 0.5},
		{Name: "discs-opening", Doc: "disc difference scaled by the share of empty squares", Default: -0.5, Min: -5, Max: 5, Step: 0.25},
		{Name: "discs-endgame", Doc: "disc difference scaled by the share of filled squares", Default: 1, Min: -5, Max: 5, Step: 0.25},
	},
	Evaluate: evaluateFull,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [10]float64
		fullFeatures(gp.(*Position), &f)
		for i, x := range f {
			dst[i] = 10 * x
		}
	},
}

func evaluateFull(gp games.Position, w []float64) int {
	var f [10]float64
	fullFeatures(gp.(*Position), &f)
	// sum(w[i] * f[i]) from 0.0 in index order, as the loop it replaces
	// did, so that every score rounds as before; written out, with one
	// bounds check for all ten weights.
	w = w[:len(f)]
	v := 0.0
	v += w[0] * f[0]
	v += w[1] * f[1]
	v += w[2] * f[2]
	v += w[3] * f[3]
	v += w[4] * f[4]
	v += w[5] * f[5]
	v += w[6] * f[6]
	v += w[7] * f[7]
	v += w[8] * f[8]
	v += w[9] * f[9]
	return int(math.Round(10 * v))
}

func fullFeatures(p *Position, f *[10]float64) {
	me, them := p.mine(), p.theirs()
	empty := ^(me | them)
	f[0] = float64(popcount(me&cornerMask) - popcount(them&cornerMask))
	xs, cs := dangerSquares(empty & cornerMask)
	x := popcount(me&xs) - popcount(them&xs)
	c := popcount(me&cs) - popcount(them&cs)
	f[1], f[2] = float64(x), float64(c)
	f[3] = float64(popcount(p.legal) - popcount(legalMoves(them, me)))
	frontierSquares := neighbours(empty)
	f[4] = float64(popcount(me&frontierSquares) - popcount(them&frontierSquares))
	f[5] = float64(popcount(me&edgeMask&^cornerMask) - popcount(them&edgeMask&^cornerMask))
	f[6] = float64(anchored(me) - anchored(them))
	empties := popcount(empty)
	if empties%2 == 1 {
		f[7] = 1
	} else {
		f[7] = -1
	}
	discs := float64(popcount(me) - popcount(them))
	f[8] = discs * float64(empties) / 60
	f[9] = discs * float64(60-empties) / 60
}

// dangerSquares returns the X-squares (diagonal) and the C-squares (beside,
// on the edges) of the corners in ec.
func dangerSquares(ec Bitboard) (xs, cs Bitboard) {
	xs = (ec&(1<<0))<<9 | (ec&(1<<7))<<7 | (ec&(1<<56))>>7 | (ec&(1<<63))>>9
	cs = (ec&fileA)<<1 | (ec&^fileA)>>1 | (ec&rank1)<<8 | (ec&rank8)>>8
	return xs, cs
}
