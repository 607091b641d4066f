// Package kono is Kono, the game known as Pong hau k'i: five
// points a-e joined by the lines a-b, a-e, b-d, b-e, c-d, c-e and d-e; two
// pieces each; a move slides a piece along a line to the one empty point; a
// player who cannot move loses.
//
// Draw rule: the game is drawn when PlyCap plies (40 by default, 20 moves
// each) have been played without a blocked side. The ply count is part of
// the position (and of its hash), so every position's value depends on the
// position alone and the game tree is finite.
package kono

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// Game returns Kono, registered as "kono".
func Game() games.Game { return definition }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("kono", doc, notation, Start, Parse, mobilityEvaluator)

// DefaultPlyCap is the number of plies after which a game is drawn.
const DefaultPlyCap = 40

// maxCap is the largest ply cap the notation accepts.
const maxCap = DefaultPlyCap * 4

// adjacent[p] is the set of points joined to point p by a line.
var adjacent = [5]uint8{
	0: 1<<1 | 1<<4,               // a: b, e
	1: 1<<0 | 1<<3 | 1<<4,        // b: a, d, e
	2: 1<<3 | 1<<4,               // c: d, e
	3: 1<<1 | 1<<2 | 1<<4,        // d: b, c, e
	4: 1<<0 | 1<<1 | 1<<2 | 1<<3, // e: a, b, c, d
}

// Position is a Kono position.
type Position struct {
	pieces  [2]uint8 // points held by the first and the second side
	turn    games.Side
	ply     int // plies played since the start of the game
	cap     int // the draw rule's ply cap
	history [maxCap]games.Move
	n       int
}

// Start returns the start position: the first side on a and d, the second on
// b and c, e empty, the first side to move.
func Start() *Position {
	return &Position{pieces: [2]uint8{1<<0 | 1<<3, 1<<1 | 1<<2}, cap: DefaultPlyCap}
}

func (p *Position) empty() int {
	return bits.TrailingZeros8(^(p.pieces[0] | p.pieces[1]) & 0b11111)
}

// move encodes a slide from point from to point to.
func move(from, to int) games.Move { return games.Move(from*5 + to + 1) }

// Moves lists the slides into the empty point; a blocked side has lost.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	if p.ply >= p.cap {
		return dst, games.Draw
	}
	e := p.empty()
	from := adjacent[e] & p.pieces[p.turn]
	if from == 0 {
		return dst, games.WinFor(p.turn.Other())
	}
	for from != 0 {
		f := bits.TrailingZeros8(from)
		from &= from - 1
		dst = append(dst, move(f, e))
	}
	return dst, games.Ongoing
}

// Noisy returns no moves.
func (p *Position) Noisy(dst []games.Move) []games.Move { return dst[:0] }

func (p *Position) Play(m games.Move) {
	from, to := int(m-1)/5, int(m-1)%5
	p.pieces[p.turn] ^= 1<<from | 1<<to
	p.history[p.n] = m
	p.n++
	p.ply++
	p.turn = p.turn.Other()
}

func (p *Position) Undo() {
	p.n--
	m := p.history[p.n]
	from, to := int(m-1)/5, int(m-1)%5
	p.turn = p.turn.Other()
	p.ply--
	p.pieces[p.turn] ^= 1<<from | 1<<to
}

// Hash identifies the pieces, the side to move and the plies left before
// the draw.
func (p *Position) Hash() uint64 {
	return games.Mix(uint64(p.pieces[0]) | uint64(p.pieces[1])<<5 | uint64(p.turn)<<10 | uint64(p.cap-p.ply)<<11)
}

func (p *Position) Turn() games.Side { return p.turn }
func (p *Position) Ply() int         { return p.n }

func (p *Position) Clone() games.Position {
	c := *p
	return &c
}

func (p *Position) point(i int) byte {
	switch {
	case p.pieces[0]&(1<<i) != 0:
		return 'X'
	case p.pieces[1]&(1<<i) != 0:
		return 'O'
	}
	return '-'
}

// String writes points a to e (X first side, O second, - empty), the side to
// move, and the plies played over the cap: "XOOX- X 0/40".
func (p *Position) String() string {
	var b strings.Builder
	for i := 0; i < 5; i++ {
		b.WriteByte(p.point(i))
	}
	side := "X"
	if p.turn == games.Second {
		side = "O"
	}
	fmt.Fprintf(&b, " %s %d/%d", side, p.ply, p.cap)
	return b.String()
}

