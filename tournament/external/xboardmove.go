package external

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/xboard"
	"github.com/gametune/gametune/tournament"
)

// verdict is a Fault that ends the game, not the engine's process: a
// resignation or a false claim. The process is kept for the next game.
type verdict struct{ f *tournament.Fault }

func (v verdict) Error() string { return v.f.Error() }
func (v verdict) Unwrap() error { return v.f }

// lost is the verdict of a game the engine lost by what it said.
func lost(reason tournament.Reason, detail string) error {
	var f *tournament.Fault
	errors.As(fault(reason, detail), &f)
	return verdict{f}
}

// moveXboard tells the engine the moves it lacks and its clock, and reads
// its move. After its own move the engine plays on: the opponent's reply
// alone starts its search, after time and otim, as xboard does it.
// Otherwise (the first move, or moves it did not see) the moves are told
// in force mode and go starts the search.
func (x *mover) moveXboard(ctx context.Context, t tournament.Turn, budget time.Duration) (tournament.Reply, error) {
	var lines []string
	x.xb.told = map[string]bool{}
	if x.xb.playing && len(t.Moves)-x.synced == 1 {
		lines = append(x.clockXboard(t), x.tellXboard(t.Moves[x.synced]))
	} else {
		if !x.xb.forced {
			lines = append(lines, "force")
		}
		for x.synced < len(t.Moves) {
			lines = append(lines, x.tellXboard(t.Moves[x.synced]))
		}
		lines = append(append(lines, x.clockXboard(t)...), "go")
	}
	if err := x.proc.send(lines...); err != nil {
		return tournament.Reply{}, err
	}
	x.xb.forced, x.xb.playing, x.xb.claim = false, true, ""
	return x.readXboardMove(ctx, t.Position, budget)
}

// tellXboard is the line of move m, the next of the game, played on the
// engine's copy.
func (x *mover) tellXboard(m games.Move) string {
	line := x.moveCommand(x.replay, m)
	x.xb.told[strings.TrimPrefix(line, "usermove ")] = true
	x.replay.Play(m)
	x.synced++
	return line
}

// clockXboard is time and otim before a move, for an engine that wants
// them (feature time): the clocks in hundredths, or a day each when it
// plays to a depth; none with st or nps.
func (x *mover) clockXboard(t tournament.Turn) []string {
	if !x.xb.features.Time {
		return nil
	}
	side := t.Position.Turn()
	switch {
	case t.Clock.Timed:
		return []string{"time " + xboard.Centiseconds(t.Clock.Left[side]), "otim " + xboard.Centiseconds(t.Clock.Left[side.Other()])}
	case x.spec.Depth > 0:
		return []string{"time " + dayOfCentiseconds, "otim " + dayOfCentiseconds}
	}
	return nil
}

// readXboardMove reads the engine's lines until its move, which must be
// legal in p, keeping the depth, score and nodes of its thinking output.
// What it says on the way is taken as cutechess takes it: resign, or a
// claim of its own loss, loses by resignation; a claim of its own win (or
// *) loses as a false claim, the game being on; a draw claim holds only if
// its move ends the game drawn by the rules; offer draw is passed over
// (no one accepts); "Illegal move" about a move told for this turn, which
// the referee knows is legal, is a crash (about anything else, such as a
// command an old engine took for a move, it is passed over).
func (x *mover) readXboardMove(ctx context.Context, p games.Position, budget time.Duration) (tournament.Reply, error) {
	deadline := time.Now().Add(budget)
	var r tournament.Reply
	for {
		l, err := x.proc.readLine(ctx, deadline, budget, "searching")
		if err != nil {
			var f *tournament.Fault
			if x.xb.claim != "" && errors.As(err, &f) && f.Reason == tournament.ByStall {
				return r, lost(tournament.ByIllegal, fmt.Sprintf("claimed %s and played no move in %v: a false claim loses, as in cutechess", x.xb.claim, budget))
			}
			return r, err
		}
		o, err := xboard.ParseOutput(l)
		if err != nil && o.Kind != xboard.FeatureLine {
			if strings.HasPrefix(strings.TrimSpace(l), "move") {
				return r, crash(fmt.Sprintf("%q: %v", l, err))
			}
			continue // a malformed pong or feature changes nothing
		}
		switch o.Kind {
		case xboard.FeatureLine:
			if err := x.answerFeatures(o.Features); err != nil {
				return r, err
			}
		case xboard.ThinkingLine:
			r.Depth, r.Score, r.Scored = o.Thinking.Depth, o.Thinking.Score, true
			if o.Thinking.Nodes > 0 {
				r.Nodes = o.Thinking.Nodes
			}
		case xboard.MoveLine:
			return x.takeMove(p, o.Move, r)
		case xboard.ResignLine:
			return r, lost(tournament.ByResignation, "resigned")
		case xboard.ResultLine:
			if err := x.claimed(p, o); err != nil {
				return r, err
			}
		case xboard.IllegalMoveLine:
			if x.xb.told[o.Move] {
				return r, crash(fmt.Sprintf("said %q of a legal move", l))
			}
		}
	}
}

// takeMove takes the engine's move text in p: it must be legal, and bear
// out a draw claimed before it.
func (x *mover) takeMove(p games.Position, text string, r tournament.Reply) (tournament.Reply, error) {
	m, err := tournament.ParseLegal(p, xboard.NormalMove(text))
	if err != nil {
		return r, illegal(fmt.Sprintf("move %s in %s: %v", text, p.String(), err))
	}
	if x.xb.claim != "" {
		q := p.Clone()
		q.Play(m)
		if _, outcome := q.Moves(nil); outcome != games.Draw {
			return r, lost(tournament.ByIllegal, fmt.Sprintf("claimed %s before %s, which does not end the game drawn: a false claim loses, as in cutechess", x.xb.claim, text))
		}
	}
	x.replay.Play(m)
	x.synced++ // the engine played it on its own board
	r.Move = m
	return r, nil
}

// claimed judges a result the engine claimed while on move: a draw waits
// for its move; its own loss is a resignation; its own win, or *, is a
// false claim, since the game goes on.
func (x *mover) claimed(p games.Position, o xboard.Output) error {
	text := o.Result
	if o.Comment != "" {
		text += " {" + o.Comment + "}"
	}
	loss := xboard.BlackWins // for white, on move
	if p.Turn() == games.Second {
		loss = xboard.WhiteWins
	}
	switch o.Result {
	case xboard.Drawn:
		x.xb.claim = text
		return nil
	case loss:
		return lost(tournament.ByResignation, "claimed "+text+": its own loss, a resignation")
	}
	return lost(tournament.ByIllegal, "claimed "+text+" in a game that goes on: a false claim loses, as in cutechess")
}
