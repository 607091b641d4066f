package external

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/protocol/xboard"
	"github.com/gametune/gametune/tournament"
)

// xboardEngine is what a mover knows of an xboard engine: the features it
// announced, its options, and the state of the game it was told.
type xboardEngine struct {
	features xboard.Features
	options  map[string]xboard.Option // by lower-case name, memory and cores among them when offered
	forced   bool                     // in force mode: it plays neither side
	playing  bool                     // out of force mode since its last move: it plays the side on move after the next move told
	claim    string                   // a draw claimed before its move, which that move must bear out
	told     map[string]bool          // the moves told for the move asked, as written
	pings    int                      // the last ping's number
	games    int                      // games begun in the process
}

// protover1Wait is how long an engine has to answer "protover 2" with a
// feature command before it is taken for a version 1 engine: cutechess's
// 8 s (xboard's 2 s is too short for gnuchess, which loads its book for
// about 2 s before it says anything), or the handshake's time when
// shorter (stall=); after feature done=0 it has the handshake's time.
// The tests shorten it.
var protover1Wait = 8 * time.Second

// Timing of the handshake and of the start of a game.
const (
	// nudgeAfter is how long an engine may stay silent after protover 2
	// before it is sent xboard and protover 2 again, restartAfter before
	// it is started again (greetXboard).
	nudgeAfter   = time.Second
	restartAfter = 3 * time.Second
	// quietWait is how long the output of an engine without ping must be
	// quiet at the start of a game, so that what it wrote at the end of
	// the last one is not read as this one's.
	quietWait = 200 * time.Millisecond
	// dayOfCentiseconds is the clock an engine is told before each move
	// when it plays to a depth: a day, so that its own time control never
	// cuts the search.
	dayOfCentiseconds = "8640000"
)

// greetXboard starts CECP: xboard and protover 2, then the features the
// engine announces, each answered accepted or rejected, up to done=1 (or,
// from an engine that says nothing for protover1Wait, none: version 1).
// An engine that has said nothing at all is sent xboard and protover 2
// again every nudgeAfter, and started again after restartAfter: gnuchess
// loses what it reads in its first moments about half the time, and until
// it reads xboard its output is never flushed. An engine that does not
// play normal chess, lacks an option of the spec or cannot take its limit
// is an ErrSpec error.
func (x *mover) greetXboard(ctx context.Context) error {
	x.xb = &xboardEngine{features: xboard.DefaultFeatures()}
	if err := x.proc.send("xboard", "protover 2"); err != nil {
		return err
	}
	started := time.Now()
	deadline := started.Add(min(protover1Wait, x.handshake()))
	nudge, heard, attempt := started.Add(nudgeAfter), false, started
	for x.xb.features.Done != 1 {
		wait := deadline
		if !heard && nudge.Before(wait) {
			wait = nudge
		}
		l, err := x.proc.readLine(ctx, wait, time.Until(deadline), "waiting for feature done=1")
		var f *tournament.Fault
		stalled := errors.As(err, &f) && f.Reason == tournament.ByStall
		switch {
		case stalled && !heard && wait.Equal(nudge):
			if time.Since(attempt) >= restartAfter {
				if err := x.restart(); err != nil {
					return err
				}
				attempt = time.Now()
			}
			nudge = time.Now().Add(nudgeAfter)
			if err := x.proc.send("xboard", "protover 2"); err != nil {
				return err
			}
			continue
		case stalled && x.xb.features.Done != 0:
			return x.checkXboard() // version 1, or features without done=1: xboard's rule
		case err != nil:
			return err
		}
		heard = true
		o, _ := xboard.ParseOutput(l)
		if o.Kind == xboard.FeatureLine {
			if err := x.answerFeatures(o.Features); err != nil {
				return err
			}
			if x.xb.features.Done == 0 {
				deadline = started.Add(x.handshake())
			}
		}
	}
	return x.checkXboard()
}

