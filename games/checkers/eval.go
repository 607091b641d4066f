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

// rows advanced by a man of each side on each row index.
func advance(side games.Side, s int) int {
	r := s / 4
	if side == games.First {
		return r
	}
	return 7 - r
}

func (p *Position) sideFeatures(side games.Side, empty Bitboard, f *[10]float64, sign float64) {
	f[0] += sign * float64(popcount(p.men[side]))
	f[1] += sign * float64(popcount(p.kings[side]))
	f[2] += sign * float64(popcount(p.men[side]&firstRow[side]))
	f[3] += sign * float64(popcount(p.pieces(side)&centre))
	f[8] += sign * float64(popcount(p.kings[side]&centre))
	adv, mob, runaway := 0, 0, 0
	for b := p.men[side]; b != 0; b &= b - 1 {
		s := lowest(b)
		adv += advance(side, s)
		for _, d := range forward[side] {
			if t := step[d][s]; t >= 0 && empty&(1<<t) != 0 {
				mob++
				if lastRow[side]&(1<<t) != 0 {
					runaway++
				}
			}
		}
	}
	trapped := 0
	for b := p.kings[side]; b != 0; b &= b - 1 {
		s := lowest(b)
		n := 0
		for d := 0; d < 4; d++ {
			if t := step[d][s]; t >= 0 && empty&(1<<t) != 0 {
				n++
			}
		}
		mob += n
		if n == 0 {
			trapped++
		}
	}
	f[4] += sign * float64(adv)
	f[5] += sign * float64(mob)
	f[6] += sign * float64(runaway)
	f[7] += sign * float64(trapped)
}

func (p *Position) fullFeatures(f *[10]float64) {
	empty := ^p.occupied()
	p.sideFeatures(p.turn, empty, f, 1)
	p.sideFeatures(p.turn.Other(), empty, f, -1)
	all := popcount(p.occupied())
	f[9] = float64(popcount(p.pieces(p.turn))-popcount(p.pieces(p.turn.Other()))) * float64(24-all) / 24
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
