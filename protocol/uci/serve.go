package uci

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Engine is what Serve needs of an engine (engine/thinker's Thinker is
// one). Serve calls its methods from one goroutine; the reports of
// ThinkEach come from the search's.
type Engine interface {
	Game() games.Game
	// Evaluator returns the evaluator and the weights in use: Serve offers
	// each weight as a spin option.
	Evaluator() (*games.Evaluator, []float64)
	SetWeight(i int, v float64)
	// TableMiB returns the table size and the largest one to offer (the
	// Hash option); SetTableMiB says why it refuses a size.
	TableMiB() (size, max int)
	SetTableMiB(mib int) error
	// MoveOverhead is the time kept back from every move's time (the Move
	// Overhead option); SetMoveOverhead says why it refuses one.
	MoveOverhead() time.Duration
	SetMoveOverhead(d time.Duration) error
	// Params are the engine's settings besides the weights (search
	// parameters, clock-use constants), each offered as a spin option (a
	// check option when Check) as Stockfish's tuning builds offer theirs;
	// SetParam says why it refuses a value.
	Params() []games.Param
	SetParam(name string, v int) error
	NewGame() // ucinewgame and Clear Hash
	// ThinkEach searches p on its own goroutine, reports each iteration
	// completed to iteration and the end once to report; it returns an
	// error when there is nothing to search.
	ThinkEach(ctx context.Context, p games.Position, lim games.ThinkLimits, iteration, report func(games.Thought)) error
	// Busy returns a channel closed when the search in flight ends, nil
	// when there is none; Held reports whether that search waits for Stop
	// (an infinite search).
	Busy() <-chan struct{}
	Held() bool
	Stop()         // stop: end the search now, with its report
	Settle() error // before a command that changes the position or settings
}

// server is one UCI session: the engine, the position the GUI set up,
// where the answers go, and the perft in flight.
type server struct {
	e          Engine
	pos        games.Position
	positioned bool
	out        *lines.Writer
	perft      counting
}

// Serve answers the UCI commands read from r on w until quit, the end of r
// or the end of ctx (its error is returned then). Errors in the input are
// answered with one "info string error: ..." line, and the engine keeps its
// last legal state.
//
// Commands are read while the engine searches: isready is answered at once
// and quit ends the session at once; stop ends the search (any search:
// bounded by depth, nodes or time too) with its bestmove; the other
// commands wait for the search in flight and run in the order they came
// (lines.Serve). A search in flight is stopped before Serve returns.
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine) error {
	s := &server{e: e, pos: e.Game().Start(), out: lines.NewWriter(w)}
	defer s.stop()
	return lines.Serve(ctx, r, lines.Session{
		Kind:      kind,
		Handle:    func(text string) bool { return s.handle(ctx, text) },
		Busy:      s.busy,
		Held:      s.e.Held,
		Interrupt: s.stop,
		Fail:      func(err error) { s.fail("%v", err) },
	})
}

// kind is how a command is taken while a search runs.
func kind(text string) lines.Kind {
	c, err := ParseCommand(text)
	switch {
	case err != nil:
		return lines.AtOnce
	case c.Name == "isready" || c.Name == "quit" || c.Name == "debug":
		return lines.AtOnce
	case c.Name == "stop" || c.Name == "ponderhit":
		return lines.Interrupt
	}
	return lines.InOrder
}

func (s *server) handle(ctx context.Context, text string) bool {
	c, err := ParseCommand(text)
	return err != nil || s.answer(ctx, c)
}

// busy is the end of the search or the perft in flight; nil: none.
func (s *server) busy() <-chan struct{} {
	if done := s.perft.busy(); done != nil {
		return done
	}
	return s.e.Busy()
}

// stop ends the search or the perft in flight, with its report.
func (s *server) stop() {
	s.perft.stop()
	s.e.Stop()
}

func (s *server) fail(format string, args ...any) {
	s.out.Println(InfoString("error: " + fmt.Sprintf(format, args...)))
}

