package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/protocol/uci"
)

// external is an engine process as a Mover. It keeps its process between
// games (a fresh one for each game with Restart), starts it again after a
// crash or a stall, and kills it on Close.
type external struct {
	spec EngineSpec // the player of the current game: its options and limits
	log  io.Writer
	proc *process

	listed map[string]uci.Option // UCI: the options the engine listed, by lower-case name
	set    map[string]string     // UCI: the values set, by lower-case name

	replay    games.Position // the game as the engine was told it
	startText string
	told      []string // UCI: the moves told, in UCI notation
	synced    int      // moves of the game replayed
}

// newExternal returns the mover of e; its process starts with its first
// game.
func newExternal(e *EngineSpec, log io.Writer) *external {
	return &external{spec: *e, log: log}
}

func (x *external) handshake() time.Duration {
	if x.spec.Stall > 0 && x.spec.Stall < defaultHandshake {
		return x.spec.Stall
	}
	return defaultHandshake
}

// start starts the process and greets it: uci/uciok (the options listed)
// or GTP's protocol_version. Unknown options are an ErrEngineSpec error.
func (x *external) start(ctx context.Context) error {
	p, err := startProcess(&x.spec, x.log)
	if err != nil {
		return err
	}
	x.proc = p
	switch x.spec.Protocol {
	case ProtocolUCI:
		x.listed, x.set = map[string]uci.Option{}, map[string]string{}
		if err := p.send("uci"); err != nil {
			return err
		}
		for {
			l, err := p.readLine(ctx, x.handshake(), "waiting for uciok")
			if err != nil {
				return err
			}
			f := strings.Fields(l)
			if len(f) == 0 {
				continue
			}
			if f[0] == "uciok" {
				break
			}
			if f[0] == "option" {
				if o, err := uci.ParseOption(f[1:]); err == nil {
					x.listed[strings.ToLower(o.Name)] = o
				}
			}
		}
		for _, o := range x.spec.Options {
			if _, ok := x.listed[strings.ToLower(o.Name)]; !ok {
				names := make([]string, 0, len(x.listed))
				for _, l := range x.listed {
					names = append(names, l.Name)
				}
				return fmt.Errorf("%w: %s lists no option %q (it lists: %s)", ErrEngineSpec, x.spec.Name, o.Name, strings.Join(names, ", "))
			}
		}
	case ProtocolGTP:
		if _, err := x.gtp(ctx, "protocol_version", x.handshake()); err != nil {
			return err
		}
	}
	return nil
}

// stop ends the process: quit, then its group killed.
func (x *external) stop() {
	if x.proc == nil {
		return
	}
	quit := "quit"
	x.proc.close(quit)
	x.proc = nil
}

// Close ends the engine process.
func (x *external) Close() error {
	x.stop()
	return nil
}

// fail stops a process that broke (so that it stops searching at once)
// and passes err on.
func (x *external) fail(err error) error {
	var f *Fault
	if errors.As(err, &f) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if x.proc != nil {
			x.proc.kill()
			<-x.proc.done
			x.proc = nil
		}
	}
	return err
}

func (x *external) NewGame(ctx context.Context, g games.Game, start games.Position, startText string) error {
	if x.spec.Restart {
		x.stop()
	}
	if x.proc == nil {
		if err := x.start(ctx); err != nil {
			return x.fail(err)
		}
	}
	x.replay, x.startText, x.told, x.synced = start, startText, x.told[:0], 0
	switch x.spec.Protocol {
	case ProtocolUCI:
		if err := x.setOptions(); err != nil {
			return x.fail(err)
		}
		if err := x.proc.send("ucinewgame", "isready"); err != nil {
			return x.fail(err)
		}
		return x.fail(x.expect(ctx, "readyok", x.handshake()))
	case ProtocolGTP:
		if startText != "" {
			return fmt.Errorf("%w: %s: GTP cannot set up the opening %q; give openings as moves (random:N openings are)", ErrEngineSpec, x.spec.Name, startText)
		}
		if _, err := x.gtp(ctx, "clear_board", x.handshake()); err != nil {
			return x.fail(err)
		}
		if tc := x.spec.TC; tc != nil {
			cmd := fmt.Sprintf("time_settings %d 0 0", int(tc.Base.Seconds()))
			if _, err := x.gtp(ctx, cmd, x.handshake()); err != nil {
				return x.fail(err)
			}
		}
	}
	return nil
}

