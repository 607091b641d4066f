package othello

import (
	"fmt"
	"io"
	"strings"

	"github.com/gametune/gametune/games"
)

// GGF is one Othello game in the Generic Game Format (GGS, NBoard, Edax,
// WZebra): the start board, the side to move there and the moves since.
// The board is 64 squares from A1 to H8, rank 1 first, as '*' (black), 'O'
// (white) or '-' (empty).
type GGF struct {
	Tags  [][2]string // properties other than BO, B and W, in order: GM, PB, PW, RE, ...
	Board string      // 64 characters A1..H8
	Black bool        // black to move on Board
	Moves []GGFMove
}

// GGFMove is one move of a GGF game with the colour that played it: Text
// is as written, a square (F5) or PA for a pass, optionally followed by
// /EVAL[/TIME] as NBoard writes them.
type GGFMove struct {
	Black bool
	Text  string
}

// Square is the move's square (or "PA") without its evaluation and time.
func (m GGFMove) Square() string {
	sq, _, _ := strings.Cut(m.Text, "/")
	return sq
}

// maxGGF bounds a game record: a whole game is under 2 KiB.
const maxGGF = 1 << 16

// ParseGGF reads one game, "(;GM[Othello]...BO[8 ... *]B[F5]W[F6];)". The
// board must be 8x8; properties other than BO, B and W are kept as tags.
// It checks the form of every move, not its legality, which the caller
// checks by playing the moves.
func ParseGGF(s string) (GGF, error) {
	if len(s) > maxGGF {
		return GGF{}, fmt.Errorf("othello: GGF of %d bytes, more than %d", len(s), maxGGF)
	}
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "(;") || !strings.HasSuffix(t, ";)") || len(t) < 4 {
		return GGF{}, fmt.Errorf("othello: a GGF game starts with (; and ends with ;)")
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
			return GGF{}, fmt.Errorf("othello: GGF: want NAME[VALUE] at %q", clip(t))
		}
		name := t[:open]
		end := strings.IndexByte(t[open:], ']')
		if end < 0 {
			return GGF{}, fmt.Errorf("othello: GGF: property %s has no closing ]", name)
		}
		value := t[open+1 : open+end]
		t = t[open+end+1:]
		for _, c := range name {
			if c < 'A' || c > 'Z' {
				return GGF{}, fmt.Errorf("othello: GGF: property name %q is not upper-case letters", clip(name))
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
				return GGF{}, fmt.Errorf("othello: GGF: move %s[%s] before the board (BO)", name, clip(value))
			}
			m := GGFMove{Black: name == "B", Text: strings.TrimSpace(value)}
			if sq := m.Square(); !strings.EqualFold(sq, "pa") && !strings.EqualFold(sq, "pass") &&
				(len(sq) != 2 || !strings.ContainsRune("abcdefghABCDEFGH", rune(sq[0])) || sq[1] < '1' || sq[1] > '8') {
				return GGF{}, fmt.Errorf("othello: GGF: move %d %q: want a square A1-H8 or PA (pass)", len(g.Moves)+1, clip(value))
			}
			g.Moves = append(g.Moves, m)
		case "GM":
			if !strings.EqualFold(value, "othello") {
				return GGF{}, fmt.Errorf("othello: GGF: game %q, want Othello", clip(value))
			}
			g.Tags = append(g.Tags, [2]string{name, value})
		case "TY":
			if !strings.HasPrefix(strings.TrimSpace(value), "8") {
				return GGF{}, fmt.Errorf("othello: GGF: type %q, only 8x8 boards are played", clip(value))
			}
			g.Tags = append(g.Tags, [2]string{name, value})
		default:
			g.Tags = append(g.Tags, [2]string{name, value})
		}
	}
	if !board {
		return GGF{}, fmt.Errorf("othello: GGF: the board (BO[8 ...]) is missing")
	}
	return g, nil
}

func parseBoard(v string) (string, bool, error) {
	f := strings.Fields(v)
	if len(f) == 0 || f[0] != "8" {
		return "", false, fmt.Errorf("othello: GGF: board %q: want BO[8 SQUARES SIDE] (8x8 only)", clip(v))
	}
	squares := ""
	if len(f) >= 3 {
		squares = strings.Join(f[1:len(f)-1], "")
	}
	if len(squares) != 64 {
		return "", false, fmt.Errorf("othello: GGF: board has %d squares and a side to move, want 64 and * or O", len(squares))
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
			return "", false, fmt.Errorf("othello: GGF: board square %d is %q, want *, O or -", i+1, c)
		}
	}
	switch f[len(f)-1] {
	case "*", "B", "b", "X", "x":
		return string(b), true, nil
	case "O", "W", "w", "o":
		return string(b), false, nil
	}
	return "", false, fmt.Errorf("othello: GGF: side to move %q, want * (black) or O (white)", clip(f[len(f)-1]))
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
		fmt.Fprintf(&b, "%s[%s]", c, m.Text)
	}
	b.WriteString(";)")
	return b.String()
}

