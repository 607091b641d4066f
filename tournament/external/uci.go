package external

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/tournament"
)

// setOptions sends the lines (command writes each: UCI's setoption,
// xboard's option) that bring the engine from the values set to the
// spec's. An option the spec leaves out returns to its default, when the
// engine said one (xboard's memory and cores have none).
func (x *mover) setOptions(command func(name, value string) (string, error)) error {
	return x.setOptionsBy(command, func(line string) error { return x.proc.send(line) })
}

// setOptionsBy is setOptions with the lines sent by send (GTP's wait for
// their answers).
func (x *mover) setOptionsBy(command func(name, value string) (string, error), send func(line string) error) error {
	want := map[string]string{}
	var order []string
	for _, o := range x.spec.Options {
		if err := o.check(); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrSpec, x.spec.Name, err)
		}
		k := strings.ToLower(o.Name)
		if _, ok := x.listed[k]; !ok {
			return fmt.Errorf("%w: %s lists no option %q", ErrSpec, x.spec.Name, o.Name)
		}
		if _, dup := want[k]; !dup {
			order = append(order, k)
		}
		want[k] = o.Value
	}
	for k, v := range x.set {
		if _, ok := want[k]; !ok && v != x.listed[k].Default && (x.listed[k].Default != "" || x.spec.Protocol == ProtocolUCI) {
			want[k] = x.listed[k].Default
			order = append(order, k)
		}
	}
	for _, k := range order {
		v := want[k]
		if cur, ok := x.set[k]; ok && cur == v {
			continue
		}
		line, err := command(x.listed[k].Name, v)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrSpec, x.spec.Name, err)
		}
		if err := send(line); err != nil {
			return err
		}
		x.set[k] = v
	}
	return nil
}

// setOptionUCI is UCI's line that sets an option.
func setOptionUCI(name, value string) (string, error) {
	return uci.SetOption{Name: name, Value: value}.String(), nil
}

// expect reads lines until one that is word.
func (x *mover) expect(ctx context.Context, word string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		l, err := x.proc.readLine(ctx, deadline, timeout, "waiting for "+word)
		if err != nil {
			return err
		}
		if strings.TrimSpace(l) == word {
			return nil
		}
	}
}

// moveUCI tells the engine the game (position) and its limit (go), and
// reads its answer within budget.
func (x *mover) moveUCI(ctx context.Context, t tournament.Turn, budget time.Duration) (tournament.Reply, error) {
	err := x.catchUp(t, func(p games.Position, m games.Move) error {
		n, ok := p.(games.UCIFormatter)
		if !ok {
			return fmt.Errorf("%w: %s: the game has no UCI notation", ErrSpec, x.spec.Name)
		}
		x.told = append(x.told, n.UCI(m))
		return nil
	})
	if err != nil {
		return tournament.Reply{}, err
	}
	position := uci.Position{FEN: x.startText, Moves: x.told}
	if err := x.proc.send(position.String(), x.goCommand(t.Clock).String()); err != nil {
		return tournament.Reply{}, err
	}
	return x.readBestMove(ctx, t.Position, budget)
}

// goCommand is the go line of a move: the clock, or the spec's limit.
func (x *mover) goCommand(c tournament.Clock) uci.Go {
	var g uci.Go
	switch {
	case c.Timed:
		g.SetClock(c.Left[games.First], c.Left[games.Second], c.Increment[games.First], c.Increment[games.Second])
		g.MovesToGo = c.MovesToGo
	case x.spec.MoveTime > 0:
		g.MoveTime = x.spec.MoveTime
	case x.spec.Depth > 0:
		g.Depth = x.spec.Depth
	case x.spec.Nodes > 0:
		g.Nodes = x.spec.Nodes
	}
	return g
}

// readBestMove reads the engine's lines until its bestmove, which must be
// legal in p, keeping the nodes and the exact score its info lines give.
func (x *mover) readBestMove(ctx context.Context, p games.Position, budget time.Duration) (tournament.Reply, error) {
	deadline := time.Now().Add(budget)
	var r tournament.Reply
	for {
		l, err := x.proc.readLine(ctx, deadline, budget, "searching")
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
				return r, crash(fmt.Sprintf("%q: %v", l, err))
			}
			m, err := tournament.ParseLegal(p, bm.Move)
			if err != nil {
				return r, illegal(fmt.Sprintf("bestmove %s in %s: %v", bm.Move, p.String(), err))
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
