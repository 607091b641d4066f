package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/gtp"
)

// gtpCommands are the commands `tune engine othello --protocol gtp` knows.
var gtpCommands = []string{"protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
	"clear_board", "komi", "play", "genmove", "undo", "time_settings", "time_left", "final_score", "showboard", "quit"}

// gtpClock is what time_settings and time_left said: whether the game is
// timed and the time left of each side (black first).
type gtpClock struct {
	timed bool
	left  [2]time.Duration
}

// serveGTP answers GTP commands until quit or the end of the input. GTP is
// one command, one answer: genmove searches before the next command is read.
func serveGTP(ctx context.Context, lines <-chan commandLine, e *enginePlayer) error {
	var clock gtpClock
	for {
		l, ok, err := nextLine(ctx, lines)
		if err != nil || !ok {
			return err
		}
		if l.err != nil {
			e.out.write(gtp.Failure(gtp.Command{}, l.err.Error()).String())
			continue
		}
		c, err := gtp.ParseCommand(l.text)
		if errors.Is(err, gtp.ErrEmpty) {
			continue
		}
		if err != nil {
			e.out.write(gtp.Failure(gtp.Command{}, err.Error()).String())
			continue
		}
		text, err := gtpAnswer(ctx, e, &clock, c)
		if err != nil {
			e.out.write(gtp.Failure(c, err.Error()).String())
			continue
		}
		e.out.write(gtp.Success(c, text).String())
		if c.Name == "quit" {
			return nil
		}
	}
}

func gtpAnswer(ctx context.Context, e *enginePlayer, clock *gtpClock, c gtp.Command) (string, error) {
	need := func(n int) error {
		if len(c.Args) < n {
			return fmt.Errorf("syntax error: %s needs %d arguments", c.Name, n)
		}
		return nil
	}
	switch c.Name {
	case "protocol_version":
		return "2", nil
	case "name":
		return "gametune", nil
	case "version":
		return e.g.Name() + " " + e.ev.Name, nil
	case "known_command":
		if err := need(1); err != nil {
			return "", err
		}
		for _, k := range gtpCommands {
			if k == c.Args[0] {
				return "true", nil
			}
		}
		return "false", nil
	case "list_commands":
		return strings.Join(gtpCommands, "\n"), nil
	case "boardsize":
		if err := need(1); err != nil {
			return "", err
		}
		if c.Args[0] != "8" {
			return "", fmt.Errorf("unacceptable size: Othello is played on 8x8")
		}
		return "", nil
	case "clear_board":
		e.pos = e.g.Start()
		e.s.NewGame()
		return "", nil
	case "komi":
		return "", nil
	case "play":
		if err := need(2); err != nil {
			return "", err
		}
		side, err := gtpSide(c.Args[0])
		if err != nil {
			return "", err
		}
		p, err := playFor(e.pos, side, c.Args[1])
		if err != nil {
			return "", fmt.Errorf("illegal move: %v", err)
		}
		e.pos = p
		return "", nil
	case "genmove":
		if err := need(1); err != nil {
			return "", err
		}
		side, err := gtpSide(c.Args[0])
		if err != nil {
			return "", err
		}
		p, err := passUntil(e.pos, side)
		if err != nil {
			return "", err
		}
		lim, budget := e.limits, time.Duration(0)
		if clock.timed {
			lim = engine.Limits{Depth: maxDepth}
			budget = moveBudget(clock.left[side], 0, movesLeft(p))
		}
		saved := e.pos
		e.pos = p
		q, err := e.searchable()
		if err != nil {
			e.pos = saved
			return "", err
		}
		var t thought
		e.think(ctx, q, lim, budget, false, func(r thought) { t = r })
		e.wait()
		move := t.pos.FormatMove(t.res.Move)
		p.Play(t.res.Move)
		return strings.ToUpper(move), nil
	case "undo":
		if e.pos.Ply() == 0 {
			return "", errors.New("cannot undo: no move was played")
		}
		e.pos.Undo()
		return "", nil
	case "time_settings":
		if err := need(3); err != nil {
			return "", err
		}
		main, err1 := strconv.Atoi(c.Args[0])
		byo, err2 := strconv.Atoi(c.Args[1])
		if err1 != nil || err2 != nil || main < 0 || byo < 0 {
			return "", errors.New("syntax error: time_settings MAIN BYO_YOMI STONES, in seconds")
		}
		clock.timed = main > 0 || byo > 0
		clock.left = [2]time.Duration{time.Duration(main) * time.Second, time.Duration(main) * time.Second}
		return "", nil
	case "time_left":
		if err := need(2); err != nil {
			return "", err
		}
		side, err := gtpSide(c.Args[0])
		if err != nil {
			return "", err
		}
		secs, err := strconv.ParseFloat(c.Args[1], 64)
		if err != nil || secs < 0 || secs > 1e7 {
			return "", fmt.Errorf("syntax error: time_left COLOR SECONDS STONES, got %q seconds", c.Args[1])
		}
		clock.timed = true
		clock.left[side] = time.Duration(secs * float64(time.Second))
		return "", nil
	case "final_score":
		return othelloScore(e.pos), nil
	case "showboard":
		if d, ok := e.pos.(games.Drawer); ok {
			return "\n" + strings.TrimRight(d.Draw(), "\n"), nil
		}
		return e.pos.String(), nil
	case "quit":
		return "", nil
	}
	return "", fmt.Errorf("unknown command %q (see list_commands)", c.Name)
}

func gtpSide(s string) (games.Side, error) {
	black, err := gtp.Color(s)
	if err != nil {
		return 0, fmt.Errorf("syntax error: %v", err)
	}
	if black {
		return games.First, nil
	}
	return games.Second, nil
}

// passUntil returns p, or a copy of p in which the side to move has passed
// so that side is to move: GTP and NBoard front-ends may leave a forced
// pass out. Any other turn mismatch is an error.
func passUntil(p games.Position, side games.Side) (games.Position, error) {
	if p.Turn() == side {
		return p, nil
	}
	moves, outcome := p.Moves(nil)
	if outcome != games.Ongoing {
		return nil, fmt.Errorf("the game is over (%s)", outcome)
	}
	if len(moves) == 1 && p.FormatMove(moves[0]) == "pass" {
		q := p.Clone()
		q.Play(moves[0])
		return q, nil
	}
	return nil, fmt.Errorf("it is %s's turn", sideColour(p.Turn()))
}

// playFor plays move for side on a copy of p (after a forced pass of the
// other side if needed) and returns it; p is unchanged on error.
func playFor(p games.Position, side games.Side, move string) (games.Position, error) {
	q, err := passUntil(p, side)
	if err != nil {
		return nil, err
	}
	if q == p {
		q = p.Clone()
	}
	m, err := q.ParseMove(move)
	if err != nil {
		return nil, err
	}
	q.Play(m)
	return q, nil
}

func sideColour(s games.Side) string {
	if s == games.First {
		return "black"
	}
	return "white"
}

// movesLeft estimates the moves the side to move still plays in an Othello
// game: half the empty squares.
func movesLeft(p games.Position) int {
	if x, ok := p.(interface{ Empties() int }); ok {
		return x.Empties()/2 + 1
	}
	return 30
}

// othelloScore is GTP's final_score: "B+4", "W+2" or "0" by disc count.
func othelloScore(p games.Position) string {
	x, ok := p.(interface{ Discs() (int, int) })
	if !ok {
		return "0"
	}
	b, w := x.Discs()
	switch {
	case b > w:
		return fmt.Sprintf("B+%d", b-w)
	case w > b:
		return fmt.Sprintf("W+%d", w-b)
	}
	return "0"
}
