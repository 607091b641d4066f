package tournament

import (
	"fmt"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
)

// Player describes who plays one side of a game: the built-in searcher
// with an evaluator, its weights and the search limits, or an Engine. A
// worker plays it with a Mover.
type Player struct {
	Name      string
	Evaluator *games.Evaluator
	Weights   []float64
	Limits    engine.Limits
	// Search is the built-in searcher's search: the zero value is the
	// exact full-width search.
	Search Search
	// Timing is the built-in player's clock or move time, kept by the
	// referee (for measurements: a game on a clock depends on the
	// machine's speed); the zero value plays within Limits alone.
	Timing Timing
	// Time are the constants of the built-in player's clock use; the zero
	// value means thinker.DefaultTimeParams.
	Time thinker.TimeParams
	// Engine, when not nil, plays instead of the built-in searcher; the
	// fields above but Name are then unused.
	Engine Engine
}

// timing is how the referee times p: its engine's Timing, or its own.
func (p Player) timing() Timing {
	if p.Engine != nil {
		return p.Engine.Timing()
	}
	return p.Timing
}

// checkBuiltin checks that a built-in player can search: an evaluator and
// one weight per feature.
func (p Player) checkBuiltin() error {
	if p.Evaluator == nil {
		return fmt.Errorf("tournament: player %q has no evaluator", p.Name)
	}
	if len(p.Weights) != len(p.Evaluator.Features) {
		return fmt.Errorf("tournament: player %q: %d weights for %d features", p.Name, len(p.Weights), len(p.Evaluator.Features))
	}
	return nil
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

// Check reports a negative setting, which no adjudication means.
func (a Adjudication) Check() error {
	if a.DrawAfter < 0 || a.DrawPlies < 0 || a.DrawMargin < 0 || a.ResignPlies < 0 || a.ResignMargin < 0 {
		return fmt.Errorf("tournament: adjudication %+v: the settings must not be negative", a)
	}
	return nil
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

// Pair returns the colour-swapped pair of games of first: first itself,
// then the same game with the players' sides exchanged and the seed one
// more.
func Pair(first GameSpec) [2]GameSpec {
	second := first
	second.First, second.Second = first.Second, first.First
	second.Seed = first.Seed + 1
	return [2]GameSpec{first, second}
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
	// Clocks are each side's clock at the end (by games.Side), for the
	// sides on a time control.
	Clocks [2]ClockEnd
	// Evals holds, move by move, what the mover said of it and the time
	// it took: the move comments of the record files a match writes. Not
	// kept by the run store, nor carried by cluster results (a game played
	// on a worker has none).
	Evals []MoveEval
}

// MoveEval is a mover's word on its move: its score from its side's point
// of view (when Scored), the depth it reached (0: not said) and the time
// it took.
type MoveEval struct {
	Score  int
	Scored bool
	Depth  int
	Time   time.Duration
}

// Comment is the move comment engine testers expect, as cutechess writes
// it: "+0.35/12 0.123s" (the score in hundredths), "0.123s" without a
// score.
func (e MoveEval) Comment() string {
	t := fmt.Sprintf("%.3fs", e.Time.Seconds())
	if !e.Scored {
		return t
	}
	score := fmt.Sprintf("%+.2f", float64(e.Score)/100)
	if e.Depth > 0 {
		score += fmt.Sprintf("/%d", e.Depth)
	}
	return score + " " + t
}

// Termination is the PGN Termination tag's standard value for the reason:
// "normal" for the rules, "adjudication" for agreed results and the ply
// cap, "time forfeit", "rules infraction" for an illegal move, "abandoned"
// for a crash or a stall, "unterminated" for an interrupted game.
func (r Reason) Termination() string {
	switch r {
	case ByRule:
		return "normal"
	case ByAdjudication, ByResignation, ByPlyCap:
		return "adjudication"
	case ByTime:
		return "time forfeit"
	case ByIllegal:
		return "rules infraction"
	case ByCrash, ByStall:
		return "abandoned"
	}
	return "unterminated"
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