// setOptions sends the setoption lines that bring the engine from the
// values set to the spec's (an option the spec leaves out returns to its
// default).
func (x *external) setOptions() error {
	want := map[string]string{}
	var order []string
	for _, o := range x.spec.Options {
		k := strings.ToLower(o.Name)
		if _, ok := x.listed[k]; !ok {
			return fmt.Errorf("%w: %s lists no option %q", ErrEngineSpec, x.spec.Name, o.Name)
		}
		if _, dup := want[k]; !dup {
			order = append(order, k)
		}
		want[k] = o.Value
	}
	for k, v := range x.set {
		if _, ok := want[k]; !ok && v != x.listed[k].Default {
			want[k] = x.listed[k].Default
			order = append(order, k)
		}
	}
	for _, k := range order {
		v := want[k]
		if cur, ok := x.set[k]; ok && cur == v {
			continue
		}
		if err := x.proc.send(uci.SetOption{Name: x.listed[k].Name, Value: v}.String()); err != nil {
			return err
		}
		x.set[k] = v
	}
	return nil
}

// expect reads lines until one that is word.
func (x *external) expect(ctx context.Context, word string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		l, err := x.proc.readLine(ctx, time.Until(deadline), "waiting for "+word)
		if err != nil {
			return err
		}
		if strings.TrimSpace(l) == word {
			return nil
		}
	}
}

// gtp sends one GTP command and reads its response; "? ..." is a crash
// Fault (the engine refused what the referee knows is right).
func (x *external) gtp(ctx context.Context, command string, timeout time.Duration) (string, error) {
	if err := x.proc.send(command); err != nil {
		return "", err
	}
	deadline := time.Now().Add(timeout)
	var text []string
	for {
		l, err := x.proc.readLine(ctx, time.Until(deadline), "answering "+command)
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
		text = append(text, l)
	}
	r, err := gtp.ParseResponse(strings.Join(text, "\n"))
	if err != nil {
		return "", &Fault{ByCrash, fmt.Sprintf("answering %s: %v", command, err)}
	}
	if r.Error {
		return "", &Fault{ByCrash, fmt.Sprintf("refused %q: %s", command, r.Text)}
	}
	return strings.TrimSpace(r.Text), nil
}

// uciNotation is the UCI move notation of chess positions.
type uciNotation interface {
	UCI(games.Move) string
}

// catchUp replays the moves of t the engine's copy lacks, calling tell for
// each with the position before it.
func (x *external) catchUp(t Turn, tell func(p games.Position, m games.Move) error) error {
	for ; x.synced < len(t.Moves); x.synced++ {
		m := t.Moves[x.synced]
		if err := tell(x.replay, m); err != nil {
			return err
		}
		x.replay.Play(m)
	}
	return nil
}

func (x *external) Move(ctx context.Context, t Turn) (Reply, error) {
	if x.proc == nil {
		return Reply{}, &Fault{ByCrash, "the engine is not running"}
	}
	budget := x.spec.Stall
	if budget == 0 {
		budget = defaultStall
	}
	margin := x.spec.TimeMargin
	if margin == 0 {
		margin = defaultTimeMargin
	}
	side := t.Position.Turn()
	switch {
	case t.Clock.Timed:
		budget = t.Clock.Left[side] + margin + time.Second
	case x.spec.MoveTime > 0:
		budget = x.spec.MoveTime + margin + time.Second
	}
	var r Reply
	var err error
	if x.spec.Protocol == ProtocolUCI {
		r, err = x.moveUCI(ctx, t, budget)
	} else {
		r, err = x.moveGTP(ctx, t, budget)
	}
	return r, x.fail(err)
}

