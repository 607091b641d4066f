package xboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Engine is what Serve needs of an engine (engine/thinker's Thinker is
// one). Serve calls its methods from one goroutine; the reports of
// ThinkEach come from the search's.
type Engine interface {
	Game() games.Game
	// Evaluator returns the evaluator and the weights in use (myname).
	Evaluator() (*games.Evaluator, []float64)
	// TableMiB returns the table size and the largest one (memory N is
	// held to it); SetTableMiB says why it refuses a size.
	TableMiB() (size, max int)
	SetTableMiB(mib int) error
	// MoveOverhead is the time kept back from every move's time (the Move
	// Overhead option); SetMoveOverhead says why it refuses one.
	MoveOverhead() time.Duration
	SetMoveOverhead(d time.Duration) error
	NewGame() // new, and the Clear Hash option
	// ThinkEach searches p on its own goroutine, reports each iteration
	// completed to iteration (nil: none) and the end once to report; it
	// returns an error when there is nothing to search.
	ThinkEach(ctx context.Context, p games.Position, lim games.ThinkLimits, iteration, report func(games.Thought)) error
	// Busy returns a channel closed when the search in flight ends, nil
	// when there is none; Held reports whether it waits for Stop.
	Busy() <-chan struct{}
	Held() bool
	Stop() // end the search now, with its report
}

// server is one CECP session: the engine, the game as the GUI told it,
// which side the engine plays, and the limits it was given.
type server struct {
	e     Engine
	ctx   context.Context
	out   *lines.Writer
	pos   games.Position
	force bool       // force mode: the engine plays neither side
	side  games.Side // the side it plays out of force mode
	post  bool       // thinking output on
	limit limits

	// stopping is set while a command stops the search in flight: its
	// report then holds the move in stopped, for "?" to play, instead of
	// playing it (force, new, undo, setboard and result drop it).
	stopping atomic.Bool
	stopped  *games.Thought
}

// limits are the limits of the engine's searches: a clock (level and
// time), a time per move (st), a depth (sd).
type limits struct {
	level    Level
	leveled  bool          // a level is in force (the last of level and st)
	moveTime time.Duration // st; 0: none
	depth    int           // sd; 0: none
	left     time.Duration // the engine's clock, from time
	timed    bool          // time was given since new
}

// Serve answers the CECP commands read from r on w until quit, the end of
// r or the end of ctx (its error is returned then). It speaks protocol
// version 2 (protover 2 is answered with the features, done=1 last) and
// takes what version 1 GUIs send: moves without usermove.
//
// Commands are read while the engine searches: quit ends the session at
// once; ? makes the engine move now; force, new, setboard, undo, remove
// and result end the search without its move; the others, ping among
// them, wait for the search in flight and run in the order they came
// (lines.Serve). Errors in the input are answered with "Error (WHAT):
// COMMAND", an illegal move with "Illegal move (WHY): MOVE", and the
// engine keeps its last legal state.
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine) error {
	s := &server{e: e, ctx: ctx, out: lines.NewWriter(w), pos: e.Game().Start(), side: games.Second}
	defer s.halt(false)
	return lines.Serve(ctx, r, lines.Session{
		Kind:      kind,
		Handle:    s.handle,
		Busy:      e.Busy,
		Held:      e.Held,
		Interrupt: func() { s.halt(true) },
		Fail:      func(err error) { s.fail("input", err.Error()) },
	})
}

// kind is how a command is taken while a search runs.
func kind(text string) lines.Kind {
	c, ok := lines.Split(text)
	switch {
	case !ok || c.Name == "quit":
		return lines.AtOnce
	case c.Name == "?" || c.Name == "force" || c.Name == "new" || c.Name == "setboard" ||
		c.Name == "undo" || c.Name == "remove" || c.Name == "result":
		return lines.Interrupt
	}
	return lines.InOrder
}

// halt ends the search in flight, if any, keeping its move for "?" (keep)
// or dropping it.
func (s *server) halt(keep bool) {
	s.stopping.Store(true)
	s.e.Stop()
	s.stopping.Store(false)
	if !keep {
		s.stopped = nil
	}
}

// fail answers a command that failed: "Error (WHAT): COMMAND".
func (s *server) fail(what, command string) {
	s.out.Println(fmt.Sprintf("Error (%s): %s", what, command))
}

// handle runs one command and reports whether to go on (not after quit).
func (s *server) handle(text string) bool {
	c, ok := lines.Split(text)
	if !ok {
		return true
	}
	if c.Name == "quit" {
		return false
	}
	if !s.setting(c) && !s.play(c) {
		s.other(c, text)
	}
	return true
}

