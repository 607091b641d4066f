package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// Mover is a player as a worker holds it while it plays: the built-in
// searcher with a player's weights, or an external engine process. A
// worker owns its movers; a Mover is used by one goroutine at a time.
type Mover interface {
	// NewGame starts a game from start (the mover's own copy), whose
	// notation is startText ("" for the game's start position).
	NewGame(ctx context.Context, g games.Game, start games.Position, startText string) error
	// Move returns the move to play in t.Position, which it must leave as
	// it found it.
	Move(ctx context.Context, t Turn) (Reply, error)
	// Close ends the mover and every process it started.
	Close() error
}

// Turn is what a mover is told when it is asked for a move.
type Turn struct {
	Position games.Position // the position to move in; not to be changed
	Moves    []games.Move   // every move from the start given to NewGame
	Clock    Clock
}

// Clock is the time left of both sides (indexed by games.Side), for the
// movers that play on a clock. The zero value is no clock.
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
	Nodes  int64
}

// Reasons a game is lost by a player rather than decided on the board.
const (
	ByTime    Reason = "time-forfeit" // the clock (with its margin) ran out
	ByCrash   Reason = "crash"        // the engine process died or broke the protocol
	ByStall   Reason = "stall"        // the engine stopped answering
	ByIllegal Reason = "illegal-move" // the engine played a move that is not legal
)

// Fault is a player's failure that loses the game: a crash, a stall or an
// illegal move. Movers return it (wrapped or not); Play records the loss.
type Fault struct {
	Reason Reason
	Detail string
}

func (f *Fault) Error() string { return fmt.Sprintf("%s: %s", f.Reason, f.Detail) }

// builtin is the built-in player: a searcher (its side's, see Searchers)
// with an evaluator, weights and limits.
type builtin struct {
	s  *engine.Searcher
	pl Player
}

func (b *builtin) NewGame(context.Context, games.Game, games.Position, string) error {
	b.s.NewGame()
	return nil
}

