package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gametune/gametune/games"
)

// Play plays one game between built-in players, the first side searching
// with s[0], the second with s[1] (both cleared first, so the game
// depends on spec alone). When ctx is cancelled it returns ctx's error and
// a record marked ByInterruption. Engines need their movers: see
// PlayMovers, or a Pool.
func Play(ctx context.Context, s Searchers, spec GameSpec) (Record, error) {
	for _, pl := range []Player{spec.First, spec.Second} {
		if pl.Engine != nil {
			return Record{}, fmt.Errorf("tournament: player %q is an external engine: play it on a Pool", pl.Name)
		}
	}
	return PlayMovers(ctx, spec, s.movers(0))
}

// PlayMovers plays one game of spec between movers[0] (spec.First) and
// movers[1] (spec.Second), keeping the clocks of the players with a time
// control. A mover's fault (crash, stall, illegal move) or a loss on time
// ends the game lost for that side, with the reason and a detail in the
// record. When ctx is cancelled it returns ctx's error and a record marked
// ByInterruption.
func PlayMovers(ctx context.Context, spec GameSpec, movers [2]Mover) (Record, error) {
	r, initial, err := newReferee(spec, movers)
	if err != nil {
		return Record{}, err
	}
	for side, m := range movers {
		s := Start{Player: r.players[side], Game: spec.Game, Position: initial.Clone(), Notation: r.startText}
		if err := m.NewGame(ctx, s); err != nil {
			return r.forfeit(ctx, games.Side(side), err)
		}
	}
	for r.rec.Reason == "" {
		if err := r.turn(ctx); err != nil {
			return r.forfeit(ctx, r.p.Turn(), err)
		}
	}
	r.rec.Duration = time.Since(r.started)
	r.rec.Clocks = [2]ClockEnd{r.clocks[0].end(), r.clocks[1].end()}
	return r.rec, nil
}

// referee is a game in progress: the position, the movers, their clocks
// and the record so far.
type referee struct {
	movers    [2]Mover
	players   [2]Player
	started   time.Time
	startText string
	maxPlies  int
	p         games.Position
	history   []games.Move // every move from the start the movers were given
	legal     []games.Move
	clocks    [2]sideClock
	adj       adjudicator
	rec       Record
}

// newReferee checks the players and reads the opening of spec; it returns
// the referee and the position the movers start from.
func newReferee(spec GameSpec, movers [2]Mover) (*referee, games.Position, error) {
	r := &referee{movers: movers, players: [2]Player{spec.First, spec.Second}, started: time.Now(),
		maxPlies: spec.MaxPlies, adj: adjudicator{Adjudication: spec.Adjudication}}
	initial, startText, history, p, err := startPosition(spec)
	if err != nil {
		return nil, nil, err
	}
	r.startText, r.history, r.p = startText, history, p
	for _, pl := range r.players {
		if pl.Engine == nil {
			if err := pl.checkBuiltin(); err != nil {
				return nil, nil, err
			}
		}
	}
	if r.maxPlies <= 0 {
		r.maxPlies = defaultMaxPlies
	}
	r.rec = Record{Opening: p.String()}
	r.clocks = [2]sideClock{newSideClock(spec.First), newSideClock(spec.Second)}
	return r, initial, nil
}

// turn plays one ply, or ends the game (rec.Reason set) when it is over.
// An error is side to move's: a Fault, a loss on time, or another error.
func (r *referee) turn(ctx context.Context) error {
	moves, outcome := r.p.Moves(r.legal[:0])
	r.legal = moves
	if outcome != games.Ongoing {
		r.rec.Outcome, r.rec.Reason = outcome, ByRule
		return nil
	}
	if r.rec.Plies >= r.maxPlies {
		r.rec.Outcome, r.rec.Reason = games.Draw, ByPlyCap
		return nil
	}
	side := r.p.Turn()
	t0 := time.Now()
	res, err := r.movers[side].Move(ctx, Turn{Position: r.p, Moves: r.history, Clock: turnClock(r.clocks, int(side))})
	elapsed := time.Since(t0)
	r.rec.Nodes += res.Nodes
	if lost, detail := r.clocks[side].spend(elapsed); lost {
		return &Fault{ByTime, detail}
	}
	if err != nil {
		return err
	}
	if !contains(moves, res.Move) {
		return &Fault{ByIllegal, fmt.Sprintf("move %d is not legal in %s", res.Move, r.p.String())}
	}
	r.rec.Moves = append(r.rec.Moves, r.p.FormatMove(res.Move))
	r.rec.Evals = append(r.rec.Evals, MoveEval{Score: res.Score, Scored: res.Scored, Depth: res.Depth, Time: elapsed})
	r.p.Play(res.Move)
	r.history = append(r.history, res.Move)
	r.rec.Plies++
	score := res.Score // from the first side's point of view, for adjudication
	if side != games.First {
		score = -score
	}
	if outcome, reason, over := r.adj.observe(r.rec.Plies, score, res.Scored); over {
		r.rec.Outcome, r.rec.Reason = outcome, reason
	}
	return nil
}

// forfeit ends the game on why, an error of side: ctx's end makes it an
// interruption, a Fault a loss for side; any other error is returned.
func (r *referee) forfeit(ctx context.Context, side games.Side, why error) (Record, error) {
	rec := r.rec
	rec.Clocks = [2]ClockEnd{r.clocks[0].end(), r.clocks[1].end()}
	if err := ctx.Err(); err != nil {
		rec.Reason, rec.Duration = ByInterruption, time.Since(r.started)
		return rec, err
	}
	var f *Fault
	if !errors.As(why, &f) {
		return rec, why
	}
	rec.Outcome, rec.Reason = games.WinFor(side.Other()), f.Reason
	rec.Detail = fmt.Sprintf("%s: %s", r.players[side].Name, f.Detail)
	rec.Duration = time.Since(r.started)
	return rec, nil
}

// adjudicator counts the plies for which both players' scores agree on a
// draw or on a winner.
type adjudicator struct {
	Adjudication
	drawRun, resignRun, resignSign int
}

// observe counts a ply after plies, whose mover scored score (from the
// first side's point of view) when scored, and reports whether the game
// is adjudicated, with its outcome.
func (a *adjudicator) observe(plies, score int, scored bool) (games.Outcome, Reason, bool) {
	if scored && a.DrawPlies > 0 && plies > a.DrawAfter && abs(score) <= a.DrawMargin {
		a.drawRun++
	} else {
		a.drawRun = 0
	}
	if scored && a.ResignPlies > 0 && abs(score) > a.ResignMargin && (a.resignRun == 0 || sign(score) == a.resignSign) {
		a.resignRun++
		a.resignSign = sign(score)
	} else {
		a.resignRun = 0
	}
	if a.DrawPlies > 0 && a.drawRun >= a.DrawPlies {
		return games.Draw, ByAdjudication, true
	}
	if a.ResignPlies > 0 && a.resignRun >= a.ResignPlies {
		if a.resignSign > 0 {
			return games.FirstWins, ByResignation, true
		}
		return games.SecondWins, ByResignation, true
	}
	return games.Ongoing, "", false
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
			m, err := ParseLegal(p, s)
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

// ParseLegal reads a move in the game's notation and checks that it is
// legal in p.
func ParseLegal(p games.Position, s string) (games.Move, error) {
	m, err := p.ParseMove(s)
	if err != nil {
		return 0, err
	}
	moves, _ := p.Moves(nil)
	if !contains(moves, m) {
		return 0, fmt.Errorf("%q is not a legal move", s)
	}
	return m, nil
}

func contains(moves []games.Move, m games.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
