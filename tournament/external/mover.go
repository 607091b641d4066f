package external

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/tournament"
)

// mover is an engine process as a tournament.Mover. It keeps its process
// between games (a fresh one for each game with Restart), starts it again
// after a crash or a stall, and kills it on Close.
type mover struct {
	spec Spec // the player of the current game: its options and limits
	log  io.Writer
	proc *process

	listed map[string]uci.Option // UCI, xboard, GTP: the options the engine listed, by lower-case name
	set    map[string]string     // UCI, xboard, GTP: the values set, by lower-case name
	param  string                // GTP: the engine's parameter command, when options are set
	xb     *xboardEngine         // xboard: its features and the game's state

	replay    games.Position // the game as the engine was told it
	startText string
	told      []string // UCI: the moves told, in UCI notation
	synced    int      // moves of the game replayed
}

// crash, stall and illegal are the faults that lose a game.
func crash(detail string) error   { return fault(tournament.ByCrash, detail) }
func stall(detail string) error   { return fault(tournament.ByStall, detail) }
func illegal(detail string) error { return fault(tournament.ByIllegal, detail) }

// maxDetail is the longest detail of a Fault: the engine's text it quotes
// is cut.
const maxDetail = 400

// fault is a Fault whose detail is one line (control characters written
// \xNN) of at most maxDetail bytes.
func fault(reason tournament.Reason, detail string) error {
	detail = sanitize(detail)
	if len(detail) > maxDetail {
		detail = strings.ToValidUTF8(detail[:maxDetail], "") + "..."
	}
	return &tournament.Fault{Reason: reason, Detail: detail}
}

// handshake is how long the engine may take to answer a command that
// needs no thought (uci, isready, GTP's commands): the spec's stall= when
// given (longer on a machine so busy that an engine takes more than 10 s
// to start), defaultHandshake otherwise.
func (x *mover) handshake() time.Duration {
	if x.spec.Stall > 0 {
		return x.spec.Stall
	}
	return defaultHandshake
}

// maxListed is the most options an engine may list: more is a crash
// Fault.
const maxListed = 1000

// start starts the process and greets it: uci/uciok (the options listed),
// xboard's protover 2 and features, or GTP's protocol_version. Unknown
// options are an ErrSpec error.
func (x *mover) start(ctx context.Context) error {
	p, err := startProcess(&x.spec, x.log)
	if err != nil {
		return err
	}
	x.proc = p
	switch x.spec.Protocol {
	case ProtocolGTP:
		if _, err := x.gtp(ctx, "protocol_version", x.handshake()); err != nil {
			return err
		}
		return x.greetGTPParams(ctx)
	case ProtocolXboard:
		return x.greetXboard(ctx)
	}
	return x.greetUCI(ctx)
}

// greetUCI sends uci and reads the options the engine lists up to uciok;
// the spec's options must be among them.
func (x *mover) greetUCI(ctx context.Context) error {
	x.listed, x.set = map[string]uci.Option{}, map[string]string{}
	if err := x.proc.send("uci"); err != nil {
		return err
	}
	deadline := time.Now().Add(x.handshake())
	for {
		l, err := x.proc.readLine(ctx, deadline, x.handshake(), "waiting for uciok")
		if err != nil {
			return err
		}
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "uciok" {
			break
		}
		if len(f) > 0 && f[0] == "option" {
			if o, err := uci.ParseOption(f[1:]); err == nil {
				x.listed[strings.ToLower(o.Name)] = o
			}
			if len(x.listed) > maxListed {
				return crash(fmt.Sprintf("listed more than %d options", maxListed))
			}
		}
	}
	return x.checkListed()
}

// checkListed refuses a spec that sets an option the engine did not list
// (x.listed, by lower-case name), naming those it lists.
func (x *mover) checkListed() error {
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

// stop ends the process: quit, then its group killed.
func (x *mover) stop() {
	if x.proc == nil {
		return
	}
	x.proc.close("quit")
	x.proc = nil
}

// Close ends the engine process.
func (x *mover) Close() error {
	x.stop()
	return nil
}

// fail stops a process that broke (so that it stops searching at once)
// and passes err on. A Fault's detail gains the last line of the engine's
// stderr, and is written to the engines' log. A verdict (a resignation, a
// false claim) is logged and leaves the process running.
func (x *mover) fail(err error) error {
	var v verdict
	if errors.As(err, &v) && x.proc != nil {
		x.proc.stderr.note(fmt.Sprintf("%s [%s: the game is lost]", v.f.Detail, v.f.Reason))
		return err // the engine goes on to the next game
	}
	var f *tournament.Fault
	fault := errors.As(err, &f)
	if !fault && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) || x.proc == nil {
		return err
	}
	x.proc.kill()
	<-x.proc.done
	if fault {
		if l := x.proc.stderr.lastLine(); l != "" {
			f.Detail += "; its stderr ends " + l
		}
		x.proc.stderr.note(fmt.Sprintf("%s [%s: the game is lost]", f.Detail, f.Reason))
	}
	x.proc = nil
	return err
}