// answer runs one command and reports whether to go on (not after quit).
func (s *server) answer(ctx context.Context, c Command) bool {
	switch c.Name {
	case "quit":
		return false
	case "uci":
		s.out.Println(s.hello()...)
	case "isready":
		s.out.Println("readyok")
	case "debug", "register":
	case "ucinewgame":
		if err := s.e.Settle(); err != nil {
			s.fail("ucinewgame: %v", err)
			return true
		}
		s.e.NewGame()
		s.pos, s.positioned = s.e.Game().Start(), false
	case "setoption":
		s.setOption(c.Args)
	case "position":
		p, err := position(s.e.Game(), c.Args)
		if err != nil {
			s.fail("%v (the position stays %s)", err, s.pos.String())
			return true
		}
		if err := s.e.Settle(); err != nil {
			s.fail("position: %v", err)
			return true
		}
		s.pos, s.positioned = p, true
	case "go":
		s.think(ctx, c.Args)
	case "stop", "ponderhit":
		s.stop()
	default:
		s.fail("unknown command %q (commands: uci, isready, ucinewgame, setoption, position, go, stop, quit)", c.Name)
	}
	return true
}

// hello is the answer to "uci": the id, the options and uciok.
func (s *server) hello() []string {
	ev, w := s.e.Evaluator()
	size, max := s.e.TableMiB()
	id := ID{Name: fmt.Sprintf("gametune %s %s", s.e.Game().Name(), ev.Name), Author: "the gametune authors"}
	out := append(id.Lines(),
		Option{Name: "Hash", Type: "spin", Default: strconv.Itoa(size), Min: 1, Max: int64(max)}.String(),
		Option{Name: "Clear Hash", Type: "button"}.String(),
		Option{Name: "Move Overhead", Type: "spin", Default: strconv.FormatInt(s.e.MoveOverhead().Milliseconds(), 10),
			Min: 0, Max: games.MaxMoveOverhead.Milliseconds()}.String(),
	)
	for _, p := range s.e.Params() {
		out = append(out, ParamOption(p).String())
	}
	for i, f := range ev.Features {
		out = append(out, WeightOption(f, w[i]).String())
	}
	return append(out, "uciok")
}

// setOption applies one setoption: Hash, Clear Hash or a feature weight.
func (s *server) setOption(args []string) {
	if err := s.e.Settle(); err != nil {
		s.fail("setoption: %v", err)
		return
	}
	o, err := ParseSetOption(args)
	if err == nil {
		err = setOption(s.e, o)
	}
	if err != nil {
		s.fail("%v", err)
	}
}

func setOption(e Engine, o SetOption) error {
	switch strings.ToLower(o.Name) {
	case "hash":
		n, err := strconv.Atoi(o.Value)
		if err != nil {
			return fmt.Errorf("option Hash value %q: want a number of MiB", o.Value)
		}
		return e.SetTableMiB(n)
	case "clear hash":
		e.NewGame()
		return nil
	case "move overhead":
		n, err := strconv.ParseInt(o.Value, 10, 64)
		if err != nil || n < 0 || n > games.MaxMoveOverhead.Milliseconds() {
			return fmt.Errorf("option Move Overhead value %q: want a whole number of ms from 0 to %d", o.Value, games.MaxMoveOverhead.Milliseconds())
		}
		return e.SetMoveOverhead(time.Duration(n) * time.Millisecond)
	}
	for _, p := range e.Params() {
		if strings.EqualFold(p.Name, o.Name) {
			v, err := ParamValue(p, o.Value)
			if err != nil {
				return err
			}
			return e.SetParam(p.Name, v)
		}
	}
	ev, _ := e.Evaluator()
	i := ev.Index(o.Name)
	if i < 0 {
		return fmt.Errorf("no option %q (options: Hash, Clear Hash, Move Overhead, the search and clock parameters and the features of evaluator %s)", o.Name, ev.Name)
	}
	v, err := Weight(ev.Features[i], o.Value)
	if err != nil {
		return err
	}
	e.SetWeight(i, v)
	return nil
}

