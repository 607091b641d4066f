// Package tictactoe is noughts and crosses on a 3x3 board: X moves first, a
// line of three wins, a full board without a line is a draw. Its full game
// tree (255168 games) is small enough to prove the engine exact.
package tictactoe

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/gametune/gametune/games"
)

// Game returns tic-tac-toe, registered as "tictactoe".
func Game() games.Game { return definition }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("tictactoe", doc, notation, Start, Parse, linesEvaluator)

// lines are the eight lines of three cells, cells numbered 0-8 row by row
// from the top left.
var lines = [8]uint16{
	0b000000111, 0b000111000, 0b111000000, // rows
	0b001001001, 0b010010010, 0b100100100, // columns
	0b100010001, 0b001010100, // diagonals
}

const full = 0b111111111

// Position is a tic-tac-toe position: one bit per cell for each side.
type Position struct {
	cells   [2]uint16 // cells of the first (X) and second (O) side
	turn    games.Side
	history [9]int8 // cells played, in order
	n       int     // moves in history
}

// Start returns the empty board, X to move.
func Start() *Position { return &Position{} }

func (p *Position) winner() (games.Side, bool) {
	for s := games.First; s <= games.Second; s++ {
		for _, l := range lines {
			if p.cells[s]&l == l {
				return s, true
			}
		}
	}
	return 0, false
}

func (p *Position) outcome() games.Outcome {
	if s, ok := p.winner(); ok {
		return games.WinFor(s)
	}
	if p.cells[0]|p.cells[1] == full {
		return games.Draw
	}
	return games.Ongoing
}

// Moves lists the empty cells (as cell+1) unless the game is over.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	if o := p.outcome(); o != games.Ongoing {
		return dst, o
	}
	empty := full &^ (p.cells[0] | p.cells[1])
	for empty != 0 {
		c := bits.TrailingZeros16(empty)
		empty &= empty - 1
		dst = append(dst, games.Move(c+1))
	}
	return dst, games.Ongoing
}

// Noisy returns no moves: tic-tac-toe has nothing to resolve.
func (p *Position) Noisy(dst []games.Move) []games.Move { return dst[:0] }

// Play marks cell m-1 for the side to move.
func (p *Position) Play(m games.Move) {
	c := int8(m - 1)
	p.cells[p.turn] |= 1 << c
	p.history[p.n] = c
	p.n++
	p.turn = p.turn.Other()
}

// Undo clears the last marked cell.
func (p *Position) Undo() {
	p.n--
	p.turn = p.turn.Other()
	p.cells[p.turn] &^= 1 << p.history[p.n]
}

// Hash identifies the position: both boards and the side to move.
func (p *Position) Hash() uint64 {
	return games.Mix(uint64(p.cells[0]) | uint64(p.cells[1])<<9 | uint64(p.turn)<<18)
}

func (p *Position) Turn() games.Side { return p.turn }
func (p *Position) Ply() int         { return p.n }

func (p *Position) Clone() games.Position {
	c := *p
	return &c
}

