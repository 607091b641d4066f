package games

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxSavedPlies bounds the moves of a saved game: longer than any game
// gametune plays (their ply cap is at most 10000).
const MaxSavedPlies = 10000

// WriteSaved writes a game a person played, from the position start (in
// the game's notation) through moves, so that ReadSaved reads it back: in
// the game's own record format where it has one (a Recorder: PGN, PDN,
// GGF, which other programs read too), with first and second as the
// players' names; else as the lines "game NAME", "start POSITION" and one
// move a line.
func WriteSaved(w io.Writer, g Game, start string, moves []Move, first, second string) error {
	p, err := g.ParsePosition(start)
	if err != nil {
		return err
	}
	line := FormatLine(p, moves, nil)
	if rec, ok := g.(Recorder); ok {
		for _, m := range moves {
			p.Play(m)
		}
		_, outcome := p.Moves(nil)
		return rec.WriteGame(w, GameText{Tags: [][2]string{{TagFirst, first}, {TagSecond, second}}, Start: start, Moves: line, Result: outcome})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "game %s\nstart %s\n", g.Name(), start)
	for _, m := range line {
		b.WriteString(m + "\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// ReadSaved reads a game WriteSaved wrote: the game's record format where
// it has one (a RecordReader; the first game of data), else "game NAME",
// "start POSITION", then one move a line. It checks every move and returns
// the start position's notation, the position after the moves and the
// moves.
func ReadSaved(g Game, data []byte) (start string, p Position, played []Move, err error) {
	text := strings.TrimSpace(string(data))
	if reader, ok := g.(RecordReader); ok && !strings.HasPrefix(text, "game ") {
		recs, err := reader.ReadGames(data)
		if err != nil {
			return "", nil, nil, err
		}
		if len(recs[0].Moves) > MaxSavedPlies {
			return "", nil, nil, fmt.Errorf("%d moves: a saved game holds at most %d", len(recs[0].Moves), MaxSavedPlies)
		}
		p, played, err := recs[0].Replay(g)
		if err != nil {
			return "", nil, nil, err
		}
		return recs[0].Start, p, played, nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "game ") || !strings.HasPrefix(lines[1], "start ") {
		return "", nil, nil, errors.New(`not a saved game (want lines "game NAME", "start POSITION", then one move a line)`)
	}
	if name := strings.TrimSpace(lines[0][5:]); name != g.Name() {
		return "", nil, nil, fmt.Errorf("a game of %q, not %s", name, g.Name())
	}
	if len(lines)-2 > MaxSavedPlies {
		return "", nil, nil, fmt.Errorf("%d moves: a saved game holds at most %d", len(lines)-2, MaxSavedPlies)
	}
	start = strings.TrimSpace(lines[1][6:])
	if p, err = g.ParsePosition(start); err != nil {
		return "", nil, nil, err
	}
	if played, err = playLines(p, lines[2:]); err != nil {
		return "", nil, nil, err
	}
	return start, p, played, nil
}

// playLines plays one move a line on p, checking each.
func playLines(p Position, lines []string) ([]Move, error) {
	var played, buf []Move
	for i, line := range lines {
		moves, outcome := p.Moves(buf)
		buf = moves
		if outcome != Ongoing {
			return nil, fmt.Errorf("move %d (%q): the game is over (%s)", i+1, strings.TrimSpace(line), outcome)
		}
		m, err := p.ParseMove(strings.TrimSpace(line))
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		p.Play(m)
		played = append(played, m)
	}
	return played, nil
}
