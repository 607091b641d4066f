package nboard

import (
	"fmt"
	"strings"
)

// GGF is one Othello game in the Generic Game Format that NBoard sends with
// "set game": the start board, the side to move there and the moves since.
// The board is 64 squares from A1 to H8, rank 1 first, as '*' (black), 'O'
// (white) or '-' (empty).
type GGF struct {
	Tags  [][2]string // properties other than BO, B and W, in order: GM, PB, PW, RE, ...
	Board string      // 64 characters A1..H8
	Black bool        // black to move on Board
	Moves []GGFMove
}

// GGFMove is one move of a GGF game with the colour that played it.
type GGFMove struct {
	Black bool
	Move
}

// maxGGF bounds a game record: a whole game is under 2 KiB.
const maxGGF = 1 << 16

// ParseGGF reads one game, "(;GM[Othello]...BO[8 ... *]B[F5]W[F6];)". The
// board must be 8x8; properties other than BO, B and W are kept as tags.
// It checks the form of every move, not its legality, which the caller
// checks by playing the moves.
func ParseGGF(s string) (GGF, error) {
	if len(s) > maxGGF {
		return GGF{}, fmt.Errorf("nboard: GGF of %d bytes, more than %d", len(s), maxGGF)
	}
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "(;") || !strings.HasSuffix(t, ";)") || len(t) < 4 {
		return GGF{}, fmt.Errorf("nboard: a GGF game starts with (; and ends with ;)")
	}
	t = t[2 : len(t)-2]
	var g GGF
	board := false
	for {
		t = strings.TrimSpace(t)
		if t == "" {
			break
		}
		open := strings.IndexByte(t, '[')
		if open <= 0 {
			return GGF{}, fmt.Errorf("nboard: GGF: want NAME[VALUE] at %q", clip(t))
		}
		name := t[:open]
		end := strings.IndexByte(t[open:], ']')
		if end < 0 {
			return GGF{}, fmt.Errorf("nboard: GGF: property %s has no closing ]", name)
		}
		value := t[open+1 : open+end]
		t = t[open+end+1:]
		for _, c := range name {
			if c < 'A' || c > 'Z' {
				return GGF{}, fmt.Errorf("nboard: GGF: property name %q is not upper-case letters", clip(name))
			}
		}
		switch name {
		case "BO":
			var err error
			if g.Board, g.Black, err = parseBoard(value); err != nil {
				return GGF{}, err
			}
			board = true
		case "B", "W":
			if !board {
				return GGF{}, fmt.Errorf("nboard: GGF: move %s[%s] before the board (BO)", name, clip(value))
			}
			m, err := ParseMove(value)
			if err != nil {
				return GGF{}, fmt.Errorf("nboard: GGF: move %d: %w", len(g.Moves)+1, err)
			}
			g.Moves = append(g.Moves, GGFMove{Black: name == "B", Move: m})
		case "GM":
			if !strings.EqualFold(value, "othello") {
				return GGF{}, fmt.Errorf("nboard: GGF: game %q, want Othello", clip(value))
			}
			g.Tags = append(g.Tags, [2]string{name, value})
		case "TY":
			if !strings.HasPrefix(strings.TrimSpace(value), "8") {
				return GGF{}, fmt.Errorf("nboard: GGF: type %q, only 8x8 boards are played", clip(value))
			}
			g.Tags = append(g.Tags, [2]string{name, value})
		default:
			g.Tags = append(g.Tags, [2]string{name, value})
		}
	}
	if !board {
		return GGF{}, fmt.Errorf("nboard: GGF: the board (BO[8 ...]) is missing")
	}
	return g, nil
}

func parseBoard(v string) (string, bool, error) {
	f := strings.Fields(v)
	if len(f) == 0 || f[0] != "8" {
		return "", false, fmt.Errorf("nboard: GGF: board %q: want BO[8 SQUARES SIDE] (8x8 only)", clip(v))
	}
	squares := ""
	if len(f) >= 3 {
		squares = strings.Join(f[1:len(f)-1], "")
	}
	if len(squares) != 64 {
		return "", false, fmt.Errorf("nboard: GGF: board has %d squares and a side to move, want 64 and * or O", len(squares))
	}
	b := []byte(squares)
	for i, c := range b {
		switch c {
		case '*', 'X', 'x', 'B', 'b':
			b[i] = '*'
		case 'O', 'o', 'W', 'w':
			b[i] = 'O'
		case '-', '.', 'E', 'e':
			b[i] = '-'
		default:
			return "", false, fmt.Errorf("nboard: GGF: board square %d is %q, want *, O or -", i+1, c)
		}
	}
	switch f[len(f)-1] {
	case "*", "B", "b", "X", "x":
		return string(b), true, nil
	case "O", "W", "w", "o":
		return string(b), false, nil
	}
	return "", false, fmt.Errorf("nboard: GGF: side to move %q, want * (black) or O (white)", clip(f[len(f)-1]))
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// String writes the game in GGF on one line.
func (g GGF) String() string {
	var b strings.Builder
	b.WriteString("(;")
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "%s[%s]", t[0], t[1])
	}
	side := "O"
	if g.Black {
		side = "*"
	}
	fmt.Fprintf(&b, "BO[8 %s %s]", g.Board, side)
	for _, m := range g.Moves {
		c := "W"
		if m.Black {
			c = "B"
		}
		fmt.Fprintf(&b, "%s[%s]", c, m.Move.String())
	}
	b.WriteString(";)")
	return b.String()
}

// StartBoard is the Othello start position in GGF: D4 and E5 white, D5 and
// E4 black, black to move.
const StartBoard = "---------------------------O*------*O---------------------------"

// Notation writes the start board in games/othello's position notation
// (X black, O white, - empty, then the side to move).
func (g GGF) Notation() string {
	side := " O"
	if g.Black {
		side = " X"
	}
	return strings.ReplaceAll(g.Board, "*", "X") + side
}
