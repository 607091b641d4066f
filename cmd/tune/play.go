package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
	"github.com/spf13/cobra"
)

type playOptions struct {
	game   string
	side   string
	engine engineFlags
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
			o.game = args[0]
			return runPlay(c.Context(), o, *g, outputOf(c))
		},
	}
	c.Flags().StringVar(&o.side, "side", "first", "the side you play: first or second")
	o.engine.bind(c.Flags(), withPosition|withPlayer|withLimits)
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

func runPlay(ctx context.Context, o playOptions, _ globalOptions, out output) error {
	s, err := o.engine.resolve(o.game)
	if err != nil {
		return err
	}
	human := games.First
	switch o.side {
	case "first":
	case "second":
		human = games.Second
	default:
		return usageError{fmt.Errorf("play: --side %q: want first or second", o.side)}
	}
	searcher, err := engine.New(engine.Options{})
	if err != nil {
		return err
	}
	se := &session{g: s.game, start: s.pos.String(), p: s.pos, human: human, ev: s.ev, w: s.w, s: searcher, limits: s.lim, out: out.Stdout}
	fmt.Fprintf(out.Stdout, "%s: you play %s. %s\n", s.game.Name(), human, playHelp)
	return se.loop(ctx, lines.NewReader(ctx, out.In))
}

// loop plays the engine's moves and the person's until quit or the end of
// the input.
func (se *session) loop(ctx context.Context, in *lines.Reader) error {
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
		if outcome == games.Ongoing && se.forcedPass() {
			continue
		}
		if outcome != games.Ongoing {
			fmt.Fprintf(se.out, "game over: %s (%s)\n", outcome, se.verdict(outcome))
		}
		fmt.Fprint(se.out, "> ")
		text, err := in.Next(ctx)
		if errors.Is(err, lines.ErrTooLong) {
			fmt.Fprintln(se.out, err)
			continue
		}
		if err != nil {
			fmt.Fprintln(se.out)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if quit := se.command(strings.TrimSpace(text), outcome); quit {
			return nil
		}
	}
}

// forcedPass plays the person's pass when it is their only move.
func (se *session) forcedPass() bool {
	passer, ok := se.p.(games.Passer)
	if !ok {
		return false
	}
	m, ok := passer.ForcedPass()
	if ok {
		fmt.Fprintln(se.out, "you have no legal move and pass")
		se.p.Play(m)
		se.played = append(se.played, m)
	}
	return ok
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
	case "", "board":
	case "quit", "exit":
		return true
	case "help", "?":
		fmt.Fprintln(se.out, playHelp)
	case "position", "fen":
		fmt.Fprintln(se.out, se.p.String())
	case "moves", "legal":
		se.listMoves()
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
		se.move(line, outcome)
	}
	return false
}

// move plays the person's move.
func (se *session) move(text string, outcome games.Outcome) {
	if outcome != games.Ongoing {
		fmt.Fprintln(se.out, "the game is over: undo, load, or quit")
		return
	}
	m, err := se.p.ParseMove(text)
	if err != nil {
		fmt.Fprintln(se.out, err)
		return
	}
	se.p.Play(m)
	se.played = append(se.played, m)
}

// listMoves prints the legal moves, and marks them on the board where the
// game can.
func (se *session) listMoves() {
	moves, _ := se.p.Moves(nil)
	each := make([]string, len(moves))
	for i, m := range moves {
		each[i] = se.p.FormatMove(m)
	}
	fmt.Fprintln(se.out, "legal moves:", joinOr(each, "none"))
	if d, ok := se.p.(games.MoveDrawer); ok {
		fmt.Fprint(se.out, d.DrawWithMoves())
	}
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

// save writes the game to a new file, as games.WriteSaved writes it; it
// never overwrites a file.
func (se *session) save(path string) error {
	if path == "" {
		return errors.New("save FILE: a file name is needed")
	}
	first, second := "you", "gametune"
	if se.human == games.Second {
		first, second = second, first
	}
	var b bytes.Buffer
	if err := games.WriteSaved(&b, se.g, se.start, se.played, first, second); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists; choose a new name", path)
		}
		return err
	}
	if _, err := f.Write(b.Bytes()); err != nil {
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
	start, p, played, err := games.ReadSaved(se.g, data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	se.start, se.p, se.played = start, p, played
	se.s.NewGame()
	return nil
}
