package games

// UCIFormatter is implemented by positions whose moves have a UCI
// notation besides their own (chess: "e7e8q" beside SAN's "e8=Q+").
type UCIFormatter interface {
	UCI(m Move) string
}

// FormatLine writes a line of moves, each in the position it is played
// from: with format, or in the game's own notation (FormatMove) when
// format is nil. It plays the line on p and takes it back, leaving p as it
// found it.
func FormatLine(p Position, moves []Move, format func(Position, Move) string) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		if format != nil {
			out = append(out, format(p, m))
		} else {
			out = append(out, p.FormatMove(m))
		}
		p.Play(m)
	}
	for range moves {
		p.Undo()
	}
	return out
}

// UCILine writes a line of moves in UCI notation, or returns nil when the
// game has none.
func UCILine(p Position, moves []Move) []string {
	u, ok := p.(UCIFormatter)
	if !ok {
		return nil
	}
	return FormatLine(p, moves, func(_ Position, m Move) string { return u.UCI(m) })
}
