package othello

import "github.com/gametune/gametune/games"

// What Othello gives the engine's selective search: Buro's Multi-ProbCut
// (games.ProbCutter) and its own defaults for the search parameters
// (games.SearchDefaulter), in tenths of a disc. A pass is a real move in
// Othello, taken only when a side has no other, so Othello has no null
// move (games.NullMover): ProbCut prunes its trees instead.

// ProbCutStages is the number of stages ProbCut's relations are fitted
// for (ProbCutStage).
const ProbCutStages = 5

// ProbCutStage is the stage of a position with empties empty squares:
// 45-60 empties stage 0, 37-44 stage 1, 29-36 stage 2, 21-28 stage 3, 20
// or fewer stage 4.
func ProbCutStage(empties int) int { return min(max(52-empties, 0)/8, ProbCutStages-1) }

// ProbCutMaxDepth is the deepest search ProbCut's relations are fitted
// for; a deeper one uses the relation of the deepest fitted depth of the
// same parity, with its shallow search as much deeper.
const ProbCutMaxDepth = 12

// ProbCutShallow is the depth of the shallow search that predicts a
// search of depth plies, as Edax chooses it: 2*floor(depth/4) plus the
// parity of depth (1 for 3, 2 for 4, 3 for 5, 2 for 6, ... 6 for 12); 0
// below 3.
func ProbCutShallow(depth int) int {
	if depth < 3 {
		return 0
	}
	return 2*(depth/4) + depth&1
}

// ProbCut returns the relation for a search of depth plies at this
// position's stage (games.ProbCutter): none below 3 plies nor where a
// search would reach the exact endgame.
func (p *Position) ProbCut(depth int) (games.ProbCutFit, bool) {
	e := p.Empties()
	if depth < 3 || e <= ExactEmpties || depth >= e {
		return games.ProbCutFit{}, false
	}
	fitted := depth
	if fitted > ProbCutMaxDepth {
		fitted = ProbCutMaxDepth - (depth-ProbCutMaxDepth)&1
	}
	f := probCutFits[ProbCutStage(e)][fitted]
	if f.Shallow == 0 {
		return games.ProbCutFit{}, false
	}
	f.Shallow += depth - fitted
	return f, true
}

