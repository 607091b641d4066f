package checkers

import (
	"math"
	"math/bits"

	"github.com/gametune/gametune/games"
)

// paperEvaluator is a material-only evaluation: own pieces, opponent pieces,
// own kings and opponent kings (kings count in both terms), score x100.
var paperEvaluator = &games.Evaluator{
	Name: "paper",
	Doc:  "material alone, as in early checkers-learning programs: own pieces, opponent pieces, own kings, opponent kings (score x100)",
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
// The row indices of a set of squares sum to pop(b&rowBit1) +
// 2*pop(b&rowBit2) + 4*pop(b&rowBit4).
const (
	rowBit1 Bitboard = 0xf0f0f0f0
	rowBit2 Bitboard = 0xff00ff00
	rowBit4 Bitboard = 0xffff0000
)

// count2 is popcount(a) + popcount(b), in one 64-bit count.
func count2(a, b Bitboard) int { return bits.OnesCount64(uint64(a)<<32 | uint64(b)) }

// diff is popcount(a) - popcount(b), in one 64-bit count: popcount(^b) is
// 32 - popcount(b).
func diff(a, b Bitboard) int { return count2(a, ^b) - 32 }

// fullFeatures writes the full evaluator's features, unscaled: each is a
// count for Black minus the count for White, negated when White is to move
// (integers, exact in float64). Everything is counted on whole bitboards.
// A piece moves in direction d when it stands on shift(empty, opposite(d))
// (movers); a man standing on the row before crowning with a simple move
// is a runaway; a king is trapped when it moves in no direction.
func (p *Position) fullFeatures(f *[10]float64) {
	bm, bk := p.men[games.First], p.kings[games.First]
	wm, wk := p.men[games.Second], p.kings[games.Second]
	occupied := bm | bk | wm | wk
	empty := ^occupied
	// toDL holds the squares whose down-left neighbour is empty, and so on.
	toDL, toDR := stepUpRight(empty), stepUpLeft(empty)
	toUL, toUR := stepDownRight(empty), stepDownLeft(empty)
	bl, br := bm&toDL, bm&toDR // Black men's simple moves by direction
	wl, wr := wm&toUL, wm&toUR // White's
	mobility := count2(bl, br) - count2(wl, wr)
	trapped, kingCentre := 0, 0
	if bk|wk != 0 {
		kingCentre = diff(bk&centre, wk&centre)
		mobility += count2(bk&toDL, bk&toDR) + count2(bk&toUL, bk&toUR) -
			count2(wk&toDL, wk&toDR) - count2(wk&toUL, wk&toUR)
		trapped = diff(bk&^(toDL|toDR|toUL|toUR), wk&^(toDL|toDR|toUL|toUR))
	}
	// Black's men advance by their row, White's by 7 minus theirs: the
	// difference is the rows of all the men less 7 per White man.
	rows := count2(bm&rowBit1, wm&rowBit1) + 2*count2(bm&rowBit2, wm&rowBit2) + 4*count2(bm&rowBit4, wm&rowBit4)
	advancement := rows - 7*popcount(wm)
	men, kings := diff(bm, wm), diff(bk, wk)
	sign := 1
	if p.turn == games.Second {
		sign = -1
	}
	f[0] = float64(sign * men)
	f[1] = float64(sign * kings)
	f[2] = float64(sign * diff(bm&row0, wm&row7))
	f[3] = float64(sign * diff((bm|bk)&centre, (wm|wk)&centre))
	f[4] = float64(sign * advancement)
	f[5] = float64(sign * mobility)
	// Runaways: men with a simple move from the row before crowning.
	f[6] = float64(sign * (count2(bl&row6, br&row6) - count2(wl&row1, wr&row1)))
	f[7] = float64(sign * trapped)
	f[8] = float64(sign * kingCentre)
	all := popcount(occupied)
	f[9] = float64(sign*(men+kings)) * float64(24-all) / 24
}

func evaluateFull(gp games.Position, w []float64) int {
	var f [10]float64
	gp.(*Position).fullFeatures(&f)
	w = w[:len(f)] // one bounds check for the loop
	v := 0.0
	for i := range f {
		v += w[i] * f[i]
	}
	return int(math.Round(100 * v))
}