// setting runs a command that sets up the session or the limits and
// reports whether c is one.
func (s *server) setting(c lines.Command) bool {
	switch c.Name {
	case "protover":
		if n, err := strconv.Atoi(c.Rest); err == nil && n >= 2 {
			s.out.Println(s.features()...)
		}
	case "level":
		l, err := ParseLevel(c.Args)
		if err != nil {
			s.fail(err.Error(), "level "+c.Rest)
			return true
		}
		s.limit.level, s.limit.leveled, s.limit.moveTime = l, true, 0
	case "st":
		d, err := ParseSeconds(c.Rest)
		if err != nil {
			s.fail(err.Error(), "st "+c.Rest)
			return true
		}
		s.limit.moveTime, s.limit.leveled = d, false
	case "sd":
		n, err := strconv.Atoi(c.Rest)
		if err != nil || n < 1 || n > 1000 {
			s.fail("sd takes a depth from 1 to 1000", "sd "+c.Rest)
			return true
		}
		s.limit.depth = n
	case "time", "otim":
		d, err := ParseCentiseconds(c.Rest)
		if err != nil {
			s.fail(err.Error(), c.Name+" "+c.Rest)
		} else if c.Name == "time" {
			s.limit.left, s.limit.timed = d, true
		}
	case "post", "nopost":
		s.post = c.Name == "post"
	case "memory":
		s.memory(c.Rest)
	case "option":
		s.option(c.Rest)
	case "variant":
		if c.Rest != "normal" {
			s.fail("unsupported variant: this engine plays normal", "variant "+c.Rest)
		}
	case "xboard", "accepted", "rejected", "computer", "name", "rating", "ics", "random", "hard", "easy", "draw", "hint", "bk", "cores", ".":
		// Nothing to do: no pondering, no book, and draw offers are declined by silence.
	default:
		return false
	}
	return true
}

// play runs a command that moves, sets up the game or ends a search, and
// reports whether c is one.
func (s *server) play(c lines.Command) bool {
	switch c.Name {
	case "new":
		s.halt(false)
		s.e.NewGame()
		s.pos, s.force, s.side = s.e.Game().Start(), false, games.Second
		s.limit.depth, s.limit.timed = 0, false
	case "force", "result":
		s.halt(false)
		s.force = true
	case "go":
		s.force, s.side = false, s.pos.Turn()
		s.think()
	case "playother":
		s.force, s.side = false, s.pos.Turn().Other()
	case "usermove":
		s.userMove(c.Rest)
	case "?":
		s.halt(true)
		if t := s.stopped; t != nil {
			s.stopped = nil
			s.played(*t)
		}
	case "ping":
		s.out.Println("pong " + c.Rest)
	case "setboard":
		s.halt(false)
		p, err := s.e.Game().ParsePosition(c.Rest)
		if err != nil {
			s.out.Println("tellusererror Illegal position: " + oneLine(err.Error()))
			s.fail("illegal position", "setboard "+c.Rest)
			return true
		}
		s.pos = p
	case "undo", "remove":
		s.halt(false)
		s.undo(map[string]int{"undo": 1, "remove": 2}[c.Name], c.Name)
	default:
		return false
	}
	return true
}

// other answers a command that is none of the known ones: a move of a
// GUI that does not send usermove, or an unknown command.
func (s *server) other(c lines.Command, text string) {
	if c.Rest == "" && looksLikeMove(c.Name) {
		s.userMove(c.Name)
		return
	}
	s.fail("unknown command", strings.TrimSpace(text))
}

// looksLikeMove reports whether a word may be a move: a coordinate move
// (e2e4, e7e8q) or SAN (Nf3, exd5, O-O, e8=Q+).
func looksLikeMove(w string) bool {
	if w == "" || len(w) > 10 {
		return false
	}
	if strings.HasPrefix(w, "O-O") || strings.HasPrefix(w, "0-0") {
		return true
	}
	return strings.ContainsAny(w[len(w)-1:], "12345678qrbnQRBN+#") && strings.ContainsAny(w, "abcdefgh") &&
		strings.Trim(w, "abcdefgh12345678xNBRQKnbrqk=+#-") == ""
}

// userMove plays the GUI's move; out of force mode, the engine then
// thinks if the move left it on move.
func (s *server) userMove(text string) {
	if text == "" {
		s.fail("usermove needs a move", "usermove")
		return
	}
	m, err := s.pos.ParseMove(NormalMove(text))
	if err != nil {
		s.out.Println(fmt.Sprintf("Illegal move (%s): %s", oneLine(err.Error()), text))
		return
	}
	s.pos.Play(m)
	if !s.force && s.pos.Turn() == s.side {
		s.think()
	}
}

// NormalMove writes a coordinate move the way games' parsers read it:
// the promotion piece in lower case, without "=" (e7e8=Q and e7e8Q are
// e7e8q). Other moves are returned as they are.
func NormalMove(m string) string {
	if len(m) >= 5 && len(m) <= 6 && isSquare(m[:2]) && isSquare(m[2:4]) {
		return m[:4] + strings.ToLower(strings.TrimPrefix(m[4:], "="))
	}
	return m
}

func isSquare(s string) bool {
	return len(s) == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
}

// undo takes back n plies, as far as the position's history goes.
func (s *server) undo(n int, name string) {
	if s.pos.Ply() < n {
		s.fail(fmt.Sprintf("no move to take back: %d played since the game was set up", s.pos.Ply()), name)
		return
	}
	for range n {
		s.pos.Undo()
	}
}

// memory holds the table to the memory the GUI grants, within the sizes
// the engine offers.
func (s *server) memory(text string) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 {
		s.fail("memory takes a number of MiB, 1 or more", "memory "+text)
		return
	}
	_, largest := s.e.TableMiB()
	if err := s.e.SetTableMiB(min(n, largest)); err != nil {
		s.fail(oneLine(err.Error()), "memory "+text)
	}
}

// oneLine keeps an error on one line of an answer.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// errNoOption is the error of an option the engine does not offer.
var errNoOption = errors.New("no such option (options: Move Overhead, Clear Hash)")