// String writes the nine cells row by row from the top left: x, o or -.
func (p *Position) String() string {
	var b strings.Builder
	for c := 0; c < 9; c++ {
		switch {
		case p.cells[0]&(1<<c) != 0:
			b.WriteByte('x')
		case p.cells[1]&(1<<c) != 0:
			b.WriteByte('o')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Draw shows the board with coordinates.
func (p *Position) Draw() string {
	var b strings.Builder
	s := p.String()
	b.WriteString("    a b c\n")
	for r := 0; r < 3; r++ {
		fmt.Fprintf(&b, "  %d", r+1)
		for f := 0; f < 3; f++ {
			b.WriteByte(' ')
			b.WriteByte(s[r*3+f])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "  %s to move\n", map[games.Side]string{games.First: "x", games.Second: "o"}[p.turn])
	return b.String()
}

// FormatMove writes a cell as file a-c and row 1-3 from the top: "b2".
func (p *Position) FormatMove(m games.Move) string {
	c := int(m - 1)
	return string(rune('a'+c%3)) + string(rune('1'+c/3))
}

// ParseMove reads a cell as "b2" (file a-c, row 1-3 from the top) or as a
// digit 1-9 counted row by row from the top left.
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	c := -1
	switch {
	case len(t) == 1 && t[0] >= '1' && t[0] <= '9':
		c = int(t[0] - '1')
	case len(t) == 2 && t[0] >= 'a' && t[0] <= 'c' && t[1] >= '1' && t[1] <= '3':
		c = int(t[1]-'1')*3 + int(t[0]-'a')
	default:
		return 0, fmt.Errorf("tictactoe: move %q is not a cell (a1-c3, or 1-9 row by row)", s)
	}
	if o := p.outcome(); o != games.Ongoing {
		return 0, fmt.Errorf("tictactoe: the game is over (%s)", o)
	}
	if (p.cells[0]|p.cells[1])&(1<<c) != 0 {
		return 0, fmt.Errorf("tictactoe: cell %s is taken", p.FormatMove(games.Move(c+1)))
	}
	return games.Move(c + 1), nil
}

// Parse reads nine cells row by row from the top left, each x, o, or - (or
// .) for empty; the side to move follows from the counts (x moves first).
// It rejects boards that alternate play from the empty board cannot reach:
// counts other than as many x as o or one more, lines of three for both
// sides, and a line for the side that did not move last.
func Parse(s string) (*Position, error) {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	if len(t) != 9 {
		return nil, fmt.Errorf("tictactoe: position %q has %d cells, want 9 (x, o or - row by row, e.g. x-o-x----)", s, len(t))
	}
	p := &Position{}
	for c := 0; c < 9; c++ {
		switch t[c] {
		case 'x':
			p.cells[0] |= 1 << c
		case 'o':
			p.cells[1] |= 1 << c
		case '-', '.':
		default:
			return nil, fmt.Errorf("tictactoe: cell %d of %q is %q, want x, o or -", c+1, s, t[c])
		}
	}
	nx, no := bits.OnesCount16(p.cells[0]), bits.OnesCount16(p.cells[1])
	switch nx - no {
	case 0:
		p.turn = games.First
	case 1:
		p.turn = games.Second
	default:
		return nil, games.Unreachable("tictactoe: position %q has %d x and %d o; x moves first, so x has as many or one more", s, nx, no)
	}
	xWins, oWins := p.hasLine(games.First), p.hasLine(games.Second)
	switch {
	case xWins && oWins:
		return nil, games.Unreachable("tictactoe: position %q has three in a row for both x and o; the game ends at the first line", s)
	case xWins && p.turn == games.First:
		return nil, games.Unreachable("tictactoe: position %q has three in a row for x, but o has moved since (%d x, %d o); after x wins, x has one more mark than o", s, nx, no)
	case oWins && p.turn == games.Second:
		return nil, games.Unreachable("tictactoe: position %q has three in a row for o, but x has moved since (%d x, %d o); after o wins, x and o have as many marks", s, nx, no)
	}
	return p, nil
}

// hasLine reports whether side s has three in a row.
func (p *Position) hasLine(s games.Side) bool {
	for _, l := range lines {
		if p.cells[s]&l == l {
			return true
		}
	}
	return false
}

// Evaluators.

// linesEvaluator is the classic heuristic: open lines (lines the opponent has
// not entered) for the side to move minus those of the opponent, plus lines
// where a side has two marks and the third cell is empty.
var linesEvaluator = &games.Evaluator{
	Name: "lines",
	Doc:  "the classic tic-tac-toe heuristic: lines still open to each side, and two-in-a-line threats",
	Features: []games.Feature{
		{Name: "open-mine", Doc: "lines with no opponent mark, for the side to move", Default: 1, Min: -5, Max: 5, Step: 0.1},
		{Name: "open-theirs", Doc: "lines with no mark of the side to move, for the opponent", Default: -1, Min: -5, Max: 5, Step: 0.1},
		{Name: "threats-mine", Doc: "lines with two marks of the side to move and an empty cell", Default: 2, Min: -5, Max: 5, Step: 0.1},
		{Name: "threats-theirs", Doc: "lines with two opponent marks and an empty cell", Default: -2, Min: -5, Max: 5, Step: 0.1},
	},
	Evaluate: evaluate,
	FeatureValues: func(gp games.Position, dst []float64) {
		f := lineFeatures(gp.(*Position))
		for i, x := range f {
			dst[i] = 100 * float64(x)
		}
	},
}

func evaluate(gp games.Position, w []float64) int {
	f := lineFeatures(gp.(*Position))
	v := 0.0
	for i, x := range f {
		v += w[i] * float64(x)
	}
	return int(math.Round(100 * v))
}

func lineFeatures(p *Position) [4]int {
	me, them := p.cells[p.turn], p.cells[p.turn.Other()]
	var f [4]int
	for _, l := range lines {
		mine, theirs := bits.OnesCount16(me&l), bits.OnesCount16(them&l)
		if theirs == 0 {
			f[0]++
			if mine == 2 {
				f[2]++
			}
		}
		if mine == 0 {
			f[1]++
			if theirs == 2 {
				f[3]++
			}
		}
	}
	return f
}

// doc and notation describe the game in 'tune games'.
const (
	doc      = "noughts and crosses: 3x3, x first, three in a line wins, full board draws"
	notation = "position: nine cells row by row from the top left, x, o or - (start: ---------); " +
		"move: a cell as b2 (file a-c, row 1-3 from the top) or 1-9 row by row"
)