// Draw shows the board: a and b on top, e in the middle, c and d below, with
// the lines a-e-d... as the course draws them.
func (p *Position) Draw() string {
	return fmt.Sprintf("  a %c-----%c b\n     \\   /|\n      %c e |\n     /   \\|\n  c %c-----%c d\n  (lines a-b, a-e, b-d, b-e, c-d, c-e, d-e)\n  %s to move, ply %d of %d\n",
		p.point(0), p.point(1), p.point(4), p.point(2), p.point(3), map[games.Side]string{games.First: "X", games.Second: "O"}[p.turn], p.ply, p.cap)
}

// FormatMove writes a slide as "a-e".
func (p *Position) FormatMove(m games.Move) string {
	from, to := int(m-1)/5, int(m-1)%5
	return string(rune('a'+from)) + "-" + string(rune('a'+to))
}

// ParseMove reads a slide as "a-e", "ae" or just the point moved from, "a".
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "")
	if len(t) < 1 || len(t) > 2 || t[0] < 'a' || t[0] > 'e' || (len(t) == 2 && (t[1] < 'a' || t[1] > 'e')) {
		return 0, fmt.Errorf("kono: move %q is not a slide between points a-e (e.g. a-e)", s)
	}
	moves, outcome := p.Moves(nil)
	if outcome != games.Ongoing {
		return 0, fmt.Errorf("kono: the game is over (%s)", outcome)
	}
	from, to := int(t[0]-'a'), p.empty()
	if len(t) == 2 && int(t[1]-'a') != to {
		return 0, fmt.Errorf("kono: %q: a piece can only move to the empty point %c", s, 'a'+to)
	}
	if p.pieces[p.turn]&(1<<from) == 0 {
		return 0, fmt.Errorf("kono: %q: point %c holds no piece of the side to move", s, 'a'+from)
	}
	m := move(from, to)
	for _, legal := range moves {
		if legal == m {
			return m, nil
		}
	}
	return 0, fmt.Errorf("kono: %q: no line joins %c and %c", s, 'a'+from, 'a'+to)
}

// Parse reads five points a-e (X, O or -), the side to move (X or O), and
// optionally plies played and the cap as "P/C"; e.g. "XOOX- X" or
// "OX-XO O 7/40". Without P/C the plies played are the fewest after which
// a game from the start reaches the position, and the cap is
// DefaultPlyCap. Positions that no game reaches (with these plies played)
// are rejected with games.ErrUnreachable.
func Parse(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) < 2 || len(fields) > 3 {
		return nil, fmt.Errorf("kono: position %q: want five points a-e, the side to move and optionally plies/cap, e.g. \"XOOX- X\" or \"XOOX- X 0/40\"", s)
	}
	if len(fields[0]) != 5 {
		return nil, fmt.Errorf("kono: %q has %d points, want 5 (a to e, each X, O or -)", fields[0], len(fields[0]))
	}
	p := &Position{cap: DefaultPlyCap}
	for i := 0; i < 5; i++ {
		switch fields[0][i] {
		case 'X', 'x':
			p.pieces[0] |= 1 << i
		case 'O', 'o':
			p.pieces[1] |= 1 << i
		case '-', '.':
		default:
			return nil, fmt.Errorf("kono: point %c is %q, want X, O or -", 'a'+i, fields[0][i])
		}
	}
	if bits.OnesCount8(p.pieces[0]) != 2 || bits.OnesCount8(p.pieces[1]) != 2 {
		return nil, fmt.Errorf("kono: %q: each side has exactly two pieces", fields[0])
	}
	switch strings.ToUpper(fields[1]) {
	case "X":
		p.turn = games.First
	case "O":
		p.turn = games.Second
	default:
		return nil, fmt.Errorf("kono: side to move %q, want X or O", fields[1])
	}
	if len(fields) == 3 {
		a, b, ok := strings.Cut(fields[2], "/")
		ply, err1 := strconv.Atoi(a)
		limit, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || ply < 0 || limit < 1 || limit > maxCap || ply > limit {
			return nil, fmt.Errorf("kono: %q: want plies played and the cap as P/C with 0 <= P <= C <= %d", fields[2], maxCap)
		}
		p.ply, p.cap = ply, limit
		if games.Side(ply%2) != p.turn {
			return nil, games.Unreachable("kono: %q: after %d plies %s is to move, not %s (X moves first, so X moves after an even number of plies)", s, ply, sideName(games.Side(ply%2)), sideName(p.turn))
		}
		if !reachable[ply].has(arrangement(p.pieces)) {
			hint := ""
			if first := firstReached(p.pieces, p.turn, maxCap); first >= 0 {
				hint = fmt.Sprintf("; it first arises after %d plies", first)
			}
			return nil, games.Unreachable("kono: %q: no game from the start (XOOX- X) reaches %s after %d plies%s", s, fields[0], ply, hint)
		}
		return p, nil
	}
	first := firstReached(p.pieces, p.turn, p.cap)
	if first < 0 {
		return nil, games.Unreachable("kono: %q: no game from the start (XOOX- X) reaches %s with %s to move", s, fields[0], sideName(p.turn))
	}
	p.ply = first
	return p, nil
}

