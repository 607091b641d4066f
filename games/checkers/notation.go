package checkers

import (
	"fmt"

	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// path returns the squares a move visits, origin first.
func path(m games.Move) []int {
	from := moveFrom(m)
	sq := []int{from}
	if n := moveJumps(m); n == 0 {
		sq = append(sq, int(step[moveDir(m, 0)][from]))
	} else {
		s := from
		for i := 0; i < n; i++ {
			s = int(jump[moveDir(m, i)][s])
			sq = append(sq, s)
		}
	}
	return sq
}

// FormatMove writes a simple move as "11-15" and a capture as its full
// path, "9x18x27".
func (p *Position) FormatMove(m games.Move) string {
	sq := path(m)
	sep := "-"
	if moveJumps(m) > 0 {
		sep = "x"
	}
	parts := make([]string, len(sq))
	for i, s := range sq {
		parts[i] = strconv.Itoa(s + 1)
	}
	return strings.Join(parts, sep)
}

// ParseMove reads "11-15", "22x15" (origin and destination of a capture,
// when only one capture joins them) or the full path "9x18x27".
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.TrimSpace(s)
	capture := strings.Contains(t, "x") || strings.Contains(t, "X")
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' })
	if len(fields) < 2 || (!capture && len(fields) != 2) {
		return 0, fmt.Errorf("checkers: move %q: want from-to such as 11-15, or a capture such as 22x15 or 9x18x27", s)
	}
	var squares []int
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return 0, fmt.Errorf("checkers: move %q: %q is not a square number", s, f)
		}
		if n < 1 || n > 32 {
			return 0, fmt.Errorf("checkers: move %q: square %d is off the board (squares 1-32)", s, n)
		}
		squares = append(squares, n-1)
	}
	moves, outcome := p.Moves(nil)
	if outcome != games.Ongoing {
		return 0, fmt.Errorf("checkers: the game is over (%s)", outcome)
	}
	isCapture := len(moves) > 0 && moveJumps(moves[0]) > 0
	if !capture && isCapture {
		return 0, fmt.Errorf("checkers: capture is mandatory: %s", strings.Join(p.formatAll(moves), ", "))
	}
	var matches []games.Move
	var longer []games.Move
	for _, m := range moves {
		ps := path(m)
		if ps[0] != squares[0] {
			continue
		}
		switch {
		case len(squares) == 2 && ps[len(ps)-1] == squares[1]:
			matches = append(matches, m)
		case len(squares) > 2 && equal(ps, squares):
			matches = append(matches, m)
		case len(squares) >= 2 && len(ps) > len(squares) && equal(ps[:len(squares)], squares):
			longer = append(longer, m)
		}
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return 0, fmt.Errorf("checkers: %q is ambiguous: %s", s, strings.Join(p.formatAll(matches), ", "))
	case len(longer) > 0:
		return 0, fmt.Errorf("checkers: %q stops early: the capture must go on (%s)", s, strings.Join(p.formatAll(longer), ", "))
	case capture && !isCapture:
		return 0, fmt.Errorf("checkers: %q: there is no capture; legal moves: %s", s, strings.Join(p.formatAll(moves), ", "))
	}
	return 0, fmt.Errorf("checkers: %q is not legal here; legal moves: %s", s, strings.Join(p.formatAll(moves), ", "))
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (p *Position) formatAll(moves []games.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = p.FormatMove(m)
	}
	return out
}

// String writes the position as PDN FEN: side to move, then White's and
// Black's pieces with K before kings, e.g. "B:W21,22,K30:B1,2,K9".
func (p *Position) String() string {
	var b strings.Builder
	if p.turn == games.First {
		b.WriteString("B")
	} else {
		b.WriteString("W")
	}
	for _, side := range []games.Side{games.Second, games.First} {
		b.WriteString(":")
		b.WriteString(map[games.Side]string{games.First: "B", games.Second: "W"}[side])
		var list []string
		for s := 0; s < 32; s++ {
			switch {
			case p.men[side]&(1<<s) != 0:
				list = append(list, strconv.Itoa(s+1))
			case p.kings[side]&(1<<s) != 0:
				list = append(list, "K"+strconv.Itoa(s+1))
			}
		}
		b.WriteString(strings.Join(list, ","))
	}
	return b.String()
}

