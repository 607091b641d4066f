package external

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/tournament"
)

// newGameGTP clears the engine's board and sets its clock. GTP cannot set
// up a position: a game must start from the game's start.
func (x *mover) newGameGTP(ctx context.Context) error {
	if x.startText != "" {
		return fmt.Errorf("%w: %s: GTP cannot set up the opening %q; give openings as moves (random:N openings are)", ErrSpec, x.spec.Name, x.startText)
	}
	if _, err := x.gtp(ctx, "clear_board", x.handshake()); err != nil {
		return x.fail(err)
	}
	if x.param != "" {
		command := func(name, value string) (string, error) { return x.param + " " + name + " " + value, nil }
		send := func(line string) error { _, err := x.gtp(ctx, line, x.handshake()); return err }
		if err := x.setOptionsBy(command, send); err != nil {
			return x.fail(err)
		}
	}
	if tc := x.spec.TC; tc != nil {
		cmd := fmt.Sprintf("time_settings %d 0 0", int(tc.Base.Seconds()))
		if _, err := x.gtp(ctx, cmd, x.handshake()); err != nil {
			return x.fail(err)
		}
	}
	return nil
}

// maxAnswer is the longest GTP answer an engine may give: more is a
// crash Fault.
const maxAnswer = 64 << 10

// gtp sends one GTP command and reads its response; "? ..." is a crash
// Fault (the engine refused what the referee knows is right).
func (x *mover) gtp(ctx context.Context, command string, timeout time.Duration) (string, error) {
	if err := x.proc.send(command); err != nil {
		return "", err
	}
	deadline := time.Now().Add(timeout)
	var text []string
	size := 0
	for {
		l, err := x.proc.readLine(ctx, deadline, timeout, "answering "+command)
		if err != nil {
			return "", err
		}
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" {
			if len(text) == 0 {
				continue
			}
			break
		}
		if size += len(l) + 1; size > maxAnswer {
			return "", crash(fmt.Sprintf("answer to %s longer than %d bytes", command, maxAnswer))
		}
		text = append(text, l)
	}
	r, err := gtp.ParseResponse(strings.Join(text, "\n"))
	if err != nil {
		return "", crash(fmt.Sprintf("answering %s: %v", command, err))
	}
	if r.Error {
		return "", crash(fmt.Sprintf("refused %q: %s", command, r.Text))
	}
	return strings.TrimSpace(r.Text), nil
}

// moveGTP tells the engine the moves it lacks (play), its time left
// (time_left) and asks for its move (genmove). A forced pass is neither
// told nor asked for.
func (x *mover) moveGTP(ctx context.Context, t tournament.Turn, budget time.Duration) (tournament.Reply, error) {
	colour := func(s games.Side) string { return gtp.ColorName(s == games.First) }
	err := x.catchUp(t, func(p games.Position, m games.Move) error {
		s := p.FormatMove(m)
		if gtp.IsPass(s) {
			return nil // engines pass by themselves; gtp-rhino refuses "play COLOUR pass"
		}
		_, err := x.gtp(ctx, "play "+colour(p.Turn())+" "+s, x.handshake())
		return err
	})
	if err != nil {
		return tournament.Reply{}, err
	}
	moves, _ := t.Position.Moves(nil)
	if len(moves) == 1 && gtp.IsPass(t.Position.FormatMove(moves[0])) {
		x.synced++ // a forced pass is neither asked for nor told
		x.replay.Play(moves[0])
		return tournament.Reply{Move: moves[0]}, nil
	}
	side := t.Position.Turn()
	if t.Clock.Timed {
		secs := strconv.FormatFloat(t.Clock.Left[side].Seconds(), 'f', 0, 64)
		if _, err := x.gtp(ctx, "time_left "+colour(side)+" "+secs+" 0", x.handshake()); err != nil {
			return tournament.Reply{}, err
		}
	}
	text, err := x.gtp(ctx, "genmove "+colour(side), budget)
	if err != nil {
		return tournament.Reply{}, err
	}
	m, err := tournament.ParseLegal(t.Position, strings.ToLower(text))
	if err != nil {
		return tournament.Reply{}, illegal(fmt.Sprintf("genmove answered %q in %s: %v", text, t.Position.String(), err))
	}
	x.synced++ // the engine played it on its own board
	x.replay.Play(m)
	return tournament.Reply{Move: m}, nil
}

// greetGTPParams finds, when the spec sets options, the engine's
// parameter command in GoGui's form (gametune-param, or the one command it
// lists whose name ends in "param"): without arguments it lists the
// engine's settings, one "[TYPE] NAME VALUE" line each, which are the
// options the spec may set (x.listed, the value its default); with NAME
// VALUE it sets one.
func (x *mover) greetGTPParams(ctx context.Context) error {
	x.listed, x.set, x.param = map[string]uci.Option{}, map[string]string{}, ""
	if len(x.spec.Options) == 0 {
		return nil
	}
	text, err := x.gtp(ctx, "list_commands", x.handshake())
	if err != nil {
		return err
	}
	var found []string
	for _, c := range strings.Fields(text) {
		if c == "gametune-param" {
			found = []string{c}
			break
		}
		if strings.HasSuffix(c, "param") {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		lists := "none"
		if len(found) > 1 {
			lists = strings.Join(found, ", ")
		}
		return fmt.Errorf("%w: %s: option.%s needs a GTP parameter command in GoGui's form (gametune-param, or one command "+
			"whose name ends in \"param\"); the engine lists %s", ErrSpec, x.spec.Name, x.spec.Options[0].Name, lists)
	}
	x.param = found[0]
	if text, err = x.gtp(ctx, x.param, x.handshake()); err != nil {
		return err
	}
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && strings.HasPrefix(f[0], "[") && len(x.listed) < maxListed {
			x.listed[strings.ToLower(f[1])] = uci.Option{Name: f[1], Type: strings.Trim(f[0], "[]"), Default: f[2]}
		}
	}
	return x.checkListed()
}
