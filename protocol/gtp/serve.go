package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Engine is what Serve needs of an engine (engine/thinker's Thinker is
// one).
type Engine interface {
	Game() games.Game
	Evaluator() (*games.Evaluator, []float64) // its name is the version's
	NewGame()                                 // clear_board
	// Think searches p on its own goroutine and reports once; it returns an
	// error when there is nothing to search. Wait waits for the report.
	Think(ctx context.Context, p games.Position, lim games.ThinkLimits, report func(games.Thought)) error
	Wait()
	// Params are the engine's settings besides the weights (search
	// parameters, clock-use constants): gametune-param lists and sets
	// them; SetParam says why it refuses a value.
	Params() []games.Param
	SetParam(name string, v int) error
}

// Commands are the commands Serve knows, in the order list_commands gives
// them.
var Commands = []string{"protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
	"clear_board", "komi", "play", "genmove", "undo", "time_settings", "time_left", "final_score", "showboard", "gametune-param", "quit"}

// server is one GTP session: the engine, the position and the clocks the
// controller set up.
type server struct {
	e      Engine
	pos    games.Position
	timed  bool             // time_settings or time_left gave a clock
	left   [2]time.Duration // each side's time left, black first
	stones [2]int           // the moves left to play in that time, in byo-yomi; 0: in main time
}

// The bounds of the numbers GTP's commands accept.
const (
	MaxClockSeconds = 86400 // time_settings' main and byo-yomi times, time_left's time: a day
	MaxStones       = 1000  // time_settings' and time_left's stones
	MaxKomi         = 1000
)

// Serve answers the GTP commands read from r on w until quit, the end of r
// or the end of ctx (its error is returned then), for a game whose moves
// are squares (Othello). GTP is one command, one answer: genmove searches
// before the next command is read. A failing command is answered "? ..."
// and changes nothing.
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine) error {
	s := &server{e: e, pos: e.Game().Start()}
	out := lines.NewWriter(w)
	tooLong := func(err error) { out.Write(Failure(Command{}, err.Error()).String()) }
	return lines.Each(ctx, r, tooLong, func(text string) bool {
		c, err := ParseCommand(text)
		if errors.Is(err, ErrEmpty) {
			return true
		}
		if err != nil {
			out.Write(Failure(Command{}, err.Error()).String())
			return true
		}
		answer, err := s.answer(ctx, c)
		if err != nil {
			out.Write(Failure(c, err.Error()).String())
			return true
		}
		out.Write(Success(c, answer).String())
		return c.Name != "quit"
	})
}

// handler answers one command with at least args arguments.
type handler struct {
	args int
	run  func(s *server, ctx context.Context, args []string) (string, error)
}

var handlers = map[string]handler{
	"protocol_version": {0, func(*server, context.Context, []string) (string, error) { return "2", nil }},
	"name":             {0, func(*server, context.Context, []string) (string, error) { return lines.ProgramName, nil }},
	"version":          {0, (*server).version},
	"known_command":    {1, knownCommand},
	"list_commands":    {0, func(*server, context.Context, []string) (string, error) { return strings.Join(Commands, "\n"), nil }},
	"boardsize":        {1, boardSize},
	"clear_board":      {0, (*server).clearBoard},
	"komi":             {0, komi},
	"play":             {2, (*server).play},
	"genmove":          {1, (*server).genmove},
	"undo":             {0, (*server).undo},
	"time_settings":    {3, (*server).timeSettings},
	"time_left":        {2, (*server).timeLeft},
	"final_score":      {0, (*server).finalScore},
	"showboard":        {0, (*server).showBoard},
	"gametune-param":   {0, (*server).param},
	"quit":             {0, func(*server, context.Context, []string) (string, error) { return "", nil }},
}

func (s *server) answer(ctx context.Context, c Command) (string, error) {
	h, ok := handlers[c.Name]
	if !ok {
		return "", fmt.Errorf("unknown command %q (see list_commands)", c.Name)
	}
	if len(c.Args) < h.args {
		return "", fmt.Errorf("syntax error: %s needs %d arguments", c.Name, h.args)
	}
	return h.run(s, ctx, c.Args)
}

// version is the program's version (lines.ProgramVersion); name gives
// the program's name.
func (s *server) version(context.Context, []string) (string, error) {
	return lines.ProgramVersion(), nil
}