// Parse reads PDN FEN: "B:W21,22,23,K30:B1,2,3,K9" (side to move B or W,
// then each colour's squares, K marking kings; ranges such as 1-12 and a
// final period are accepted). Positions that no game reaches are rejected
// with games.ErrUnreachable: more than 12 pieces a side, a man on the row
// where it would have been crowned, no piece for the side that moved last.
func Parse(s string) (*Position, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), ".")
	parts := strings.Split(t, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("checkers: FEN %q: want three fields separated by colons, e.g. B:W21,22,K30:B1,2,K9", s)
	}
	p := &Position{history: make([]undo, 0, maxHistory)}
	switch strings.ToUpper(strings.TrimSpace(parts[0])) {
	case "B":
		p.turn = games.First
	case "W":
		p.turn = games.Second
	default:
		return nil, fmt.Errorf("checkers: FEN %q: side to move %q, want B or W", s, parts[0])
	}
	seen := map[string]bool{}
	for _, field := range parts[1:] {
		field = strings.TrimSpace(field)
		if field == "" {
			return nil, fmt.Errorf("checkers: FEN %q: empty field (want W... or B...)", s)
		}
		var side games.Side
		switch strings.ToUpper(field[:1]) {
		case "B":
			side = games.First
		case "W":
			side = games.Second
		default:
			return nil, fmt.Errorf("checkers: FEN %q: field %q must start with W or B", s, field)
		}
		if seen[strings.ToUpper(field[:1])] {
			return nil, fmt.Errorf("checkers: FEN %q: colour %s given twice", s, field[:1])
		}
		seen[strings.ToUpper(field[:1])] = true
		body := field[1:]
		if body == "" {
			continue
		}
		for _, item := range strings.Split(body, ",") {
			item = strings.TrimSpace(item)
			king := false
			if strings.HasPrefix(item, "K") || strings.HasPrefix(item, "k") {
				king, item = true, item[1:]
			}
			lo, hi := item, item
			if a, b, ok := strings.Cut(item, "-"); ok {
				lo, hi = a, b
			}
			from, err1 := strconv.Atoi(lo)
			to, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("checkers: FEN %q: %q is not a square number", s, item)
			}
			if from < 1 || to > 32 || from > to {
				return nil, fmt.Errorf("checkers: FEN %q: square %q outside 1-32", s, item)
			}
			for sq := from - 1; sq < to; sq++ {
				if p.occupied()&(1<<sq) != 0 {
					return nil, fmt.Errorf("checkers: FEN %q: square %d holds two pieces", s, sq+1)
				}
				if king {
					p.kings[side] |= 1 << sq
				} else {
					if lastRow[side]&(1<<sq) != 0 {
						return nil, games.Unreachable("checkers: FEN %q: a %s man on square %d would have been crowned (men reach the far row only as kings)", s, map[games.Side]string{games.First: "black", games.Second: "white"}[side], sq+1)
					}
					p.men[side] |= 1 << sq
				}
			}
		}
	}
	if len(seen) != 2 {
		return nil, fmt.Errorf("checkers: FEN %q: want one W field and one B field", s)
	}
	for side, name := range []string{"black", "white"} {
		if n := popcount(p.pieces(games.Side(side))); n > 12 {
			return nil, games.Unreachable("checkers: FEN %q: %s has %d pieces; each side starts with 12 and never gains one (at most 12, kings included)", s, name, n)
		}
	}
	if mover := p.turn.Other(); p.pieces(mover) == 0 {
		name := map[games.Side]string{games.First: "black", games.Second: "white"}
		return nil, games.Unreachable("checkers: FEN %q: %s has no piece but made the last move (%s is to move); a side with no piece left cannot have just moved", s, name[mover], name[p.turn])
	}
	p.hash = p.computeHash()
	return p, nil
}

// Draw shows the board with the square numbers of the empty dark squares.
func (p *Position) Draw() string {
	var b strings.Builder
	for r := 0; r < 8; r++ {
		b.WriteString("  ")
		for c := 0; c < 8; c++ {
			s := square(r, c)
			switch {
			case s < 0:
				b.WriteString("   ")
			case p.men[0]&(1<<s) != 0:
				b.WriteString("  b")
			case p.kings[0]&(1<<s) != 0:
				b.WriteString("  B")
			case p.men[1]&(1<<s) != 0:
				b.WriteString("  w")
			case p.kings[1]&(1<<s) != 0:
				b.WriteString("  W")
			default:
				fmt.Fprintf(&b, "%3d", s+1)
			}
		}
		b.WriteByte('\n')
	}
	name := "black (b, kings B)"
	if p.turn == games.Second {
		name = "white (w, kings W)"
	}
	fmt.Fprintf(&b, "  black %d (%d kings), white %d (%d kings); %s to move\n",
		popcount(p.pieces(0)), popcount(p.kings[0]), popcount(p.pieces(1)), popcount(p.kings[1]), name)
	return b.String()
}
