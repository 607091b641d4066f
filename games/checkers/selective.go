package checkers

// What checkers gives the engine's selective search: the null move
// (games.NullMover) and its own defaults for the search parameters
// (games.SearchDefaulter), in hundredths of a man.

// nullMinPieces is the fewest pieces on the board at which a null move
// is tried: below it, endgames turn on the opposition, where the side to
// move is often the one in zugzwang.
const nullMinPieces = 12

// NullSafe tells whether the side to move may pass for the search's sake
// (games.NullMover): it has no capture to make (a capture is forced) and
// the board holds at least nullMinPieces pieces.
func (p *Position) NullSafe() bool {
	return popcount(p.occupied()) >= nullMinPieces && p.countCaptures() == 0
}

// PlayNull gives the move to the opponent (games.NullMover). The plies
// since the last irreversible move start again: no repetition reaches
// across a null move.
func (p *Position) PlayNull() {
	p.history = append(p.history, undo{reversible: p.reversible, hash: p.hash})
	p.reversible = 0
	p.turn = p.turn.Other()
	p.hash ^= zobristSide
}

// UndoNull takes back the null move PlayNull made.
func (p *Position) UndoNull() {
	u := p.history[len(p.history)-1]
	p.history = p.history[:len(p.history)-1]
	p.turn = p.turn.Other()
	p.reversible, p.hash = u.reversible, u.hash
}

// searchDefaults are checkers' defaults for the selective search's
// parameters, in hundredths of a man (games.SearchDefaulter).
var searchDefaults = map[string]int{}

// SearchDefaults returns checkers' defaults for the engine's search
// parameters (games.SearchDefaulter).
func (p *Position) SearchDefaults() map[string]int { return searchDefaults }