// komi checks its number and ignores it: Othello has no komi.
func komi(_ *server, _ context.Context, args []string) (string, error) {
	if len(args) > 0 {
		if v, err := strconv.ParseFloat(args[0], 64); err != nil || !(v >= -MaxKomi && v <= MaxKomi) {
			return "", fmt.Errorf("syntax error: komi %q: want a number from %d to %d", args[0], -MaxKomi, MaxKomi)
		}
	}
	return "", nil
}

func knownCommand(_ *server, _ context.Context, args []string) (string, error) {
	for _, k := range Commands {
		if k == args[0] {
			return "true", nil
		}
	}
	return "false", nil
}

func boardSize(_ *server, _ context.Context, args []string) (string, error) {
	if args[0] != "8" {
		return "", errors.New("unacceptable size: Othello is played on 8x8")
	}
	return "", nil
}

func (s *server) clearBoard(context.Context, []string) (string, error) {
	s.pos = s.e.Game().Start()
	s.e.NewGame()
	return "", nil
}

func (s *server) play(_ context.Context, args []string) (string, error) {
	side, err := side(args[0])
	if err != nil {
		return "", err
	}
	p, err := playFor(s.pos, side, args[1])
	if err != nil {
		return "", fmt.Errorf("illegal move: %v", err)
	}
	s.pos = p
	return "", nil
}

// genmove searches for side, within the engine's own limits or, on a
// clock, the time manager's share of side's time, and plays the move.
func (s *server) genmove(ctx context.Context, args []string) (string, error) {
	side, err := side(args[0])
	if err != nil {
		return "", err
	}
	p, err := passUntil(s.pos, side)
	if err != nil {
		return "", err
	}
	var lim games.ThinkLimits
	if s.timed {
		lim = games.ThinkLimits{Clock: true, Left: s.left[side], MovesToGo: s.stones[side]}
		if pacer, ok := p.(games.Pacer); ok && lim.MovesToGo == 0 {
			lim.MovesToGo = pacer.MovesLeft()
		}
	}
	var t games.Thought
	if err := s.e.Think(ctx, p, lim, func(r games.Thought) { t = r }); err != nil {
		return "", err
	}
	s.e.Wait()
	move := t.Position.FormatMove(t.Move)
	p.Play(t.Move)
	s.pos = p
	return strings.ToUpper(move), nil
}

func (s *server) undo(context.Context, []string) (string, error) {
	if s.pos.Ply() == 0 {
		return "", errors.New("cannot undo: no move was played")
	}
	s.pos.Undo()
	return "", nil
}

// timeSettings is time_settings MAIN BYO_YOMI STONES (Canadian byo-yomi,
// whole seconds): each side has MAIN, then BYO_YOMI for each STONES moves.
// MAIN and BYO_YOMI are 0 to MaxClockSeconds, STONES 0 to MaxStones; 0 0
// 0, or byo-yomi with 0 stones, is no time limit (GTP 2).
func (s *server) timeSettings(_ context.Context, args []string) (string, error) {
	main, err1 := wholeNumber(args[0], MaxClockSeconds)
	byo, err2 := wholeNumber(args[1], MaxClockSeconds)
	stones, err3 := wholeNumber(args[2], MaxStones)
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", fmt.Errorf("syntax error: time_settings MAIN BYO_YOMI STONES: %v", err)
	}
	s.timed = main > 0 || (byo > 0 && stones > 0)
	left, togo := time.Duration(main)*time.Second, 0
	if main == 0 && s.timed {
		left, togo = time.Duration(byo)*time.Second, stones
	}
	s.left, s.stones = [2]time.Duration{left, left}, [2]int{togo, togo}
	return "", nil
}

// timeLeft is time_left COLOR TIME [STONES]: the time left to COLOR, 0 to
// MaxClockSeconds seconds, for STONES more moves in byo-yomi (0 to
// MaxStones; 0 or none: in the main time).
func (s *server) timeLeft(_ context.Context, args []string) (string, error) {
	side, err := side(args[0])
	if err != nil {
		return "", err
	}
	secs, err := strconv.ParseFloat(args[1], 64)
	if err != nil || !(secs >= 0 && secs <= MaxClockSeconds) {
		return "", fmt.Errorf("syntax error: time_left COLOR TIME STONES: time %q: want seconds from 0 to %d", args[1], MaxClockSeconds)
	}
	stones := 0
	if len(args) > 2 {
		if stones, err = wholeNumber(args[2], MaxStones); err != nil {
			return "", fmt.Errorf("syntax error: time_left COLOR TIME STONES: %v", err)
		}
	}
	s.timed = true
	s.left[side], s.stones[side] = time.Duration(secs*float64(time.Second)), stones
	return "", nil
}

