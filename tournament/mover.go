package tournament

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
)

// Mover is the live thing that plays a Player's moves, as a worker holds
// it: the built-in searcher, or an engine's process (package external).
// A worker keeps its movers between games; NewGame says whom a mover
// plays in the next one. A Mover is used by one goroutine at a time.
type Mover interface {
	// NewGame starts a game.
	NewGame(ctx context.Context, s Start) error
	// Move returns the move to play in t.Position, which it must leave as
	// it found it.
	Move(ctx context.Context, t Turn) (Reply, error)
	// Close ends the mover and every process it started.
	Close() error
}

// Start is what a mover is told when a game starts.
type Start struct {
	Player   Player // whom the mover plays in the game
	Game     games.Game
	Position games.Position // the position the game starts from: the mover's own copy
	Notation string         // the start's notation; "" for the game's start position
}

// Turn is what a mover is told when it is asked for a move.
type Turn struct {
	Position games.Position // the position to move in; not to be changed
	Moves    []games.Move   // every move from the start given to NewGame
	Clock    Clock
}

// Clock is the time left of both sides (indexed by games.Side), for the
// players that play on a clock. The zero value is no clock.
type Clock struct {
	Timed     bool
	Left      [2]time.Duration
	Increment [2]time.Duration
	MovesToGo int // moves to the next time control of the side to move; 0: none
}

// Reply is a mover's answer.
type Reply struct {
	Move   games.Move
	Score  int  // from the side to move's point of view, when Scored
	Scored bool // whether Score holds the mover's evaluation
	Depth  int  // the depth the search reached; 0 when not said
	Nodes  int64
}

// Engine plays a Player instead of the built-in searcher: an external
// engine process (package external) or any other program. The tournament
// knows it only by the movers it makes and the time it is given.
type Engine interface {
	// Key names the movers that can play the engine: a worker keeps the
	// movers of its games, and one made for an engine plays any later
	// engine with the same key (the same program with other options).
	Key() string
	// NewMover returns a new mover for engines of the engine's key,
	// writing its diagnostics (an engine's stderr) to log (nil: dropped).
	NewMover(log io.Writer) Mover
	// Timing is how the referee times the engine's moves.
	Timing() Timing
}

// Timing is how the referee times a player: on a clock (TC), with a
// fixed time per move (MoveTime), or not at all (neither).
type Timing struct {
	TC       *TimeControl
	MoveTime time.Duration
	// Margin is how far a player may overstep its clock or its move time
	// before it loses on time; 0 means DefaultTimeMargin.
	Margin time.Duration
}

// DefaultTimeMargin is the margin of a Timing that gives none.
const DefaultTimeMargin = 100 * time.Millisecond

// Reasons a game is lost by a player rather than decided on the board.
const (
	ByTime    Reason = "time-forfeit" // the clock (with its margin) ran out
	ByCrash   Reason = "crash"        // the engine process died or broke the protocol
	ByStall   Reason = "stall"        // the engine stopped answering
	ByIllegal Reason = "illegal-move" // the engine played a move that is not legal
)

// Fault is a player's failure that loses the game: a crash, a stall or an
// illegal move. Movers return it (wrapped or not); PlayMovers records the
// loss.
type Fault struct {
	Reason Reason
	Detail string
}

func (f *Fault) Error() string { return fmt.Sprintf("%s: %s", f.Reason, f.Detail) }

// builtin is the built-in searcher as a Mover: one side's searcher (see
// Searchers), searching with the evaluator, weights, limits and search of
// the player of each game, on its clock when it has one. A player whose
// search is not the exact one gets a searcher of its own, made at its
// first game and kept.
type builtin struct {
	exact    *engine.Searcher
	tableMiB int
	others   map[Search]*engine.Searcher
	s        *engine.Searcher // the searcher of the game
	pl       Player
	timer    *thinker.Timer
}

func newBuiltin(s *engine.Searcher, tableMiB int) *builtin {
	return &builtin{exact: s, tableMiB: tableMiB, timer: thinker.NewTimer()}
}

func (b *builtin) NewGame(_ context.Context, s Start) error {
	b.pl = s.Player
	b.s = b.exact
	if b.pl.Search != (Search{}) {
		if b.s = b.others[b.pl.Search]; b.s == nil {
			var err error
			opts := engine.Options{TableMiB: b.tableMiB, Selective: b.pl.Search.Selective, Params: b.pl.Search.Params,
				SolveRoot: b.pl.Search.SolveRoot}
			if b.s, err = engine.New(opts); err != nil {
				return fmt.Errorf("tournament: player %q: %w", b.pl.Name, err)
			}
			if b.others == nil {
				b.others = map[Search]*engine.Searcher{}
			}
			b.others[b.pl.Search] = b.s
		}
	}
	b.s.NewGame()
	b.timer.NewGame()
	b.timer.Params = b.pl.Time
	if b.pl.Time == (thinker.TimeParams{}) {
		b.timer.Params = thinker.DefaultTimeParams()
	}
	return nil
}

func (b *builtin) Move(ctx context.Context, t Turn) (Reply, error) {
	pl := b.pl
	var res engine.Result
	var err error
	if pl.Timing.TC == nil && pl.Timing.MoveTime == 0 {
		res, err = b.s.Search(ctx, t.Position, pl.Evaluator, pl.Weights, pl.Limits)
	} else {
		l := games.ThinkLimits{MoveTime: pl.Timing.MoveTime}
		if c := t.Clock; c.Timed {
			side := t.Position.Turn()
			l.Clock, l.Left, l.Increment, l.MovesToGo = true, c.Left[side], c.Increment[side], c.MovesToGo
		}
		res, err = b.timer.Search(ctx, b.s, t.Position, pl.Evaluator, pl.Weights, pl.Limits, l, nil)
	}
	return Reply{Move: res.Move, Score: res.Score, Scored: true, Depth: res.Stats.Depth, Nodes: res.Stats.Nodes}, err
}

func (b *builtin) Close() error { return nil }

// Searchers are the two searchers of a game between built-in players, one
// per side: like two engine processes, each side keeps its own table
// through the game and never sees what the other searched, so a built-in
// game is the game two engine processes with the same tables play.
type Searchers [2]*engine.Searcher

// NewSearchers returns two searchers with tableMiB tables (0 means 16).
func NewSearchers(tableMiB int) (Searchers, error) {
	var s Searchers
	for i := range s {
		var err error
		if s[i], err = engine.New(engine.Options{TableMiB: tableMiB}); err != nil {
			return Searchers{}, err
		}
	}
	return s, nil
}

// movers are the built-in movers of the searchers, one per side; the
// searchers they make for players of other searches have tableMiB tables
// (0 means 16).
func (s Searchers) movers(tableMiB int) [2]Mover {
	return [2]Mover{newBuiltin(s[0], tableMiB), newBuiltin(s[1], tableMiB)}
}