// StartGGFBoard is the Othello start position in GGF: D4 and E5 white, D5 and
// E4 black, black to move.
const StartGGFBoard = "---------------------------O*------*O---------------------------"

// Notation writes the start board in games/othello's position notation
// (X black, O white, - empty, then the side to move).
func (g GGF) Notation() string {
	side := " O"
	if g.Black {
		side = " X"
	}
	return strings.ReplaceAll(g.Board, "*", "X") + side
}

// WriteGame writes a game given in the position and move notation as one
// GGF line: the tags given (PB and PW for the players, ...), the start
// board, the moves (passes as PA) and RE, the result as black's disc lead
// ("+0.000" for a draw) or "?" when the game did not end.
// RecordFormat is GGF's (games.Recorder): plain text, with no MIME type
// of its own.
func (game) RecordFormat() (ext, name, mime string) { return "ggf", "GGF", "text/plain; charset=utf-8" }

func (game) WriteGame(w io.Writer, text games.GameText) error {
	tags, moves, result := text.Tags, text.Moves, text.Result
	p, err := Parse(text.Start)
	if err != nil {
		return err
	}
	g := GGF{Tags: [][2]string{{"GM", "Othello"}}, Black: p.turn == games.First}
	for _, t := range games.RenameTags(tags, map[string]string{games.TagFirst: "PB", games.TagSecond: "PW", "Date": "DT", "Site": "PC"}) {
		// GGF property names are upper-case letters; other tags have no
		// place in it.
		if strings.Trim(t[0], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" && t[0] != "RE" && t[0] != "BO" {
			g.Tags = append(g.Tags, [2]string{t[0], strings.NewReplacer("[", "(", "]", ")").Replace(t[1])})
		}
	}
	board := []byte(p.String()[:64])
	for i, c := range board {
		if c == 'X' {
			board[i] = '*'
		}
	}
	g.Board = string(board)
	for i, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return fmt.Errorf("othello: GGF: move %d: %w", i+1, err)
		}
		mv := GGFMove{Black: p.turn == games.First, Text: strings.ToUpper(text)}
		if m == PassMove {
			mv.Text = "PA"
		}
		g.Moves = append(g.Moves, mv)
		p.Play(m)
	}
	// RE is black's disc lead when the game ended on the board; a result
	// decided otherwise (adjudication, a ply cap) is written as GGS writes
	// a resignation, ":r" after the full margin, or as an even score.
	re := "?"
	_, natural := p.Moves(nil)
	black, white := p.Discs()
	switch {
	case result == games.Ongoing:
	case result == natural:
		re = fmt.Sprintf("%+.3f", float64(black-white))
	case result == games.Draw:
		re = "+0.000"
	case result == games.FirstWins:
		re = "+64.000:r"
	default:
		re = "-64.000:r"
	}
	g.Tags = append(g.Tags, [2]string{"RE", re})
	_, err = io.WriteString(w, g.String()+"\n")
	return err
}

// ReadGames reads the GGF games of data, each "(;...;)", as records in the
// position and move notation (passes as "pass"). A move by the side that
// just moved (or, first, by the side not to move on the board) follows a
// pass the record left out, which the record then holds.
func (game) ReadGames(data []byte) ([]games.GameRecord, error) {
	text := string(data)
	var out []games.GameRecord
	for {
		open := strings.Index(text, "(;")
		if open < 0 {
			break
		}
		end := strings.Index(text[open:], ";)")
		if end < 0 {
			return nil, fmt.Errorf("othello: GGF game %d opens with (; and does not close with ;)", len(out)+1)
		}
		g, err := ParseGGF(text[open : open+end+2])
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", len(out)+1, err)
		}
		r := games.GameRecord{Tags: g.Tags, Start: g.Notation()}
		black := g.Black
		for _, m := range g.Moves {
			if m.Black != black {
				// A pass the record left out: Replay checks it was forced.
				r.Moves = append(r.Moves, "pass")
			}
			sq := strings.ToLower(m.Square())
			if sq == "pa" {
				sq = "pass"
			}
			r.Moves = append(r.Moves, sq)
			black = !m.Black
		}
		out = append(out, r)
		if len(out) > games.MaxRecordGames {
			return nil, fmt.Errorf("othello: more than %d games in one record", games.MaxRecordGames)
		}
		text = text[open+end+2:]
	}
	if len(out) == 0 {
		return nil, games.ErrNoGames
	}
	return out, nil
}