// wholeNumber reads a whole number from 0 to max.
func wholeNumber(text string, max int) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || n > max {
		return 0, fmt.Errorf("%q: want a whole number from 0 to %d", text, max)
	}
	return n, nil
}

// finalScore is "B+4", "W+2" or "0" by the count of discs (0 for a game
// without a count).
func (s *server) finalScore(context.Context, []string) (string, error) {
	return FinalScore(s.pos), nil
}

func (s *server) showBoard(context.Context, []string) (string, error) {
	if d, ok := s.pos.(games.Drawer); ok {
		return "\n" + strings.TrimRight(d.Draw(), "\n"), nil
	}
	return s.pos.String(), nil
}

// FinalScore is final_score's answer in p: "B+4", "W+2" or "0" by the count
// of each side's pieces (games.DiscCounter), "0" in a game without one.
func FinalScore(p games.Position) string {
	c, ok := p.(games.DiscCounter)
	if !ok {
		return "0"
	}
	b, w := c.Discs()
	switch {
	case b > w:
		return fmt.Sprintf("B+%d", b-w)
	case w > b:
		return fmt.Sprintf("W+%d", w-b)
	}
	return "0"
}

func side(s string) (games.Side, error) {
	black, err := Color(s)
	if err != nil {
		return 0, fmt.Errorf("syntax error: %v", err)
	}
	if black {
		return games.First, nil
	}
	return games.Second, nil
}

// passUntil returns p, or a copy of p in which the side to move has passed
// so that side is to move: controllers may leave a forced pass out
// (games.Passer). Any other turn mismatch is an error.
func passUntil(p games.Position, side games.Side) (games.Position, error) {
	if p.Turn() == side {
		return p, nil
	}
	if _, outcome := p.Moves(nil); outcome != games.Ongoing {
		return nil, fmt.Errorf("the game is over (%s)", outcome)
	}
	if passer, ok := p.(games.Passer); ok {
		if m, ok := passer.ForcedPass(); ok {
			q := p.Clone()
			q.Play(m)
			return q, nil
		}
	}
	return nil, fmt.Errorf("it is %s's turn", ColorName(p.Turn() == games.First))
}

// playFor plays move (in the game's notation) for side on a copy of p,
// after a forced pass of the other side if needed, and returns the copy; p
// is unchanged.
func playFor(p games.Position, side games.Side, move string) (games.Position, error) {
	q, err := passUntil(p, side)
	if err != nil {
		return nil, err
	}
	if q == p {
		q = p.Clone()
	}
	m, err := q.ParseMove(move)
	if err != nil {
		return nil, err
	}
	q.Play(m)
	return q, nil
}

// param is gametune-param, GoGui's form of a parameter command: with no
// arguments it lists the engine's settings, one "[TYPE] NAME VALUE" line
// each ([bool] for a switch, [string] for a number, with its range after
// it); with NAME VALUE it sets one.
func (s *server) param(_ context.Context, args []string) (string, error) {
	params := s.e.Params()
	if len(args) == 0 {
		lines := make([]string, len(params))
		for i, p := range params {
			if p.Check {
				lines[i] = fmt.Sprintf("[bool] %s %d", p.Name, p.Value)
			} else {
				lines[i] = fmt.Sprintf("[string] %s %d (%d to %d)", p.Name, p.Value, p.Min, p.Max)
			}
		}
		return strings.Join(lines, "\n"), nil
	}
	if len(args) != 2 {
		return "", errors.New("syntax error: gametune-param [NAME VALUE]")
	}
	v, err := strconv.Atoi(args[1])
	if err != nil {
		return "", fmt.Errorf("syntax error: gametune-param %s %q: want a whole number", args[0], args[1])
	}
	s.e.Wait()
	return "", s.e.SetParam(args[0], v)
}