func (x *external) moveUCI(ctx context.Context, t Turn, budget time.Duration) (Reply, error) {
	err := x.catchUp(t, func(p games.Position, m games.Move) error {
		n, ok := p.(uciNotation)
		if !ok {
			return fmt.Errorf("%w: %s: the game has no UCI notation", ErrEngineSpec, x.spec.Name)
		}
		x.told = append(x.told, n.UCI(m))
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	position := uci.Position{FEN: x.startText, Moves: x.told}
	var g uci.Go
	switch {
	case t.Clock.Timed:
		c := t.Clock
		g.SetClock(c.Left[games.First], c.Left[games.Second], c.Increment[games.First], c.Increment[games.Second])
		g.MovesToGo = c.MovesToGo
	case x.spec.MoveTime > 0:
		g.MoveTime = x.spec.MoveTime
	case x.spec.Depth > 0:
		g.Depth = x.spec.Depth
	case x.spec.Nodes > 0:
		g.Nodes = x.spec.Nodes
	}
	if err := x.proc.send(position.String(), g.String()); err != nil {
		return Reply{}, err
	}
	deadline := time.Now().Add(budget)
	var r Reply
	for {
		l, err := x.proc.readLine(ctx, time.Until(deadline), "searching")
		if err != nil {
			return r, err
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "info":
			if in, err := uci.ParseInfo(f[1:]); err == nil {
				if in.Nodes > 0 {
					r.Nodes = in.Nodes
				}
				if s := in.Score; s != nil && s.Bound == "" {
					r.Score, r.Scored = s.Value, true
					if s.Mate {
						r.Score = mateScore(s.Value)
					}
				}
			}
		case "bestmove":
			bm, err := uci.ParseBestMove(f[1:])
			if err != nil {
				return r, &Fault{ByCrash, fmt.Sprintf("%q: %v", l, err)}
			}
			m, err := parseLegal(t.Position, bm.Move)
			if err != nil {
				return r, &Fault{ByIllegal, fmt.Sprintf("bestmove %s in %s: %v", bm.Move, t.Position.String(), err)}
			}
			r.Move = m
			return r, nil
		}
	}
}

// mateScore stands for a mate in n moves in centipawns, beyond any
// adjudication margin.
func mateScore(n int) int {
	if n < 0 {
		return -100000 - n
	}
	return 100000 - n
}

func (x *external) moveGTP(ctx context.Context, t Turn, budget time.Duration) (Reply, error) {
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
		return Reply{}, err
	}
	moves, _ := t.Position.Moves(nil)
	if len(moves) == 1 && gtp.IsPass(t.Position.FormatMove(moves[0])) {
		x.synced++ // a forced pass is neither asked for nor told
		x.replay.Play(moves[0])
		return Reply{Move: moves[0]}, nil
	}
	side := t.Position.Turn()
	if t.Clock.Timed {
		secs := strconv.FormatFloat(t.Clock.Left[side].Seconds(), 'f', 0, 64)
		if _, err := x.gtp(ctx, "time_left "+colour(side)+" "+secs+" 0", x.handshake()); err != nil {
			return Reply{}, err
		}
	}
	text, err := x.gtp(ctx, "genmove "+colour(side), budget)
	if err != nil {
		return Reply{}, err
	}
	m, err := parseLegal(t.Position, strings.ToLower(text))
	if err != nil {
		return Reply{}, &Fault{ByIllegal, fmt.Sprintf("genmove answered %q in %s: %v", text, t.Position.String(), err)}
	}
	x.synced++ // the engine played it on its own board
	x.replay.Play(m)
	return Reply{Move: m}, nil
}

// CheckEngine checks an external engine before any game: the command
// (EngineSpec.Check), then a process started, greeted and its options
// compared with the ones the engine lists, then closed. Errors the user
// must fix wrap ErrEngineSpec.
func CheckEngine(ctx context.Context, g games.Game, e EngineSpec, log io.Writer) error {
	if err := e.Check(g.Name()); err != nil {
		return err
	}
	x := newExternal(&e, log)
	defer x.Close()
	err := x.start(ctx)
	var f *Fault
	if errors.As(err, &f) {
		return fmt.Errorf("%w: %s did not start as a %s engine: %v", ErrEngineSpec, e.Name, e.Protocol, err)
	}
	return err
}