// restart ends the engine's process and starts it again.
func (x *mover) restart() error {
	x.proc.kill()
	<-x.proc.done
	p, err := startProcess(&x.spec, x.log)
	if err != nil {
		return err
	}
	x.proc = p
	return nil
}

// answerFeatures answers each feature: accepted or rejected.
func (x *mover) answerFeatures(fs []xboard.Feature) error {
	for _, f := range fs {
		answer := "rejected "
		if x.xb.features.Set(f) {
			answer = "accepted "
		}
		if err := x.proc.send(answer + f.Name); err != nil {
			return err
		}
	}
	if n := len(x.xb.features.Options); n > maxListed {
		return crash(fmt.Sprintf("listed more than %d options", maxListed))
	}
	return nil
}

// checkXboard checks the engine's features against the spec and lists
// its options (x.listed) for setOptions.
func (x *mover) checkXboard() error {
	fs := &x.xb.features
	if !fs.PlaysNormal() {
		return fmt.Errorf("%w: %s plays the variants %s, not normal chess", ErrSpec, x.spec.Name, strings.Join(fs.Variants, ","))
	}
	if x.spec.Nodes > 0 && !fs.NPS {
		return fmt.Errorf("%w: %s takes no node limit (it did not offer feature nps=1): give depth=, movetime= or tc=", ErrSpec, x.spec.Name)
	}
	x.xb.options = map[string]xboard.Option{}
	for _, o := range fs.Options {
		x.xb.options[strings.ToLower(o.Name)] = o
	}
	if fs.Memory {
		x.xb.options["memory"] = xboard.Option{Name: "memory", Type: "spin", Min: 1, Max: 1 << 30}
	}
	if fs.SMP {
		x.xb.options["cores"] = xboard.Option{Name: "cores", Type: "spin", Min: 1, Max: 1 << 16}
	}
	x.listed, x.set = map[string]uci.Option{}, map[string]string{}
	for k, o := range x.xb.options {
		x.listed[k] = uci.Option{Name: o.Name, Type: o.Type, Default: o.Default}
	}
	for _, o := range x.spec.Options {
		if _, ok := x.listed[strings.ToLower(o.Name)]; !ok {
			names := make([]string, 0, len(x.listed))
			for _, l := range x.listed {
				names = append(names, l.Name)
			}
			sort.Strings(names)
			return fmt.Errorf("%w: %s lists no option %q (it lists: %s)", ErrSpec, x.spec.Name, o.Name, strings.Join(names, ", "))
		}
	}
	return nil
}

// optionXboard is xboard's line that sets an option: memory N, cores N,
// or option NAME=VALUE.
func (x *mover) optionXboard(name, value string) (string, error) {
	k := strings.ToLower(name)
	line, err := x.xb.options[k].Command(value)
	if err != nil {
		return "", err
	}
	if k == "memory" && x.xb.features.Memory || k == "cores" && x.xb.features.SMP {
		return k + " " + value, nil
	}
	return line, nil
}

// newGameXboard sets the engine's options, starts its game (new, force),
// sets up the opening's position (setboard, or edit where it is not
// offered), its limit (level, st, sd or nps) and post and easy, then waits
// for the engine to catch up: ping and pong, or quiet output.
func (x *mover) newGameXboard(ctx context.Context, g games.Game) error {
	if err := x.setOptions(x.optionXboard); err != nil {
		return err
	}
	lines := []string{"new", "force"}
	x.xb.forced, x.xb.playing, x.xb.claim = true, false, ""
	if x.startText != "" {
		setup, err := x.setUpXboard(g)
		if err != nil {
			return err
		}
		lines = append(lines, setup...)
	}
	switch {
	case x.spec.TC != nil:
		lines = append(lines, xboard.Level{Moves: x.spec.TC.Moves, Base: x.spec.TC.Base, Increment: x.spec.TC.Increment}.String())
	case x.spec.MoveTime > 0:
		lines = append(lines, fmt.Sprintf("st %d", x.spec.MoveTime/time.Second))
	case x.spec.Depth > 0:
		lines = append(lines, fmt.Sprintf("sd %d", x.spec.Depth))
	case x.spec.Nodes > 0:
		lines = append(lines, "st 1", fmt.Sprintf("nps %d", x.spec.Nodes))
	}
	if err := x.proc.send(append(lines, "post", "easy")...); err != nil {
		return err
	}
	x.xb.games++
	return x.syncXboard(ctx)
}

