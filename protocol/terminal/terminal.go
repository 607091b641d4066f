// Package terminal is the text protocol of a person playing the engine at
// a terminal (`tune play`): moves in the game's notation, and the commands
// of Help. Serve plays the engine's moves through the small Engine
// interface it declares, as the protocol servers beside it do.
package terminal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Help lists what a person may type.
const Help = `commands: a move in the game's notation, moves, undo, board, position, save FILE, load FILE, help, quit`

// Engine is what Serve needs of an engine (engine/thinker's Thinker is
// one): a search within its own limits, whose report Wait waits for.
type Engine interface {
	Game() games.Game
	NewGame()
	Think(ctx context.Context, p games.Position, lim games.ThinkLimits, report func(games.Thought)) error
	Wait()
}

// Options are a game's setting.
type Options struct {
	Start games.Position // the start position; nil: the game's
	Human games.Side     // the side the person plays
	// ReadFile reads a saved game the person names (load); nil: os.ReadFile.
	ReadFile func(path string) ([]byte, error)
}

// session is one game between a person and the engine.
type session struct {
	e        Engine
	g        games.Game
	start    string
	p        games.Position
	played   []games.Move
	human    games.Side
	readFile func(string) ([]byte, error)
	out      io.Writer
}

// Serve plays one game (or several, with load) between the engine and the
// person whose lines come from r, writing the boards and answers on w, until
// quit, the end of r (Serve returns nil) or the end of ctx (its error).
func Serve(ctx context.Context, r io.Reader, w io.Writer, e Engine, o Options) error {
	se := &session{e: e, g: e.Game(), p: o.Start, human: o.Human, readFile: o.ReadFile, out: w}
	if se.p == nil {
		se.p = se.g.Start()
	}
	if se.readFile == nil {
		se.readFile = os.ReadFile
	}
	se.start = se.p.String()
	fmt.Fprintf(w, "%s: you play %s. %s\n", se.g.Name(), se.human, Help)
	return se.loop(ctx, lines.NewReader(ctx, r))
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

// engineMove searches the engine's move and plays it.
func (se *session) engineMove(ctx context.Context) error {
	if len(se.played) == 0 {
		se.e.NewGame()
	}
	var t games.Thought
	if err := se.e.Think(ctx, se.p, games.ThinkLimits{}, func(r games.Thought) { t = r }); err != nil {
		return err
	}
	se.e.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(se.out, "engine plays %s (score %s)\n", se.p.FormatMove(t.Move), score(t))
	se.p.Play(t.Move)
	se.played = append(se.played, t.Move)
	return nil
}

// score writes a search's score, or "win in N" / "loss in N" plies.
func score(t games.Thought) string {
	switch {
	case t.EndPlies > 0:
		return fmt.Sprintf("win in %d plies", t.EndPlies)
	case t.EndPlies < 0:
		return fmt.Sprintf("loss in %d plies", -t.EndPlies)
	}
	return fmt.Sprintf("%+d", t.Score)
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
		fmt.Fprintln(se.out, Help)
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
	if len(each) == 0 {
		each = []string{"none"}
	}
	fmt.Fprintln(se.out, "legal moves:", strings.Join(each, " "))
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
	data, err := se.readFile(path)
	if err != nil {
		return err
	}
	start, p, played, err := games.ReadSaved(se.g, data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	se.start, se.p, se.played = start, p, played
	se.e.NewGame()
	return nil
}
