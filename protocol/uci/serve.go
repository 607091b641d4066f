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
// one). Serve calls its methods from one goroutine; Think's report comes
// from the search's.
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
	NewGame() // ucinewgame and Clear Hash
	// Think searches p on its own goroutine and reports once; it returns an
	// error when there is nothing to search.
	Think(ctx context.Context, p games.Position, lim games.ThinkLimits, report func(games.Thought)) error
	Stop()         // stop: end the search now, with its report
	Settle() error // before a command that changes the position or settings
}

// server is one UCI session: the engine, the position the GUI set up and
// where the answers go.
type server struct {
	e          Engine
	pos        games.Position
	positioned bool
	out        *lines.Writer
}

// Serve answers the UCI commands read from r on w until quit, the end of r
// or the end of ctx (its error is returned then). Errors in the input are
// answered with one "info string error: ..." line, and the engine keeps its
// last legal state. A search in flight is stopped before Serve returns.
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine) error {
	s := &server{e: e, pos: e.Game().Start(), out: lines.NewWriter(w)}
	defer e.Stop()
	tooLong := func(err error) { s.fail("%v", err) }
	return lines.Each(ctx, r, tooLong, func(text string) bool {
		c, err := ParseCommand(text)
		return err != nil || s.answer(ctx, c)
	})
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
		s.e.Stop()
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
	)
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
	}
	ev, _ := e.Evaluator()
	i := ev.Index(o.Name)
	if i < 0 {
		return fmt.Errorf("no option %q (options: Hash, Clear Hash and the features of evaluator %s)", o.Name, ev.Name)
	}
	v, err := Weight(ev.Features[i], o.Value)
	if err != nil {
		return err
	}
	e.SetWeight(i, v)
	return nil
}

// think answers "go": a search whose report is the info line of its end
// and bestmove; 0000 when there is nothing to search.
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
	if len(g.SearchMoves) > 0 {
		s.out.Println(InfoString("searchmoves is not supported: all moves are searched"))
	}
	out := s.out
	err = s.e.Think(ctx, s.pos, thinkLimits(g, s.pos.Turn()), func(t games.Thought) {
		out.Println(info(t).Format(), BestMove{Move: moveText(t.Position, t.Move)}.String())
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

// info is the info line of a finished search.
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
