package tournament

import (
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Player is one side of a game: an evaluator with its weights and the
// search limits it plays with, or an external engine (Engine not nil, the
// other fields but Name unused).
type Player struct {
	Name      string
	Evaluator *games.Evaluator
	Weights   []float64
	Limits    engine.Limits
	Engine    *EngineSpec
}

// Adjudication ends games early when both engines agree. The zero value
// adjudicates nothing.
type Adjudication struct {
	// A game is drawn when, after DrawAfter plies, both engines' scores stay
	// within ±DrawMargin for DrawPlies consecutive plies (0 = off).
	DrawAfter  int
	DrawMargin int
	DrawPlies  int
	// A game is won when both engines agree one side is behind by more than
	// ResignMargin for ResignPlies consecutive plies (0 = off).
	ResignMargin int
	ResignPlies  int
}

// Reason says why a game ended.
type Reason string

const (
	ByRule          Reason = "rule"         // the game's own rules ended it
	ByAdjudication  Reason = "adjudication" // both engines agreed on a draw
	ByResignation   Reason = "resignation"  // both engines agreed one side was lost
	ByPlyCap        Reason = "ply-cap"      // the ply cap was reached: a draw
	ByInterruption  Reason = "interrupted"  // the context was cancelled (not recorded as a result)
	defaultMaxPlies        = 400
)

// GameSpec describes one game completely: the same spec always gives the
// same game, whatever worker plays it.
type GameSpec struct {
	Game games.Game
	// Opening is a position in the game's notation, or "moves: m1 m2 ..."
	// played from the start (the form GTP engines need); "" is the start.
	Opening string
	First   Player // plays games.First (black in Othello and checkers, white in chess)
	Second  Player // plays games.Second
	Seed    uint64 // reserved for random choices inside a game; engines are deterministic
	// MaxPlies ends the game drawn after this many plies; 0 means 400.
	MaxPlies     int
	Adjudication Adjudication
}

// Record is the result of one game.
type Record struct {
	Outcome  games.Outcome
	Reason   Reason
	Opening  string   // the opening position, in the game's notation
	Moves    []string // the moves played from the opening, in the game's notation
	Plies    int
	Nodes    int64  // nodes searched by both engines
	Detail   string // why a player lost by a fault or on time: "sf: crashed (exit status 1)"
	Duration time.Duration
}

// Score returns the points of the first side: 1 for a win, 0.5 for a draw.
func (r Record) Score() float64 {
	switch r.Outcome {
	case games.FirstWins:
		return 1
	case games.SecondWins:
		return 0
	}
	return 0.5
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// cutMovesPrefix splits an opening of the form "moves: m1 m2 ...".
func cutMovesPrefix(opening string) ([]string, bool) {
	rest, ok := strings.CutPrefix(opening, "moves:")
	if !ok {
		return nil, false
	}
	return strings.Fields(rest), true
}
