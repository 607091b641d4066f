package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/spf13/cobra"
)

type playOptions struct {
	side      string
	limits    searchLimits
	evaluator string
	weights   string
	position  string
}

func newPlayCommand(g *globalOptions) *cobra.Command {
	var o playOptions
	c := &cobra.Command{
		Use:   "play GAME",
		Short: "Play a game against the engine in the terminal",
		Long: `play lets a person play the engine. Type a move in the game's notation, or:
  moves       list the legal moves (and mark them on the board where the game can)
  undo        take back your last move and the engine's reply
  board       draw the board again
  position    print the position in the game's notation (also: fen)
  save FILE   save the game (start position and moves) to a new file
  load FILE   load a saved game
  help        this list
  quit        leave`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runPlay(c.Context(), c.InOrStdin(), c.OutOrStdout(), args[0], o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.side, "side", "first", "the side you play: first or second")
	o.limits.bind(f, 6)
	f.StringVar(&o.evaluator, "evaluator", "", "engine evaluator (default: the game's first)")
	f.StringVar(&o.weights, "weights", "", "engine weights file (JSON)")
	f.StringVar(&o.position, "position", "", "start from this position (the game's notation)")
	return c
}

const playHelp = `commands: a move in the game's notation, moves, undo, board, position, save FILE, load FILE, help, quit`

// session is one game between a person and the engine.
type session struct {
	g      games.Game
	start  string
	p      games.Position
	played []games.Move
	human  games.Side
	ev     *games.Evaluator
	w      []float64
	s      *engine.Searcher
	limits engine.Limits
	out    io.Writer
}

func runPlay(ctx context.Context, in io.Reader, out io.Writer, gameName string, o playOptions) error {
	g, err := findGame(gameName)
	if err != nil {
		return err
	}
	var human games.Side
	switch o.side {
	case "first":
		human = games.First
	case "second":
		human = games.Second
	default:
		return usageError{fmt.Errorf("play: --side %q: want first or second", o.side)}
	}
	lim, err := o.limits.limits()
	if err != nil {
		return err
	}
	p, err := position(g, o.position)
	if err != nil {
		return err
	}
	ev, w, err := player(g, o.evaluator, o.weights)
	if err != nil {
		return err
	}
	s, err := engine.New(engine.Options{})
	if err != nil {
		return err
	}
	se := &session{g: g, start: p.String(), p: p, human: human, ev: ev, w: w, s: s, limits: lim, out: out}
	fmt.Fprintf(out, "%s: you play %s. %s\n", g.Name(), human, playHelp)
	lines := readCommands(ctx, in)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, outcome := se.p.Moves(nil)
		if outcome == games.Ongoing && se.p.Turn() != se.human {
			if err := se.engineMove(ctx); err != nil {
				return err
			}
			continue
		}
		se.draw()
		if outcome == games.Ongoing {
			if moves, _ := se.p.Moves(nil); len(moves) == 1 && se.p.FormatMove(moves[0]) == "pass" {
				fmt.Fprintln(out, "you have no legal move and pass")
				se.p.Play(moves[0])
				se.played = append(se.played, moves[0])
				continue
			}
		}
		if outcome != games.Ongoing {
			fmt.Fprintf(out, "game over: %s (%s)\n", outcome, se.verdict(outcome))
		}
		fmt.Fprint(out, "> ")
		line, ok, err := nextLine(ctx, lines)
		if err != nil || !ok {
			fmt.Fprintln(out)
			return err
		}
		if line.err != nil {
			fmt.Fprintln(out, line.err)
			continue
		}
		if quit := se.command(strings.TrimSpace(line.text), outcome); quit {
			return nil
		}
	}
}

func (se *session) verdict(o games.Outcome) string {
	w, ok := o.Winner()
	switch {
	case !ok:
		return "draw"
	case w == se.human:
		return "you win"
	}
	return "the engine wins"
}

func (se *session) draw() {
	if d, ok := se.p.(games.Drawer); ok {
		fmt.Fprint(se.out, d.Draw())
		return
	}
	fmt.Fprintf(se.out, "%s (%s to move)\n", se.p, se.p.Turn())
}

func (se *session) engineMove(ctx context.Context) error {
	if len(se.played) == 0 {
		se.s.NewGame()
	}
	res, err := se.s.Search(ctx, se.p, se.ev, se.w, se.limits)
	if err != nil {
		return err
	}
	fmt.Fprintf(se.out, "engine plays %s (score %s)\n", se.p.FormatMove(res.Move), scoreString(res.Score))
	se.p.Play(res.Move)
	se.played = append(se.played, res.Move)
	return nil
}