// think answers "go": a search that writes an info line for each of its
// iterations and bestmove at its end (with the info line of the end when
// no iteration completed); 0000 when there is nothing to search. "go perft
// N" counts instead (divide).
func (s *server) think(ctx context.Context, args []string) {
	if err := s.e.Settle(); err != nil {
		s.fail("go: %v", err)
		return
	}
	nothing := func(format string, args ...any) {
		s.fail(format, args...)
		s.out.Println(BestMove{Move: "0000"}.String())
	}
	if !s.positioned {
		nothing("go before position: send position startpos or position fen FEN first")
		return
	}
	g, err := ParseGo(args)
	if err != nil {
		nothing("%v", err)
		return
	}
	if g.Perft > 0 {
		s.perft.start(ctx, s.pos, g.Perft, s.out)
		return
	}
	if len(g.SearchMoves) > 0 {
		s.out.Println(InfoString("searchmoves is not supported: all moves are searched"))
	}
	out, iterations := s.out, 0
	each := func(t games.Thought) {
		iterations++
		out.Println(info(t).Format())
	}
	err = s.e.ThinkEach(ctx, s.pos, thinkLimits(g, s.pos.Turn()), each, func(t games.Thought) {
		if iterations == 0 {
			out.Println(info(t).Format())
		}
		out.Println(BestMove{Move: moveText(t.Position, t.Move)}.String())
	})
	if err != nil {
		nothing("%v", err)
	}
}

// position builds the position a "position" command describes, playing
// its moves so that the position keeps the game's history.
func position(g games.Game, args []string) (games.Position, error) {
	cmd, err := ParsePosition(args)
	if err != nil {
		return nil, err
	}
	p := g.Start()
	if cmd.FEN != "" {
		if p, err = g.ParsePosition(cmd.FEN); err != nil {
			return nil, err
		}
	}
	var buf []games.Move
	for i, s := range cmd.Moves {
		if _, outcome := p.Moves(buf[:0]); outcome != games.Ongoing {
			if q, err := g.ParsePosition(p.String()); err == nil {
				// A draw by rule a GUI did not claim: play on without the history.
				p = q
			}
		}
		m, err := p.ParseMove(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %v", i+1, s, err)
		}
		p.Play(m)
	}
	return p, nil
}

// thinkLimits are the limits of a go command for the side to move: with
// "mate N" a search of 2N-1 plies at most; with no limit at all (or
// infinite, or ponder) a search until stop.
func thinkLimits(g Go, turn games.Side) games.ThinkLimits {
	lim := games.ThinkLimits{Depth: g.Depth, Nodes: g.Nodes, MoveTime: g.MoveTime}
	if g.Mate > 0 {
		if d := 2*g.Mate - 1; lim.Depth == 0 || d < lim.Depth {
			lim.Depth = d
		}
	}
	if g.HasClock() {
		lim.Clock, lim.Left, lim.Increment, lim.MovesToGo = true, g.WTime, g.WInc, g.MovesToGo
		if turn == games.Second {
			lim.Left, lim.Increment = g.BTime, g.BInc
		}
	}
	none := g.Depth == 0 && g.Mate == 0 && g.Nodes == 0 && g.MoveTime == 0 && !g.HasClock()
	lim.Infinite = g.Infinite || g.Ponder || none
	return lim
}

// info is the info line of a search's iteration or end.
func info(t games.Thought) Info {
	score := &Score{Value: t.Score}
	switch {
	case t.EndPlies > 0:
		score = &Score{Mate: true, Value: (t.EndPlies + 1) / 2}
	case t.EndPlies < 0:
		score = &Score{Mate: true, Value: t.EndPlies / 2}
	}
	pv := games.FormatLine(t.Position, t.PV, moveText)
	ms := max(t.Elapsed.Milliseconds(), 1)
	return Info{
		Depth: t.Depth, SelDepth: max(t.Depth, len(pv)), Score: score,
		Nodes: t.Nodes, NPS: t.Nodes * 1000 / ms, Time: max(t.Elapsed, time.Millisecond), PV: pv,
	}
}

// moveText writes a move in UCI's notation for chess and in the game's own
// notation for the other games (the UCI dialect).
func moveText(p games.Position, m games.Move) string {
	if u, ok := p.(games.UCIFormatter); ok {
		return u.UCI(m)
	}
	return p.FormatMove(m)
}
