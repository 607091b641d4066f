package checkers

import (
	"math"

	"github.com/gametune/gametune/games"
)

// paperEvaluator is the checkers report's evaluation: own pieces, opponent pieces,
// own kings and opponent kings (kings count in both terms), score x100.
var paperEvaluator = &games.Evaluator{
	Name: "paper",
	Doc:  "the checkers report's four features: own pieces, opponent pieces, own kings, opponent kings (score x100)",
	Features: []games.Feature{
		{Name: "own-pieces", Doc: "pieces (men and kings) of the side to move", Default: 1, Min: -10, Max: 10, Step: 0.01},
		{Name: "opponent-pieces", Doc: "pieces of the opponent", Default: -1, Min: -10, Max: 10, Step: 0.01},
		{Name: "own-kings", Doc: "kings of the side to move", Default: 0.5, Min: -10, Max: 10, Step: 0.01},
		{Name: "opponent-kings", Doc: "kings of the opponent", Default: -0.5, Min: -10, Max: 10, Step: 0.01},
	},
	Evaluate: evaluatePaper,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [4]float64
		paperFeatures(gp.(*Position), &f)
		for i, x := range f {
			dst[i] = 100 * x
		}
	},
}

func paperFeatures(p *Position, f *[4]float64) {
	me, them := p.turn, p.turn.Other()
	f[0], f[1] = float64(popcount(p.pieces(me))), float64(popcount(p.pieces(them)))
	f[2], f[3] = float64(popcount(p.kings[me])), float64(popcount(p.kings[them]))
}

func evaluatePaper(gp games.Position, w []float64) int {
	var f [4]float64
	paperFeatures(gp.(*Position), &f)
	v := w[0]*f[0] + w[1]*f[1] + w[2]*f[2] + w[3]*f[3]
	return int(math.Round(100 * v))
}

// centre holds the eight central squares (rows 3-4 and the middle of rows
// 2 and 5).
const centre Bitboard = 1<<9 | 1<<10 | 1<<13 | 1<<14 | 1<<17 | 1<<18 | 1<<21 | 1<<22

// fullEvaluator is a stronger evaluation, every term a difference mine minus theirs.
var fullEvaluator = &games.Evaluator{
	Name: "full",
	Doc:  "men, kings, back-rank guard, centre, advancement, mobility, runaway men, trapped kings, trading down (score x100)",
	Features: []games.Feature{
		{Name: "men", Doc: "men, difference", Default: 1, Min: 0, Max: 5, Step: 0.05},
		{Name: "kings", Doc: "kings, difference", Default: 1.5, Min: 0, Max: 5, Step: 0.05},
		{Name: "back-rank", Doc: "men still on their own back row, difference", Default: 0.15, Min: -1, Max: 1, Step: 0.01},
		{Name: "centre", Doc: "pieces on the eight central squares, difference", Default: 0.1, Min: -1, Max: 1, Step: 0.01},
		{Name: "advancement", Doc: "rows advanced by men, summed, difference", Default: 0, Min: -0.5, Max: 0.5, Step: 0.01},
		{Name: "mobility", Doc: "simple moves available, difference", Default: 0.02, Min: -0.5, Max: 0.5, Step: 0.01},
		{Name: "runaway", Doc: "men with an empty square ahead on the row before crowning, difference", Default: 0.2, Min: -1, Max: 2, Step: 0.01},
		{Name: "trapped-kings", Doc: "kings with no simple move, difference", Default: -0.2, Min: -2, Max: 1, Step: 0.01},
		{Name: "king-centre", Doc: "kings on the central squares, difference", Default: 0, Min: -1, Max: 1, Step: 0.01},
		{Name: "trade-down", Doc: "piece difference times the share of pieces already off the board (trade when ahead)", Default: 1, Min: -2, Max: 5, Step: 0.05},
	},
	Evaluate: evaluateFull,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [10]float64
		gp.(*Position).fullFeatures(&f)
		for i, x := range f {
			dst[i] = 100 * x
		}
	},
}

// Rows by the bits of their index: rowBit1 holds the rows whose index has
// bit 0 set (1, 3, 5, 7), rowBit2 bit 1 (2, 3, 6, 7), rowBit4 bit 2 (4-7).
const (
	rowBit1 Bitboard = 0xf0f0f0f0
	rowBit2 Bitboard = 0xff00ff00
	rowBit4 Bitboard = 0xffff0000
)

// advancement is the rows advanced by the men of side, summed: a Black man
// on row r has advanced r rows, a White one 7-r. The row indices are summed
// bit by bit, a popcount each.
func advancement(men Bitboard, side games.Side) int {
	rows := popcount(men&rowBit1) + 2*popcount(men&rowBit2) + 4*popcount(men&rowBit4)
	if side == games.First {
		return rows
	}
	return 7*popcount(men) - rows
}

// sideTerms are the full evaluator's counts for one side.
type sideTerms struct {
	men, kings, backRank, centre, advancement, mobility, runaway, trapped, kingCentre int
}

// terms counts side's features on whole bitboards, with empty the empty
// squares: a man's simple moves are the men that step into an empty square
// in each forward direction (movers), its runaways those whose step lands
// on the crowning row; a king is trapped when it moves in no direction.
func (p *Position) terms(side games.Side, empty Bitboard) sideTerms {
	men, kings := p.men[side], p.kings[side]
	lo := firstForward(side)
	crown := empty & lastRow[side]
	t := sideTerms{
		men:         popcount(men),
		kings:       popcount(kings),
		backRank:    popcount(men & firstRow[side]),
		centre:      popcount((men | kings) & centre),
		kingCentre:  popcount(kings & centre),
		advancement: advancement(men, side),
		mobility:    popcount(movers(men, empty, lo)) + popcount(movers(men, empty, lo+1)),
		runaway:     popcount(movers(men, crown, lo)) + popcount(movers(men, crown, lo+1)),
	}
	if kings != 0 {
		k0, k1 := movers(kings, empty, 0), movers(kings, empty, 1)
		k2, k3 := movers(kings, empty, 2), movers(kings, empty, 3)
		t.mobility += popcount(k0) + popcount(k1) + popcount(k2) + popcount(k3)
		t.trapped = popcount(kings &^ (k0 | k1 | k2 | k3))
	}
	return t
}

// fullFeatures writes the full evaluator's features, unscaled, each a
// difference of whole counts (exact in float64), mine minus theirs.
func (p *Position) fullFeatures(f *[10]float64) {
	empty := ^p.occupied()
	me, them := p.terms(p.turn, empty), p.terms(p.turn.Other(), empty)
	f[0] = float64(me.men - them.men)
	f[1] = float64(me.kings - them.kings)
	f[2] = float64(me.backRank - them.backRank)
	f[3] = float64(me.centre - them.centre)
	f[4] = float64(me.advancement - them.advancement)
	f[5] = float64(me.mobility - them.mobility)
	f[6] = float64(me.runaway - them.runaway)
	f[7] = float64(me.trapped - them.trapped)
	f[8] = float64(me.kingCentre - them.kingCentre)
	all := popcount(p.occupied())
	f[9] = float64(me.men+me.kings-them.men-them.kings) * float64(24-all) / 24
}

func evaluateFull(gp games.Position, w []float64) int {
	var f [10]float64
	gp.(*Position).fullFeatures(&f)
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(100 * v))
}