func (b *builtin) Move(ctx context.Context, t Turn) (Reply, error) {
	res, err := b.s.Search(ctx, t.Position, b.pl.Evaluator, b.pl.Weights, b.pl.Limits)
	return Reply{Move: res.Move, Score: res.Score, Scored: true, Nodes: res.Stats.Nodes}, err
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

// Play plays one game between built-in players, the first side searching
// with s[0], the second with s[1] (both cleared first, so the game
// depends on spec alone). When ctx is cancelled it returns ctx's error and
// a record marked ByInterruption. External players need movers: see
// PlayMovers, or a Pool.
func Play(ctx context.Context, s Searchers, spec GameSpec) (Record, error) {
	for _, pl := range []Player{spec.First, spec.Second} {
		if pl.Engine != nil {
			return Record{}, fmt.Errorf("tournament: player %q is an external engine: play it on a Pool", pl.Name)
		}
	}
	return PlayMovers(ctx, spec, [2]Mover{&builtin{s[0], spec.First}, &builtin{s[1], spec.Second}})
}

// startPosition reads the spec's opening: a position in the game's
// notation, or "moves: m1 m2 ..." from the start (the form protocols that
// cannot set up a position, GTP, need). It returns the position the game
// starts from, its notation ("" for the game's start), the opening moves
// played from it (moves form only) and the position after them.
func startPosition(spec GameSpec) (initial games.Position, text string, opening []games.Move, p games.Position, err error) {
	if text, ok := cutMovesPrefix(spec.Opening); ok {
		p := spec.Game.Start()
		for _, s := range text {
			m, err := parseLegal(p, s)
			if err != nil {
				return nil, "", nil, nil, fmt.Errorf("tournament: opening %q: %w", spec.Opening, err)
			}
			p.Play(m)
			opening = append(opening, m)
		}
		return spec.Game.Start(), "", opening, p, nil
	}
	if spec.Opening == "" {
		return spec.Game.Start(), "", nil, spec.Game.Start(), nil
	}
	p, err = spec.Game.ParsePosition(spec.Opening)
	if err != nil {
		return nil, "", nil, nil, fmt.Errorf("tournament: opening %q: %w", spec.Opening, err)
	}
	return p.Clone(), spec.Opening, nil, p, nil
}

// parseLegal reads a move in the game's notation and checks it is legal.
func parseLegal(p games.Position, s string) (games.Move, error) {
	m, err := p.ParseMove(s)
	if err != nil {
		return 0, err
	}
	moves, _ := p.Moves(nil)
	for _, x := range moves {
		if x == m {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%q is not a legal move", s)
}

// sideClock is one side's clock during a game.
type sideClock struct {
	tc        *TimeControl
	moveTime  time.Duration
	margin    time.Duration
	left      time.Duration
	movesDone int
}

func newSideClock(pl Player) sideClock {
	c := sideClock{margin: defaultTimeMargin}
	if e := pl.Engine; e != nil {
		c.tc, c.moveTime = e.TC, e.MoveTime
		if e.TimeMargin > 0 {
			c.margin = e.TimeMargin
		}
		if c.tc != nil {
			c.left = c.tc.Base
		}
	}
	return c
}

// spend charges a move's time to the clock and reports whether the side
// lost on time.
func (c *sideClock) spend(elapsed time.Duration) (lost bool, detail string) {
	switch {
	case c.tc != nil:
		if elapsed > c.left+c.margin {
			return true, fmt.Sprintf("used %v with %v left (margin %v)", elapsed.Round(time.Millisecond), c.left.Round(time.Millisecond), c.margin)
		}
		c.left += c.tc.Increment - elapsed
		c.movesDone++
		if c.tc.Moves > 0 && c.movesDone%c.tc.Moves == 0 {
			c.left += c.tc.Base
		}
	case c.moveTime > 0:
		if elapsed > c.moveTime+c.margin {
			return true, fmt.Sprintf("used %v of movetime %v (margin %v)", elapsed.Round(time.Millisecond), c.moveTime, c.margin)
		}
	}
	return false, ""
}

// PlayMovers plays one game of spec between movers[0] (spec.First) and
// movers[1] (spec.Second), keeping the clocks of the players with a time
// control. A mover's fault (crash, stall, illegal move) or a loss on time
// ends the game lost for that side, with the reason and a detail in the
// record. When ctx is cancelled it returns ctx's error and a record marked
// ByInterruption.
func PlayMovers(ctx context.Context, spec GameSpec, movers [2]Mover) (Record, error) {
	start := time.Now()
	initial, startText, history, p, err := startPosition(spec)
	if err != nil {
		return Record{}, err
	}
	players := [2]Player{spec.First, spec.Second}
	for _, pl := range players {
		if pl.Engine != nil {
			continue
		}
		if pl.Evaluator == nil {
			return Record{}, fmt.Errorf("tournament: player %q has no evaluator", pl.Name)
		}
		if len(pl.Weights) != len(pl.Evaluator.Features) {
			return Record{}, fmt.Errorf("tournament: player %q: %d weights for %d features", pl.Name, len(pl.Weights), len(pl.Evaluator.Features))
		}
	}
	maxPlies := spec.MaxPlies
	if maxPlies <= 0 {
		maxPlies = defaultMaxPlies
	}
	rec := Record{Opening: p.String()}
	forfeit := func(side games.Side, why error) (Record, error) {
		if err := ctx.Err(); err != nil {
			rec.Reason, rec.Duration = ByInterruption, time.Since(start)
			return rec, err
		}
		var f *Fault
		if !errors.As(why, &f) {
			return rec, why
		}
		rec.Outcome, rec.Reason = games.WinFor(side.Other()), f.Reason
		rec.Detail = fmt.Sprintf("%s: %s", players[side].Name, f.Detail)
		rec.Duration = time.Since(start)
		return rec, nil
	}
	for side, m := range movers {
		if err := m.NewGame(ctx, spec.Game, initial.Clone(), startText); err != nil {
			return forfeit(games.Side(side), err)
		}
	}
	clocks := [2]sideClock{newSideClock(spec.First), newSideClock(spec.Second)}
	adj := spec.Adjudication
	drawRun, resignRun, resignSign := 0, 0, 0
	var buf []games.Move
	for {
		moves, outcome := p.Moves(buf[:0])
		buf = moves
		if outcome != games.Ongoing {
			rec.Outcome, rec.Reason = outcome, ByRule
			break
		}
		if rec.Plies >= maxPlies {
			rec.Outcome, rec.Reason = games.Draw, ByPlyCap
			break
		}
		side := p.Turn()
		turn := Turn{Position: p, Moves: history}
		if clocks[side].tc != nil {
			turn.Clock = Clock{Timed: true, Left: [2]time.Duration{clocks[0].left, clocks[1].left}}
			for s := range clocks {
				if clocks[s].tc == nil {
					turn.Clock.Left[s] = clocks[side].left // an untimed opponent: show ours
				} else {
					turn.Clock.Increment[s] = clocks[s].tc.Increment
				}
			}
			if n := clocks[side].tc.Moves; n > 0 {
				turn.Clock.MovesToGo = n - clocks[side].movesDone%n
			}
		}
		t0 := time.Now()
		res, err := movers[side].Move(ctx, turn)
		elapsed := time.Since(t0)
		rec.Nodes += res.Nodes
		if err != nil {
			if lost, detail := clocks[side].spend(elapsed); lost && ctx.Err() == nil {
				return forfeit(side, &Fault{ByTime, detail})
			}
			if ctx.Err() == nil && players[side].Engine == nil {
				return rec, err
			}
			return forfeit(side, err)
		}
		if lost, detail := clocks[side].spend(elapsed); lost {
			return forfeit(side, &Fault{ByTime, detail})
		}
		if !contains(moves, res.Move) {
			return forfeit(side, &Fault{ByIllegal, fmt.Sprintf("move %d is not legal in %s", res.Move, p.String())})
		}
		// Scores from the first side's point of view, for adjudication.
		score, scored := res.Score, res.Scored
		if side != games.First {
			score = -score
		}
		rec.Moves = append(rec.Moves, p.FormatMove(res.Move))
		p.Play(res.Move)
		history = append(history, res.Move)
		rec.Plies++

		if scored && adj.DrawPlies > 0 && rec.Plies > adj.DrawAfter && abs(score) <= adj.DrawMargin {
			drawRun++
		} else {
			drawRun = 0
		}
		if scored && adj.ResignPlies > 0 && abs(score) > adj.ResignMargin && (resignRun == 0 || sign(score) == resignSign) {
			resignRun++
			resignSign = sign(score)
		} else {
			resignRun = 0
		}
		if adj.DrawPlies > 0 && drawRun >= adj.DrawPlies {
			rec.Outcome, rec.Reason = games.Draw, ByAdjudication
			break
		}
		if adj.ResignPlies > 0 && resignRun >= adj.ResignPlies {
			rec.Outcome, rec.Reason = games.SecondWins, ByResignation
			if resignSign > 0 {
				rec.Outcome = games.FirstWins
			}
			break
		}
	}
	rec.Duration = time.Since(start)
	return rec, nil
}

func contains(moves []games.Move, m games.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
