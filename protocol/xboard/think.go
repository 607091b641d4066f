package xboard

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
)

// features are the answer to "protover 2": what the engine does, one
// feature command per option, done=1 last.
func (s *server) features() []string {
	ev, _ := s.e.Evaluator()
	name := fmt.Sprintf("gametune %s %s", s.e.Game().Name(), ev.Name)
	on := Feature{Name: "myname", Value: name}
	out := []string{
		"feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 " +
			"colors=0 name=0 nps=0 memory=1 smp=0 debug=0 pause=0 " + on.String(),
	}
	if s.e.Game().Name() == "chess" {
		out = append(out, `feature variants="normal"`)
	}
	for _, o := range s.options() {
		out = append(out, "feature "+Feature{Name: "option", Value: o.String()}.String())
	}
	return append(out, "feature done=1")
}

// options are the options the engine offers.
func (s *server) options() []Option {
	return []Option{
		{Name: "Move Overhead", Type: "spin", Default: strconv.FormatInt(s.e.MoveOverhead().Milliseconds(), 10), Max: games.MaxMoveOverhead.Milliseconds()},
		{Name: "Clear Hash", Type: "button"},
	}
}

// option sets one option: "option NAME=VALUE" (a button: "option NAME").
func (s *server) option(text string) {
	name, value, _ := strings.Cut(text, "=")
	var err error
	switch strings.TrimSpace(name) {
	case "Move Overhead":
		n, perr := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if perr != nil || n < 0 || n > games.MaxMoveOverhead.Milliseconds() {
			err = fmt.Errorf("Move Overhead takes whole milliseconds from 0 to %d", games.MaxMoveOverhead.Milliseconds())
			break
		}
		err = s.e.SetMoveOverhead(time.Duration(n) * time.Millisecond)
	case "Clear Hash":
		s.e.NewGame()
	default:
		err = errNoOption
	}
	if err != nil {
		s.fail(oneLine(err.Error()), "option "+text)
	}
}

// think starts the engine's search of the position it is on move in, or
// claims the result when the game is over by the rules.
func (s *server) think() {
	s.stopped = nil
	if _, outcome := s.pos.Moves(nil); outcome != games.Ongoing {
		s.out.Println(resultLine(outcome))
		return
	}
	var each func(games.Thought)
	if s.post {
		each = func(t games.Thought) { s.out.Println(thoughtLine(t).String()) }
	}
	err := s.e.ThinkEach(s.ctx, s.pos, s.limit.of(s.pos), each, func(t games.Thought) {
		if s.stopping.Load() {
			s.stopped = &t
			return
		}
		s.played(t)
	})
	if err != nil {
		s.fail(oneLine(err.Error()), "go")
	}
}

// played makes the move the engine found: "move MOVE", then the result
// when the move ended the game. It runs on the search's goroutine before
// its end, or on Serve's after it (?).
func (s *server) played(t games.Thought) {
	moves, _ := s.pos.Moves(nil)
	legal := false
	for _, m := range moves {
		legal = legal || m == t.Move
	}
	if !legal {
		return // a search stopped before it had a move (never at depth 1)
	}
	s.out.Println("move " + moveText(s.pos, t.Move))
	s.pos.Play(t.Move)
	if _, outcome := s.pos.Moves(nil); outcome != games.Ongoing {
		s.out.Println(resultLine(outcome))
	}
}

// resultLine claims the result of a game over: "1-0 {White wins}".
func resultLine(o games.Outcome) string {
	switch o {
	case games.FirstWins:
		return WhiteWins + " {White wins}"
	case games.SecondWins:
		return BlackWins + " {Black wins}"
	}
	return Drawn + " {Draw by the rules}"
}

// of is the limits of a search of p: sd's depth, with st's time per move
// or the clock of level and time (the moves to the next control counted
// from the position the game was set up in).
func (l limits) of(p games.Position) games.ThinkLimits {
	lim := games.ThinkLimits{Depth: l.depth}
	switch {
	case l.moveTime > 0:
		lim.MoveTime = l.moveTime
	case l.leveled || l.timed:
		lim.Clock, lim.Left, lim.Increment = true, l.left, l.level.Increment
		if !l.timed {
			lim.Left = l.level.Base
		}
		if n := l.level.Moves; n > 0 {
			lim.MovesToGo = n - (p.Ply()/2)%n
		}
	}
	return lim
}

// thoughtLine is the thinking line of a search's iteration: the score in
// centipawns, a mate as 100000 + moves (CECP's convention), the time in
// hundredths.
func thoughtLine(t games.Thought) Thinking {
	score := t.Score
	switch {
	case t.EndPlies > 0:
		score = 100000 + (t.EndPlies+1)/2
	case t.EndPlies < 0:
		score = -100000 - (1-t.EndPlies)/2
	}
	return Thinking{Depth: t.Depth, Score: score, Time: t.Elapsed, Nodes: t.Nodes, PV: strings.Join(games.FormatLine(t.Position, t.PV, moveText), " ")}
}

// moveText writes a move in coordinate notation (e2e4, e7e8q), the
// game's own notation for a game without it.
func moveText(p games.Position, m games.Move) string {
	if u, ok := p.(games.UCIFormatter); ok {
		return u.UCI(m)
	}
	return p.FormatMove(m)
}
