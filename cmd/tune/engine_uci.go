package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/uci"
)

// uciMove writes a move in UCI's notation for chess and in the game's own
// notation for the other games (the UCI dialect).
func uciMove(p games.Position, m games.Move) string {
	if u, ok := p.(uciFormatter); ok {
		return u.UCI(m)
	}
	return p.FormatMove(m)
}

// serveUCI answers UCI commands until quit or the end of the input.
func serveUCI(ctx context.Context, lines <-chan commandLine, e *enginePlayer) error {
	positioned := false
	fail := func(format string, args ...any) {
		e.out.println(uci.InfoString("error: " + fmt.Sprintf(format, args...)))
	}
	for {
		l, ok, err := nextLine(ctx, lines)
		if err != nil || !ok {
			return err
		}
		if l.err != nil {
			fail("%v", l.err)
			continue
		}
		c, err := uci.ParseCommand(l.text)
		if err != nil {
			continue
		}
		switch c.Name {
		case "uci":
			e.out.println(uciHello(e)...)
		case "isready":
			e.out.println("readyok")
		case "debug", "register":
		case "ucinewgame":
			if err := e.settle(); err != nil {
				fail("ucinewgame: %v", err)
				continue
			}
			e.s.NewGame()
			e.pos, positioned = e.g.Start(), false
		case "setoption":
			if err := e.settle(); err != nil {
				fail("setoption: %v", err)
				continue
			}
			o, err := uci.ParseSetOption(c.Args)
			if err == nil {
				err = setUCIOption(e, o)
			}
			if err != nil {
				fail("%v", err)
			}
		case "position":
			p, err := uciPosition(e.g, c.Args)
			if err != nil {
				fail("%v (the position stays %s)", err, e.pos.String())
				continue
			}
			if err := e.settle(); err != nil {
				fail("position: %v", err)
				continue
			}
			e.pos, positioned = p, true
		case "go":
			if err := e.settle(); err != nil {
				fail("go: %v", err)
				continue
			}
			if !positioned {
				fail("go before position: send position startpos or position fen FEN first")
				e.out.println(uci.BestMove{Move: "0000"}.String())
				continue
			}
			g, err := uci.ParseGo(c.Args)
			if err != nil {
				fail("%v", err)
				e.out.println(uci.BestMove{Move: "0000"}.String())
				continue
			}
			p, err := e.searchable()
			if err != nil {
				fail("%v", err)
				e.out.println(uci.BestMove{Move: "0000"}.String())
				continue
			}
			lim, budget, hold := uciLimits(g, p.Turn())
			if len(g.SearchMoves) > 0 {
				e.out.println(uci.InfoString("searchmoves is not supported: all moves are searched"))
			}
			out := e.out
			e.think(ctx, p, lim, budget, hold, func(t thought) {
				out.println(uciInfo(t).Format(), uci.BestMove{Move: uciMove(t.pos, t.res.Move)}.String())
			})
		case "stop", "ponderhit":
			e.stop()
		case "quit":
			return nil
		default:
			fail("unknown command %q (commands: uci, isready, ucinewgame, setoption, position, go, stop, quit)", c.Name)
		}
	}
}

// uciHello is the answer to "uci": the id, the options and uciok.
func uciHello(e *enginePlayer) []string {
	id := uci.ID{Name: fmt.Sprintf("gametune %s %s", e.g.Name(), e.ev.Name), Author: "the gametune authors"}
	lines := id.Lines()
	maxMiB := int64(maxHashMiB)
	if total := totalMemory(); total > 0 {
		maxMiB = min(maxMiB, int64(total>>22))
	}
	lines = append(lines,
		uci.Option{Name: "Hash", Type: "spin", Default: strconv.Itoa(e.tableMiB), Min: 1, Max: max(maxMiB, 1)}.String(),
		uci.Option{Name: "Clear Hash", Type: "button"}.String(),
	)
	for i, f := range e.ev.Features {
		lines = append(lines, uci.WeightOption(f, e.w[i]).String())
	}
	return append(lines, "uciok")
}

// setUCIOption applies one setoption: Hash, Clear Hash or a feature weight.
func setUCIOption(e *enginePlayer, o uci.SetOption) error {
	switch strings.ToLower(o.Name) {
	case "hash":
		n, err := strconv.Atoi(o.Value)
		if err != nil {
			return fmt.Errorf("option Hash value %q: want a number of MiB", o.Value)
		}
		return e.newSearcher(n)
	case "clear hash":
		e.s.NewGame()
		return nil
	}
	i := e.ev.Index(o.Name)
	if i < 0 {
		return fmt.Errorf("no option %q (options: Hash, Clear Hash and the features of evaluator %s)", o.Name, e.ev.Name)
	}
	v, err := uci.Weight(e.ev.Features[i], o.Value)
	if err != nil {
		return err
	}
	w := append([]float64(nil), e.w...)
	w[i] = v
	e.w = w
	return nil
}

// uciPosition builds the position a "position" command describes, playing
// its moves so that the position keeps the game's history.
func uciPosition(g games.Game, args []string) (games.Position, error) {
	cmd, err := uci.ParsePosition(args)
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

// uciLimits turns a go command into engine limits, a time budget (0: none)
// and whether the result waits for stop (infinite or no limit at all).
func uciLimits(g uci.Go, turn games.Side) (engine.Limits, time.Duration, bool) {
	lim := engine.Limits{Depth: maxDepth}
	if g.Depth > 0 {
		lim.Depth = min(g.Depth, maxDepth)
	}
	if g.Mate > 0 {
		lim.Depth = min(lim.Depth, 2*g.Mate-1)
	}
	if g.Nodes > 0 {
		lim.Nodes = min(g.Nodes, maxNodes)
	}
	var budget time.Duration
	if g.MoveTime > 0 {
		budget = max(g.MoveTime-clockOverhead, time.Millisecond)
	}
	if g.HasClock() {
		left, inc := g.WTime, g.WInc
		if turn == games.Second {
			left, inc = g.BTime, g.BInc
		}
		b := moveBudget(left, inc, g.MovesToGo)
		if budget == 0 || b < budget {
			budget = b
		}
	}
	hold := g.Infinite || g.Ponder || (g.Depth == 0 && g.Mate == 0 && g.Nodes == 0 && budget == 0)
	return lim, budget, hold
}

// uciInfo is the info line of a finished search.
func uciInfo(t thought) uci.Info {
	st := t.res.Stats
	score := &uci.Score{Value: t.res.Score}
	switch {
	case engine.IsWin(t.res.Score):
		score = &uci.Score{Mate: true, Value: (engine.Mate - t.res.Score + 1) / 2}
	case engine.IsLoss(t.res.Score):
		score = &uci.Score{Mate: true, Value: -(engine.Mate + t.res.Score) / 2}
	}
	pv := formatPV(t.pos, t.res.PV, uciMove)
	ms := max(t.elapsed.Milliseconds(), 1)
	return uci.Info{
		Depth: st.Depth, SelDepth: max(st.Depth, len(pv)), Score: score,
		Nodes: st.Nodes, NPS: st.Nodes * 1000 / ms, Time: max(t.elapsed, time.Millisecond), PV: pv,
	}
}
