package nboard

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Engine is what Serve needs of an engine (engine/thinker's Thinker is
// one). Serve calls its methods from one goroutine; Think's report comes
// from the search's.
type Engine interface {
	Game() games.Game
	Evaluator() (*games.Evaluator, []float64) // its name is in myname
	// SetDepth makes d plies the limit of the searches Serve asks for
	// ("set depth"), or says why not.
	SetDepth(d int) error
	// Think searches p on its own goroutine and reports once; it returns an
	// error when there is nothing to search.
	Think(ctx context.Context, p games.Position, lim games.ThinkLimits, report func(games.Thought)) error
	Wait() // wait for the search in flight to report
	Stop() // end the search in flight now, with its report
	// Busy returns a channel closed when the search in flight ends, nil
	// when there is none; Held reports whether that search waits for Stop
	// (an infinite search).
	Busy() <-chan struct{}
	Held() bool
	// Params are the engine's settings besides the weights (search
	// parameters, clock-use constants): "set NAME VALUE" sets one;
	// SetParam says why it refuses a value.
	Params() []games.Param
	SetParam(name string, v int) error
}

// server is one NBoard session: the engine, the position the GUI set up
// and where the answers go.
type server struct {
	e   Engine
	pos games.Position
	out *lines.Writer
}

// Serve answers the NBoard commands read from r on w until quit, the end
// of r or the end of ctx (its error is returned then), for a game whose
// records NBoard sends (Othello's GGF: a games.RecordReader). go and hint
// search on their own goroutine while commands are read: ping stops the
// search as soon as it is read and is answered after the search's output,
// as the protocol asks; quit ends the session at once; the other commands
// wait for the search and run in the order they came (lines.Serve).
// Errors in the input are answered with "status error: ..." and the engine
// keeps its last legal state.
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine) error {
	s := &server{e: e, pos: e.Game().Start(), out: lines.NewWriter(w)}
	defer e.Stop()
	return lines.Serve(ctx, r, lines.Session{
		Kind: kind,
		Handle: func(text string) bool {
			c, err := ParseCommand(text)
			return err != nil || s.answer(ctx, c)
		},
		Busy:      e.Busy,
		Held:      e.Held,
		Interrupt: e.Stop,
		Fail:      func(err error) { s.fail("%v", err) },
	})
}

// kind is how a command is taken while a search runs.
func kind(text string) lines.Kind {
	c, err := ParseCommand(text)
	switch {
	case err != nil || c.Name == "quit":
		return lines.AtOnce
	case c.Name == "ping":
		return lines.Interrupt
	}
	return lines.InOrder
}

func (s *server) fail(format string, args ...any) {
	s.out.Println("status error: " + strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " "))
}

// The bounds of the numbers of NBoard's commands.
const (
	MaxProtocolVersion = 1000
	MaxContempt        = 6400 // centidiscs
	MaxHintMoves       = 64
)

// number reads the whole number of a command, from lo to hi, or fails
// with a message that says so.
func (s *server) number(command, text string, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(text)
	if err != nil || n < lo || n > hi {
		s.fail("%s %q: want a whole number from %d to %d", command, text, lo, hi)
		return 0, false
	}
	return n, true
}

// answer runs one command and reports whether to go on (not after quit).
func (s *server) answer(ctx context.Context, c Command) bool {
	switch c.Name {
	case "quit":
		return false
	case "nboard":
		if len(c.Args) > 0 {
			if _, ok := s.number("nboard", c.Args[0], 1, MaxProtocolVersion); !ok {
				return true
			}
		}
		ev, _ := s.e.Evaluator()
		s.out.Println("set myname gametune-" + ev.Name)
	case "set":
		s.set(c)
	case "move":
		s.move(c.Args)
	case "go", "hint":
		if c.Name == "hint" && len(c.Args) > 0 {
			if _, ok := s.number("hint", c.Args[0], 1, MaxHintMoves); !ok {
				return true
			}
		}
		s.think(ctx, c.Name)
	case "ping":
		s.e.Stop()
		n := "0"
		if len(c.Args) > 0 {
			n = c.Args[0]
		}
		if _, err := strconv.ParseUint(n, 10, 63); err != nil {
			s.fail("ping %q: want a whole number from 0 to %d", n, uint64(1<<63-1))
			n = "0"
		}
		s.out.Println("pong " + n)
	case "learn":
		s.out.Println("learned")
	default:
		s.fail("unknown command %q (nboard, set depth, set game, move, go, hint, ping, learn, quit)", c.Name)
	}
	return true
}