// setUpXboard writes the commands that set up the opening's position:
// setboard FEN, or where the engine did not offer it, edit: the pieces of
// the FEN, after a2a3 when black is on move (as xboard does it; the
// engine then assumes castling wherever king and rook stand at home, and
// no en-passant capture).
func (x *mover) setUpXboard(g games.Game) ([]string, error) {
	fen := x.replay.String() // the opening's FEN, all six fields
	if x.xb.features.SetBoard {
		return []string{"setboard " + fen}, nil
	}
	f := strings.Fields(fen)
	var out []string
	if f[1] == "b" {
		start := g.Start()
		m, err := start.ParseMove("a2a3")
		if err != nil {
			return nil, err
		}
		out = append(out, x.moveCommand(start, m))
	}
	white, black := editPieces(f[0])
	out = append(append(append(out, "edit", "#"), white...), "c")
	return append(append(out, black...), "."), nil
}

// editPieces lists the pieces of a FEN's board in edit's form (Pe2),
// white's and black's.
func editPieces(board string) (white, black []string) {
	rank, file := 7, 0
	for _, c := range board {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			sq := fmt.Sprintf("%c%c", 'a'+rune(file), '1'+rune(rank))
			if c >= 'a' && c <= 'z' {
				black = append(black, strings.ToUpper(string(c))+sq)
			} else {
				white = append(white, string(c)+sq)
			}
			file++
		}
	}
	return white, black
}

// syncXboard waits until the engine has read the commands sent: its pong
// to a new ping, or for an engine without ping quiet output (after its
// first game). Feature commands are answered; other lines, such as what
// it said at the end of the last game, are passed over.
func (x *mover) syncXboard(ctx context.Context) error {
	if !x.xb.features.Ping && x.xb.games <= 1 {
		return nil
	}
	deadline := time.Now().Add(x.handshake())
	if x.xb.features.Ping {
		x.xb.pings++
		if err := x.proc.send(fmt.Sprintf("ping %d", x.xb.pings)); err != nil {
			return err
		}
	}
	for {
		wait, what := deadline, fmt.Sprintf("waiting for pong %d", x.xb.pings)
		if !x.xb.features.Ping {
			wait, what = time.Now().Add(quietWait), "waiting for quiet output"
			if wait.After(deadline) {
				wait = deadline
			}
		}
		l, err := x.proc.readLine(ctx, wait, time.Until(wait), what)
		var f *tournament.Fault
		if !x.xb.features.Ping && errors.As(err, &f) && f.Reason == tournament.ByStall && time.Now().Before(deadline) {
			return nil
		}
		if err != nil {
			return err
		}
		o, _ := xboard.ParseOutput(l)
		switch {
		case o.Kind == xboard.PongLine && o.Pong == x.xb.pings && x.xb.features.Ping:
			return nil
		case o.Kind == xboard.FeatureLine:
			if err := x.answerFeatures(o.Features); err != nil {
				return err
			}
		}
	}
}

// moveCommand is the line that tells the engine move m of p: in SAN when
// it asked for it, else in coordinates, after "usermove" when it asked
// for that.
func (x *mover) moveCommand(p games.Position, m games.Move) string {
	text := p.FormatMove(m)
	if u, ok := p.(games.UCIFormatter); ok && !x.xb.features.SAN {
		text = u.UCI(m)
	}
	if x.xb.features.UserMove {
		return "usermove " + text
	}
	return text
}