func sideName(s games.Side) string {
	if s == games.First {
		return "X"
	}
	return "O"
}

// arrangement numbers the placement of the pieces: the first side's points
// in the low five bits, the second side's in the next five.
func arrangement(pieces [2]uint8) int { return int(pieces[0]) | int(pieces[1])<<5 }

// arrangements is a set of arrangements.
type arrangements [1 << 10 / 64]uint64

func (a *arrangements) has(k int) bool { return a[k/64]&(1<<(k%64)) != 0 }
func (a *arrangements) add(k int)      { a[k/64] |= 1 << (k % 64) }

// reachable[n] holds the arrangements that some game reaches after exactly n
// plies: 28 of the 30 arrangements arise with each side to move, but not
// at every ply count ("XX-OO" with X to move first arises after 4 plies,
// never with O to move).
var reachable = func() (r [maxCap + 1]arrangements) {
	r[0].add(arrangement(Start().pieces))
	for ply := 0; ply < maxCap; ply++ {
		turn := ply % 2
		for k := 0; k < 1<<10; k++ {
			if !r[ply].has(k) {
				continue
			}
			pieces := [2]uint8{uint8(k & 0b11111), uint8(k >> 5)}
			e := bits.TrailingZeros8(^(pieces[0] | pieces[1]) & 0b11111)
			for from := adjacent[e] & pieces[turn]; from != 0; from &= from - 1 {
				next := pieces
				next[turn] ^= 1<<bits.TrailingZeros8(from) | 1<<e
				r[ply+1].add(arrangement(next))
			}
		}
	}
	return r
}()

// firstReached returns the fewest plies, at most limit, after which a game
// reaches pieces with side turn to move, or -1.
func firstReached(pieces [2]uint8, turn games.Side, limit int) int {
	for ply := int(turn); ply <= limit; ply += 2 {
		if reachable[ply].has(arrangement(pieces)) {
			return ply
		}
	}
	return -1
}

// mobilityEvaluator is the evaluator: moves available to each side.
var mobilityEvaluator = &games.Evaluator{
	Name: "mobility",
	Doc:  "pieces next to the empty point, for each side",
	Features: []games.Feature{
		{Name: "moves-mine", Doc: "moves of the side to move", Default: 1, Min: -5, Max: 5, Step: 0.1},
		{Name: "moves-theirs", Doc: "moves the opponent would have with the same empty point", Default: -1, Min: -5, Max: 5, Step: 0.1},
	},
	Evaluate: func(gp games.Position, w []float64) int {
		mine, theirs := mobilityFeatures(gp.(*Position))
		return int(math.Round(100 * (w[0]*mine + w[1]*theirs)))
	},
	FeatureValues: func(gp games.Position, dst []float64) {
		mine, theirs := mobilityFeatures(gp.(*Position))
		dst[0], dst[1] = 100*mine, 100*theirs
	},
}

func mobilityFeatures(p *Position) (mine, theirs float64) {
	adj := adjacent[p.empty()]
	return float64(bits.OnesCount8(adj & p.pieces[p.turn])), float64(bits.OnesCount8(adj & p.pieces[p.turn.Other()]))
}

// doc and notation describe the game in 'tune games'.
const (
	doc      = "Kono (Pong hau k'i): five points, two pieces each, slide to the empty point; a blocked player loses; drawn after 40 plies"
	notation = "position: points a-e as X, O or -, the side to move, optionally plies/cap (start: XOOX- X 0/40); move: a slide as a-e"
)
