package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/protocol/nboard"
)

// serveNBoard answers NBoard commands until quit or the end of the input.
// go and hint search on their own goroutine; ping stops them and answers
// once they have reported, as the protocol asks.
func serveNBoard(ctx context.Context, lines <-chan commandLine, e *enginePlayer) error {
	fail := func(format string, args ...any) {
		e.out.println("status error: " + strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " "))
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
		c, err := nboard.ParseCommand(l.text)
		if err != nil {
			continue
		}
		switch c.Name {
		case "nboard":
			e.out.println("set myname gametune-" + e.ev.Name)
		case "set":
			if len(c.Args) == 0 {
				fail("set needs depth, game or contempt")
				continue
			}
			e.wait()
			switch c.Args[0] {
			case "depth":
				d := 0
				if len(c.Args) == 2 {
					d, _ = strconv.Atoi(c.Args[1])
				}
				if d < 1 || d > maxDepth {
					fail("set depth %s: want 1 to %d", strings.Join(c.Args[1:], " "), maxDepth)
					continue
				}
				e.limits = engine.Limits{Depth: d}
			case "game":
				p, err := ggfPosition(e.g, strings.TrimSpace(strings.TrimPrefix(c.Rest, "game")))
				if err != nil {
					fail("set game: %v (the position stays %s)", err, e.pos.String())
					continue
				}
				e.pos = p
			case "contempt":
			default:
				fail("set %s: unknown setting (depth, game, contempt)", c.Args[0])
			}
		case "move":
			e.wait()
			if len(c.Args) != 1 {
				fail("move needs one move such as F5 or F5/1.00/0.5")
				continue
			}
			m, err := nboard.ParseMove(c.Args[0])
			if err == nil {
				var p games.Position
				if p, err = playFor(e.pos, e.pos.Turn(), nboardSquare(m)); err == nil {
					e.pos = p
				}
			}
			if err != nil {
				fail("move %s: %v", c.Args[0], err)
			}
		case "go", "hint":
			e.wait()
			p, err := e.searchable()
			if err != nil {
				fail("%s: %v", c.Name, err)
				continue
			}
			e.out.println("status gametune is thinking")
			out, hint := e.out, c.Name == "hint"
			e.think(ctx, p, e.limits, 0, false, func(t thought) {
				eval := nboardEval(t.res.Score)
				if hint {
					out.println(nboard.Search(formatPV(t.pos, t.res.PV, games.Position.FormatMove), eval, t.res.Stats.Depth), "status")
					return
				}
				m := nboard.Move{Square: t.pos.FormatMove(t.res.Move), Eval: eval, HasEval: true, Seconds: t.elapsed.Seconds()}
				out.println(nboard.BestMove(m), "status")
			})
		case "ping":
			e.stop()
			n := "0"
			if len(c.Args) > 0 {
				n = c.Args[0]
			}
			e.out.println("pong " + n)
		case "learn":
			e.out.println("learned")
		case "quit":
			return nil
		default:
			fail("unknown command %q (nboard, set depth, set game, move, go, hint, ping, learn, quit)", c.Name)
		}
	}
}

// nboardSquare is the move in games/othello's notation.
func nboardSquare(m nboard.Move) string {
	if m.IsPass() {
		return "pass"
	}
	return strings.ToLower(m.Square)
}

// nboardEval turns a score (tenths of a disc in Othello's evaluators) into
// NBoard's discs; a forced win or loss is ±64.
func nboardEval(score int) float64 {
	switch {
	case engine.IsWin(score):
		return 64
	case engine.IsLoss(score):
		return -64
	}
	return float64(score) / 10
}

// ggfPosition plays a GGF game from its board, checking every move.
func ggfPosition(g games.Game, text string) (games.Position, error) {
	gg, err := othello.ParseGGF(text)
	if err != nil {
		return nil, err
	}
	p, err := g.ParsePosition(gg.Notation())
	if err != nil {
		return nil, err
	}
	for i, m := range gg.Moves {
		side := games.Second
		if m.Black {
			side = games.First
		}
		mv, err := nboard.ParseMove(m.Text)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		if p, err = playFor(p, side, nboardSquare(mv)); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, mv.Square, err)
		}
	}
	if p == nil {
		return nil, errors.New("no position")
	}
	return p, nil
}
