package othello

import "github.com/gametune/gametune/games"

// What Othello gives the engine's selective search: Buro's Multi-ProbCut
// (games.ProbCutter) and its own defaults for the search parameters
// (games.SearchDefaulter), in tenths of a disc. A pass is a real move in
// Othello, taken only when a side has no other, so Othello has no null
// move (games.NullMover): ProbCut prunes its trees instead.

// ProbCutStages is the number of stages ProbCut's relations are fitted
// for (ProbCutStage).
const ProbCutStages = 6

// ProbCutStage is the stage of a position with empties empty squares:
// 53-60 empties stage 0, 45-52 stage 1, ..., 20 or fewer stage 5.
func ProbCutStage(empties int) int { return min(max(60-empties, 0)/8, ProbCutStages-1) }

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
// self-play positions (TestFitProbCut prints them).
var probCutFits = [ProbCutStages][ProbCutMaxDepth + 1]games.ProbCutFit{}

// searchDefaults are Othello's defaults for the selective search's
// parameters, in tenths of a disc (games.SearchDefaulter).
var searchDefaults = map[string]int{}

// SearchDefaults returns Othello's defaults for the engine's search
// parameters (games.SearchDefaulter).
func (p *Position) SearchDefaults() map[string]int { return searchDefaults }
