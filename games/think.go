package games

import "time"

// ThinkLimits and Thought are the words between a protocol server
// (protocol/uci, protocol/gtp, protocol/nboard), which reads what a GUI
// asks, and the engine that thinks (engine/thinker): both import games and
// neither imports the other.

// MaxMoveOverhead is the most time a GUI may have an engine keep back from
// every move's time for its own delays (UCI's and xboard's Move Overhead
// option; the engines' default is theirs).
const MaxMoveOverhead = 5 * time.Second

// ThinkLimits are the limits of one search as a GUI gives them. The zero
// value asks for the engine's own default limits; any field set replaces
// them all (an unset depth is then no depth limit).
type ThinkLimits struct {
	Depth    int           // plies; 0: not given
	Nodes    int64         // 0: not given
	MoveTime time.Duration // the time for this move; 0: not given

	Clock     bool          // the side to move plays on a clock: Left, Increment and MovesToGo are given
	Left      time.Duration // the time left on its clock (negative when it ran over)
	Increment time.Duration // added to its clock after each move
	MovesToGo int           // moves to the next time control; 0: sudden death

	Infinite bool // the search goes on until it is stopped, and reports only then
}

// Thought is what an engine reports of a search, finished or stopped (then
// with the move of its last completed iteration).
type Thought struct {
	Position Position // the position searched: the engine's own copy
	Move     Move
	PV       []Move        // the principal variation, Move first
	Score    int           // in the evaluation's units, from the side to move's point of view
	EndPlies int           // a forced end: the side to move wins in EndPlies plies (> 0) or loses in -EndPlies (< 0); 0: none found
	Depth    int           // of the last completed iteration
	Nodes    int64         // positions visited
	Elapsed  time.Duration // the search's wall time
}

// Param is one of an engine's integer settings other than the
// evaluation's weights, a search parameter or a clock-use constant, as a
// protocol server offers it to a GUI (a UCI spin option, or a check
// option when Check: 0 or 1).
type Param struct {
	Name, Doc       string
	Value, Min, Max int
	Check           bool
}