// set runs "set depth N", "set game GGF" and "set contempt N" (ignored).
func (s *server) set(c Command) {
	if len(c.Args) == 0 {
		s.fail("set needs depth, game or contempt")
		return
	}
	s.e.Wait()
	switch c.Args[0] {
	case "depth":
		d := 0
		if len(c.Args) == 2 {
			d, _ = strconv.Atoi(c.Args[1])
		}
		if err := s.e.SetDepth(d); err != nil {
			s.fail("set depth %s: %v", strings.Join(c.Args[1:], " "), err)
		}
	case "contempt":
		if len(c.Args) != 2 {
			s.fail("set contempt needs one number of centidiscs")
			return
		}
		s.number("set contempt", c.Args[1], -MaxContempt, MaxContempt) // checked, then ignored
	case "game":
		p, err := gamePosition(s.e.Game(), strings.TrimSpace(strings.TrimPrefix(c.Rest, "game")))
		if err != nil {
			s.fail("set game: %v (the position stays %s)", err, s.pos.String())
			return
		}
		s.pos = p
	default:
		s.setParam(c.Args)
	}
}

// setParam runs "set NAME VALUE" for one of the engine's settings
// besides depth, game and contempt (Engine.Params).
func (s *server) setParam(args []string) {
	var names []string
	for _, p := range s.e.Params() {
		if p.Name != args[0] {
			names = append(names, p.Name)
			continue
		}
		v, err := 0, error(nil)
		if len(args) == 2 {
			v, err = strconv.Atoi(args[1])
		}
		if len(args) != 2 || err != nil {
			s.fail("set %s needs one whole number from %d to %d", p.Name, p.Min, p.Max)
		} else if err := s.e.SetParam(p.Name, v); err != nil {
			s.fail("set %s: %v", p.Name, err)
		}
		return
	}
	s.fail("set %s: unknown setting (depth, game, contempt) or engine parameter (%s)", args[0], strings.Join(names, ", "))
}

// move plays one move such as F5 or F5/1.00/0.5 for the side to move.
func (s *server) move(args []string) {
	s.e.Wait()
	if len(args) != 1 {
		s.fail("move needs one move such as F5 or F5/1.00/0.5")
		return
	}
	m, err := ParseMove(args[0])
	if err == nil {
		q := s.pos.Clone()
		var mv games.Move
		if mv, err = q.ParseMove(square(m)); err == nil {
			q.Play(mv)
			s.pos = q
		}
	}
	if err != nil {
		s.fail("move %s: %v", args[0], err)
	}
}

// think answers go ("=== F5/1.50/0.20") and hint (a search line), then
// "status".
func (s *server) think(ctx context.Context, command string) {
	s.e.Wait()
	out, ready := s.out, make(chan struct{})
	err := s.e.Think(ctx, s.pos, games.ThinkLimits{}, func(t games.Thought) {
		<-ready // after the status line below
		if command == "hint" {
			out.Println(Search(games.FormatLine(t.Position, t.PV, nil), eval(t), t.Depth), "status")
			return
		}
		m := Move{Square: t.Position.FormatMove(t.Move), Eval: eval(t), HasEval: true, Seconds: t.Elapsed.Seconds()}
		out.Println(BestMove(m), "status")
	})
	if err != nil {
		s.fail("%s: %v", command, err)
		return
	}
	s.out.Println("status gametune is thinking")
	close(ready)
}

// square is the move in the game's notation (games/othello's: f5, pass).
func square(m Move) string {
	if m.IsPass() {
		return "pass"
	}
	return strings.ToLower(m.Square)
}

// eval turns a score (tenths of a disc in Othello's evaluators) into
// NBoard's discs; a forced win or loss is ±64.
func eval(t games.Thought) float64 {
	switch {
	case t.EndPlies > 0:
		return 64
	case t.EndPlies < 0:
		return -64
	}
	return float64(t.Score) / 10
}

// gamePosition plays the game record text (GGF) from its board, checking
// every move; the game's reader puts back the forced passes it leaves out.
func gamePosition(g games.Game, text string) (games.Position, error) {
	reader, ok := g.(games.RecordReader)
	if !ok {
		return nil, fmt.Errorf("%s has no game records", g.Name())
	}
	recs, err := reader.ReadGames([]byte(text))
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("%d games: want one", len(recs))
	}
	p, _, err := recs[0].Replay(g)
	return p, err
}