// NewGame starts a game as s.Player, whose Engine must be a Spec of the
// mover's key: the process is started if it is not running (or started
// again with Restart), and told the player's options and the new game.
func (x *mover) NewGame(ctx context.Context, s tournament.Start) error {
	spec, ok := specOf(s.Player.Engine)
	if !ok || spec.Key() != x.spec.Key() {
		return fmt.Errorf("external: player %q is not an engine of this mover's process", s.Player.Name)
	}
	x.spec = spec
	if x.spec.Restart || x.xb != nil && !x.xb.features.Reuse {
		x.stop() // an xboard engine's feature reuse=0 asks for a process a game
	}
	if x.proc == nil {
		if err := x.start(ctx); err != nil {
			return x.fail(err)
		}
	}
	x.proc.stderr.newGame()
	x.replay, x.startText, x.told, x.synced = s.Position, s.Notation, x.told[:0], 0
	switch x.spec.Protocol {
	case ProtocolGTP:
		return x.newGameGTP(ctx)
	case ProtocolXboard:
		return x.fail(x.newGameXboard(ctx, s.Game))
	}
	if err := x.setOptions(setOptionUCI); err != nil {
		return x.fail(err)
	}
	if err := x.proc.send("ucinewgame", "isready"); err != nil {
		return x.fail(err)
	}
	return x.fail(x.expect(ctx, "readyok", x.handshake()))
}

// specOf is the Spec an engine is, by value or by pointer.
func specOf(e tournament.Engine) (Spec, bool) {
	switch s := e.(type) {
	case Spec:
		return s, true
	case *Spec:
		if s != nil {
			return *s, true
		}
	}
	return Spec{}, false
}

// Move asks the engine for its move within the time it has: its clock or
// its movetime, with the margin and a second, or the stall time.
func (x *mover) Move(ctx context.Context, t tournament.Turn) (tournament.Reply, error) {
	if x.proc == nil {
		return tournament.Reply{}, crash("the engine is not running")
	}
	budget := x.spec.Stall
	if budget == 0 {
		budget = defaultStall
	}
	margin := x.spec.TimeMargin
	if margin == 0 {
		margin = tournament.DefaultTimeMargin
	}
	switch {
	case t.Clock.Timed:
		budget = t.Clock.Left[t.Position.Turn()] + margin + time.Second
	case x.spec.MoveTime > 0:
		budget = x.spec.MoveTime + margin + time.Second
	}
	var r tournament.Reply
	var err error
	switch x.spec.Protocol {
	case ProtocolUCI:
		r, err = x.moveUCI(ctx, t, budget)
	case ProtocolXboard:
		r, err = x.moveXboard(ctx, t, budget)
	default:
		r, err = x.moveGTP(ctx, t, budget)
	}
	return r, x.fail(err)
}

// catchUp replays the moves of t the engine's copy lacks, calling tell for
// each with the position before it.
func (x *mover) catchUp(t tournament.Turn, tell func(p games.Position, m games.Move) error) error {
	for ; x.synced < len(t.Moves); x.synced++ {
		m := t.Moves[x.synced]
		if err := tell(x.replay, m); err != nil {
			return err
		}
		x.replay.Play(m)
	}
	return nil
}

// Check checks an external engine before any game: the command
// (Spec.CheckCommand), then a process started, greeted and its options
// compared with the ones the engine lists, then closed. Errors the user
// must fix wrap ErrSpec.
func Check(ctx context.Context, g games.Game, e Spec, log io.Writer) error {
	if err := e.CheckCommand(g.Name()); err != nil {
		return err
	}
	x := &mover{spec: e, log: log}
	defer x.Close()
	err := x.fail(x.start(ctx))
	var f *tournament.Fault
	if errors.As(err, &f) {
		return fmt.Errorf("%w: %s did not start as a %s engine: %v", ErrSpec, e.Name, e.Protocol, err)
	}
	return err
}