// probCutFits are the relations fitted for the patterns evaluator from
// 300 self-play positions (TestFitProbCut prints them), in tenths of a
// disc: the deviation grows with the stage, from about 2 discs to 18.
var probCutFits = [ProbCutStages][ProbCutMaxDepth + 1]games.ProbCutFit{
	{ // stage 0
		3:  {Shallow: 1, Slope: 1.024, Offset: 8.3, Sigma: 20.7},
		4:  {Shallow: 2, Slope: 0.936, Offset: 3.6, Sigma: 17.0},
		5:  {Shallow: 3, Slope: 0.966, Offset: 2.2, Sigma: 17.3},
		6:  {Shallow: 2, Slope: 0.895, Offset: 3.1, Sigma: 21.3},
		7:  {Shallow: 3, Slope: 0.997, Offset: 1.8, Sigma: 18.2},
		8:  {Shallow: 4, Slope: 1.052, Offset: 1.7, Sigma: 15.0},
		9:  {Shallow: 5, Slope: 1.062, Offset: -2.9, Sigma: 17.6},
		10: {Shallow: 4, Slope: 1.132, Offset: 3.3, Sigma: 17.1},
		11: {Shallow: 5, Slope: 1.143, Offset: -4.5, Sigma: 17.0},
		12: {Shallow: 6, Slope: 1.254, Offset: 6.6, Sigma: 14.4},
	},
	{ // stage 1
		3:  {Shallow: 1, Slope: 1.016, Offset: 9.9, Sigma: 50.8},
		4:  {Shallow: 2, Slope: 1.026, Offset: 0.1, Sigma: 29.6},
		5:  {Shallow: 3, Slope: 1.028, Offset: 1.7, Sigma: 24.3},
		6:  {Shallow: 2, Slope: 1.063, Offset: 0.5, Sigma: 35.3},
		7:  {Shallow: 3, Slope: 1.048, Offset: 0.2, Sigma: 35.7},
		8:  {Shallow: 4, Slope: 1.051, Offset: 2.9, Sigma: 30.2},
		9:  {Shallow: 5, Slope: 1.077, Offset: -1.3, Sigma: 32.5},
		10: {Shallow: 4, Slope: 1.085, Offset: 2.8, Sigma: 36.5},
		11: {Shallow: 5, Slope: 1.118, Offset: 4.3, Sigma: 44.6},
		12: {Shallow: 6, Slope: 1.090, Offset: 2.2, Sigma: 39.3},
	},
	{ // stage 2
		3:  {Shallow: 1, Slope: 1.025, Offset: 12.4, Sigma: 59.5},
		4:  {Shallow: 2, Slope: 0.969, Offset: -3.3, Sigma: 56.7},
		5:  {Shallow: 3, Slope: 1.037, Offset: -0.8, Sigma: 35.2},
		6:  {Shallow: 2, Slope: 1.017, Offset: -6.1, Sigma: 71.9},
		7:  {Shallow: 3, Slope: 1.093, Offset: -0.6, Sigma: 48.0},
		8:  {Shallow: 4, Slope: 1.101, Offset: -3.0, Sigma: 41.9},
		9:  {Shallow: 5, Slope: 1.141, Offset: -2.9, Sigma: 36.0},
		10: {Shallow: 4, Slope: 1.188, Offset: -6.2, Sigma: 57.3},
		11: {Shallow: 5, Slope: 1.215, Offset: -7.9, Sigma: 46.8},
		12: {Shallow: 6, Slope: 1.216, Offset: -6.6, Sigma: 49.1},
	},
	{ // stage 3
		3:  {Shallow: 1, Slope: 1.050, Offset: 25.8, Sigma: 57.4},
		4:  {Shallow: 2, Slope: 1.044, Offset: -4.9, Sigma: 44.7},
		5:  {Shallow: 3, Slope: 1.047, Offset: 10.3, Sigma: 66.8},
		6:  {Shallow: 2, Slope: 1.087, Offset: 2.4, Sigma: 67.3},
		7:  {Shallow: 3, Slope: 1.164, Offset: 29.5, Sigma: 107.5},
		8:  {Shallow: 4, Slope: 1.235, Offset: 31.6, Sigma: 109.6},
		9:  {Shallow: 5, Slope: 1.335, Offset: 16.7, Sigma: 127.2},
		10: {Shallow: 4, Slope: 1.412, Offset: 27.9, Sigma: 122.9},
		11: {Shallow: 5, Slope: 1.544, Offset: 2.9, Sigma: 138.6},
		12: {Shallow: 6, Slope: 1.621, Offset: 20.1, Sigma: 135.6},
	},
	{ // stage 4
		3:  {Shallow: 1, Slope: 1.269, Offset: 65.9, Sigma: 146.7},
		4:  {Shallow: 2, Slope: 1.199, Offset: 8.4, Sigma: 147.4},
		5:  {Shallow: 3, Slope: 1.134, Offset: -5.9, Sigma: 126.6},
		6:  {Shallow: 2, Slope: 1.400, Offset: 31.0, Sigma: 172.5},
		7:  {Shallow: 3, Slope: 1.291, Offset: -6.9, Sigma: 174.8},
		8:  {Shallow: 4, Slope: 1.282, Offset: 20.5, Sigma: 195.7},
		9:  {Shallow: 5, Slope: 1.274, Offset: 1.1, Sigma: 166.3},
		10: {Shallow: 4, Slope: 1.472, Offset: 17.9, Sigma: 244.3},
		11: {Shallow: 5, Slope: 1.496, Offset: -1.8, Sigma: 178.2},
		12: {Shallow: 6, Slope: 1.465, Offset: 13.4, Sigma: 174.8},
	},
}

// searchDefaults are Othello's defaults for the selective search's
// parameters, in tenths of a disc (games.SearchDefaulter): SPSA's values
// from the engine's (tune run --algo spsa on the tune engine through GTP,
// 14,000 games at 50,000 nodes a move, seed 5351, the parameters of
// cmd/tune's TestExperimentSearchSPSA), which beat the engine's at 2+0.02
// by +34.9 Elo [+2.0, +68.4] over 200 pairs (docs/experiments.md).
var searchDefaults = map[string]int{
	"lmr-min-depth": 2, "lmr-min-move": 2, "lmr-base": 80, "lmr-divisor": 177,
	"lmp-max-depth": 3, "lmp-base": 2, "lmp-scale": 110,
	"futility-base": 41, "futility-margin": 90, "rfp-margin": 68,
	"razor-base": 277, "razor-margin": 213,
	"probcut-min-depth": 4, "probcut-threshold": 108,
}

// SearchDefaults returns Othello's defaults for the engine's search
// parameters (games.SearchDefaulter).
func (p *Position) SearchDefaults() map[string]int { return searchDefaults }