// command runs one line typed by the person and reports whether to quit.
func (se *session) command(line string, outcome games.Outcome) bool {
	word, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
	case "quit", "exit":
		return true
	case "help", "?":
		fmt.Fprintln(se.out, playHelp)
	case "board":
	case "position", "fen":
		fmt.Fprintln(se.out, se.p.String())
	case "moves", "legal":
		moves, _ := se.p.Moves(nil)
		fmt.Fprintln(se.out, "legal moves:", joinOr(formatEach(se.p, moves), "none"))
		if d, ok := se.p.(interface{ DrawWithMoves() string }); ok {
			fmt.Fprint(se.out, d.DrawWithMoves())
		}
	case "undo":
		se.undo()
	case "save":
		if err := se.save(arg); err != nil {
			fmt.Fprintln(se.out, "cannot save:", err)
		} else {
			fmt.Fprintln(se.out, "saved to", arg)
		}
	case "load":
		if err := se.load(arg); err != nil {
			fmt.Fprintln(se.out, "cannot load:", err)
		}
	default:
		if outcome != games.Ongoing {
			fmt.Fprintln(se.out, "the game is over: undo, load, or quit")
			return false
		}
		m, err := se.p.ParseMove(line)
		if err != nil {
			fmt.Fprintln(se.out, err)
			return false
		}
		se.p.Play(m)
		se.played = append(se.played, m)
	}
	return false
}

func formatEach(p games.Position, moves []games.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = p.FormatMove(m)
	}
	return out
}

// undo takes back plies until it is the person's turn again, one move of
// theirs at least.
func (se *session) undo() {
	if len(se.played) == 0 {
		fmt.Fprintln(se.out, "nothing to undo")
		return
	}
	for len(se.played) > 0 {
		se.p.Undo()
		se.played = se.played[:len(se.played)-1]
		if se.p.Turn() == se.human {
			break
		}
	}
	if se.p.Turn() != se.human {
		fmt.Fprintln(se.out, "back to the start: the engine moves first")
	}
}

// save writes the game as its start position and one move per line; it
// never overwrites a file.
func (se *session) save(path string) error {
	if path == "" {
		return errors.New("save FILE: a file name is needed")
	}
	var b strings.Builder
	q, err := se.g.ParsePosition(se.start)
	if err != nil {
		return err
	}
	moves := formatLine(q, se.played)
	if rec, ok := se.g.(games.Recorder); ok {
		// The game's own record format (PGN, PDN, GGF), which other
		// programs read and load reads back.
		_, outcome := se.p.Moves(nil)
		you, engine := "you", "gametune"
		if se.human == games.Second {
			you, engine = engine, you
		}
		if err := rec.WriteGame(&b, [][2]string{{games.TagFirst, you}, {games.TagSecond, engine}}, se.start, moves, outcome); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&b, "game %s\nstart %s\n", se.g.Name(), se.start)
		for _, line := range moves {
			fmt.Fprintln(&b, line)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists; choose a new name", path)
		}
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// load replays a saved game, checking every move.
func (se *session) load(path string) error {
	data, err := readUserFile(path)
	if err != nil {
		return err
	}
	start, p, played, err := parseSavedGame(se.g, data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	se.start, se.p, se.played = start, p, played
	se.s.NewGame()
	return nil
}

// maxSavedPlies bounds the moves of a saved game: longer than any game
// gametune plays (their ply cap is at most 10000).
const maxSavedPlies = 10000

// parseSavedGame reads a game written by save: the game's record format
// where it has one (PGN, PDN, GGF: the first game of the file), else "game
// NAME", "start POSITION", then one move a line; every move is checked.
func parseSavedGame(g games.Game, data []byte) (string, games.Position, []games.Move, error) {
	if reader, ok := g.(games.RecordReader); ok && !strings.HasPrefix(strings.TrimSpace(string(data)), "game ") {
		recs, err := reader.ReadGames(data)
		if err != nil {
			return "", nil, nil, err
		}
		if len(recs[0].Moves) > maxSavedPlies {
			return "", nil, nil, fmt.Errorf("%d moves: a saved game holds at most %d", len(recs[0].Moves), maxSavedPlies)
		}
		p, played, err := recs[0].Replay(g)
		if err != nil {
			return "", nil, nil, err
		}
		return recs[0].Start, p, played, nil
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "game ") || !strings.HasPrefix(lines[1], "start ") {
		return "", nil, nil, errors.New(`not a saved game (want lines "game NAME", "start POSITION", then one move a line)`)
	}
	if name := strings.TrimSpace(lines[0][5:]); name != g.Name() {
		return "", nil, nil, fmt.Errorf("a game of %q, not %s", name, g.Name())
	}
	if len(lines)-2 > maxSavedPlies {
		return "", nil, nil, fmt.Errorf("%d moves: a saved game holds at most %d", len(lines)-2, maxSavedPlies)
	}
	start := strings.TrimSpace(lines[1][6:])
	p, err := g.ParsePosition(start)
	if err != nil {
		return "", nil, nil, err
	}
	var played []games.Move
	var buf []games.Move
	for i, line := range lines[2:] {
		moves, outcome := p.Moves(buf)
		buf = moves
		if outcome != games.Ongoing {
			return "", nil, nil, fmt.Errorf("move %d (%q): the game is over (%s)", i+1, strings.TrimSpace(line), outcome)
		}
		m, err := p.ParseMove(strings.TrimSpace(line))
		if err != nil {
			return "", nil, nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		p.Play(m)
		played = append(played, m)
	}
	return start, p, played, nil
}
