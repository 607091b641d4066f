package othello

import (
	"math"

	"github.com/gametune/gametune/games"
)

// squareWeights is the classic positional table of the report's kind:
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

// corners lists each corner with its X-square and its two C-squares.
var corners = [4]struct{ corner, x, c1, c2 int }{
	{0, 9, 1, 8}, {7, 14, 6, 15}, {56, 49, 57, 48}, {63, 54, 62, 55},
}

// edgeRays lists, for each corner, the two edges walked away from it.
var edgeRays = [4][2]struct{ start, step int }{
	{{0, 1}, {0, 8}}, {{7, -1}, {7, 8}}, {{56, 1}, {56, -8}}, {{63, -1}, {63, -8}},
}

// anchored counts the discs of b in the unbroken runs of b's colour that
// grow from each corner b holds along its two edges (the report's corner
// pattern: discs that can no longer be flipped along the edge).
func anchored(b Bitboard) int {
	n := 0
	for i := range edgeRays {
		for j, ray := range edgeRays[i] {
			s := ray.start
			if b&(1<<s) == 0 {
				break
			}
			if j == 0 {
				n++ // the corner itself, counted once
			}
			for k := 1; k < 8; k++ {
				s += ray.step
				if b&(1<<s) == 0 {
					break
				}
				n++
			}
		}
	}
	return n
}

func positional(b Bitboard) int {
	v := 0
	for ; b != 0; b &= b - 1 {
		v += squareWeights[trailingZeros(b)]
	}
	return v
}

// reportEvaluator is the report's evaluation: four differences, mine minus theirs.
var reportEvaluator = &games.Evaluator{
	Name: "report",
	Doc:  "the Othello report's four terms: discs, mobility, positional table, corner pattern (score x10)",
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
	f[1] = float64(popcount(legalMoves(me, them)) - popcount(legalMoves(them, me)))
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
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(10 * v))
}

func fullFeatures(p *Position, f *[10]float64) {
	me, them := p.mine(), p.theirs()
	empty := ^(me | them)
	f[0] = float64(popcount(me&cornerMask) - popcount(them&cornerMask))
	x, c := 0, 0
	for _, k := range corners {
		if empty&(1<<k.corner) == 0 {
			continue
		}
		x += bit(me, k.x) - bit(them, k.x)
		c += bit(me, k.c1) + bit(me, k.c2) - bit(them, k.c1) - bit(them, k.c2)
	}
	f[1], f[2] = float64(x), float64(c)
	f[3] = float64(popcount(legalMoves(me, them)) - popcount(legalMoves(them, me)))
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

func bit(b Bitboard, s int) int { return int(b >> s & 1) }
