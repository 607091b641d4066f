package othello

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/gametune/gametune/games"
)

// Moves are encoded as the square plus one (a1 = 1 ... h8 = 64); the pass is
// PassMove.
const PassMove games.Move = 65

// StartNotation is the start position: d4 and e5 white, d5 and e4 black,
// black (X) to move.
const StartNotation = "---------------------------OX------XO--------------------------- X"

// maxHistory bounds the moves of one game: 60 discs and a pass before each.
const maxHistory = 128

// zobrist holds a random key per colour and square, and one for the side;
// zobristFlip[s] is zobrist[0][s]^zobrist[1][s], what turning the disc on s
// changes.
var zobrist [2][64]uint64
var zobristSide uint64
var zobristFlip [64]uint64

func init() {
	rng := rand.New(rand.NewPCG(0x07e110, 0xd15c))
	for c := range zobrist {
		for s := range zobrist[c] {
			zobrist[c][s] = rng.Uint64()
		}
	}
	zobristSide = rng.Uint64()
	for s := range zobristFlip {
		zobristFlip[s] = zobrist[0][s] ^ zobrist[1][s]
	}
}

// undo is what Undo restores: the position before a move.
type undo struct {
	discs [2]Bitboard
	hash  uint64
	legal Bitboard
}

// Position is an Othello position: the discs of each colour as bitboards.
// Black (X) is games.First, white (O) games.Second.
type Position struct {
	discs [2]Bitboard // black, white
	turn  games.Side
	hash  uint64
	// legal holds the legal moves of the side to move, kept by Parse, Play
	// and Undo: Moves lists them, and the evaluators count them without
	// generating them again at the leaves the search has just listed.
	legal   Bitboard
	history [maxHistory]undo
	n       int
	// memo keeps SolveEnd's results (endmemo.go), nil until the first;
	// a clone starts without.
	memo *endMemo
}

// Start returns the start position.
func Start() *Position {
	p, _ := Parse(StartNotation)
	return p
}

func (p *Position) computeHash() uint64 {
	var h uint64
	for c := 0; c < 2; c++ {
		for b := p.discs[c]; b != 0; b &= b - 1 {
			h ^= zobrist[c][bits.TrailingZeros64(b)]
		}
	}
	if p.turn == games.Second {
		h ^= zobristSide
	}
	return h
}

// mine and theirs are the discs of the side to move and of its opponent.
func (p *Position) mine() Bitboard   { return p.discs[p.turn] }
func (p *Position) theirs() Bitboard { return p.discs[1-p.turn] }

// Empties counts the empty squares.
func (p *Position) Empties() int { return 64 - popcount(p.discs[0]|p.discs[1]) }

// MovesLeft estimates the moves the side to move still plays: half the
// empty squares, and the one it is about to play (games.Pacer).
func (p *Position) MovesLeft() int { return p.Empties()/2 + 1 }

// ForcedPass returns the pass and true when the side to move has no legal
// move and the game goes on (games.Passer).
func (p *Position) ForcedPass() (games.Move, bool) {
	if p.legal != 0 || legalMoves(p.theirs(), p.mine()) == 0 {
		return 0, false
	}
	return PassMove, true
}

// Discs returns the disc counts of black and white.
func (p *Position) Discs() (black, white int) {
	return popcount(p.discs[0]), popcount(p.discs[1])
}

// final is the outcome of a game neither side can continue.
func (p *Position) final() games.Outcome {
	b, w := p.Discs()
	switch {
	case b > w:
		return games.FirstWins
	case w > b:
		return games.SecondWins
	}
	return games.Draw
}

// Moves lists the legal moves; a side with none passes when the opponent
// can move, and the game is over when neither can.
func (p *Position) Moves(dst []games.Move) ([]games.Move, games.Outcome) {
	dst = dst[:0]
	m := p.legal
	if m == 0 {
		if legalMoves(p.theirs(), p.mine()) == 0 {
			return dst, p.final()
		}
		return append(dst, PassMove), games.Ongoing
	}
	if cap(dst) < 64 {
		for ; m != 0; m &= m - 1 {
			dst = append(dst, games.Move(bits.TrailingZeros64(m)+1))
		}
		return dst, games.Ongoing
	}
	// Room for every square: written through an array, without a bounds
	// check a move.
	n := popcount(m)
	squares := (*[64]games.Move)(dst[:64])
	for i := 0; m != 0; i++ {
		squares[i&63] = games.Move(bits.TrailingZeros64(m) + 1)
		m &= m - 1
	}
	return dst[:n], games.Ongoing
}

// Noisy returns no moves: Othello has no captures to resolve.
func (p *Position) Noisy(dst []games.Move) []games.Move { return dst[:0] }

// Play makes move m (a square or the pass), and generates the moves of
// the side to move next.
func (p *Position) Play(m games.Move) {
	u := &p.history[p.n]
	u.discs, u.hash, u.legal = p.discs, p.hash, p.legal
	p.n++
	me := p.turn & 1
	p.turn = me ^ 1
	p.hash ^= zobristSide
	if m != PassMove {
		p.place(me, int(m-1))
	}
	p.legal = legalMoves(p.discs[me^1], p.discs[me])
}

// place puts a disc of side me on square sq and turns the discs it
// outflanks.
func (p *Position) place(me games.Side, sq int) {
	mine, theirs := p.discs[me], p.discs[me^1]
	f := flips(mine, theirs, sq)
	p.discs[me], p.discs[me^1] = mine|f|1<<sq, theirs&^f
	h := p.hash ^ zobrist[me][sq]
	for ; f != 0; f &= f - 1 {
		h ^= zobristFlip[bits.TrailingZeros64(f)]
	}
	p.hash = h
}

// Undo takes back the last move.
func (p *Position) Undo() {
	p.n--
	u := &p.history[p.n]
	p.discs, p.hash, p.legal = u.discs, u.hash, u.legal
	p.turn ^= 1
}

func (p *Position) Hash() uint64     { return p.hash }
func (p *Position) Turn() games.Side { return p.turn }
func (p *Position) Ply() int         { return p.n }

func (p *Position) Clone() games.Position {
	c := *p
	c.memo = nil
	return &c
}

// PliesLeft bounds the plies left when at most ExactEmpties squares are
// empty (each disc move may be preceded by a pass), so that the engine
// solves the endgame exactly; otherwise -1.
func (p *Position) PliesLeft() int {
	if e := p.Empties(); e <= ExactEmpties {
		return 2 * e
	}
	return -1
}

// ExactEmpties is the number of empty squares at or below which the engine
// searches to the end of the game. A searcher with engine.Options.NoExact
// set never does.
const ExactEmpties = 12

// OrderHint ranks corners first (a positive hint: before killers), then, at
// nodes three or more plies above the horizon, the other moves by the
// mobility they leave the opponent (fewest first) and the positional table;
// nearer the leaves by the positional table alone (X-squares last).
func (p *Position) OrderHint(m games.Move, depth int) int32 {
	h := squareHints[m]
	if depth < 3 || m == PassMove || h == cornerHint {
		return h
	}
	sq := int(m - 1)
	me, them := p.mine(), p.theirs()
	f := flips(me, them, sq)
	reply := popcount(legalMoves(them&^f, me|f|1<<sq))
	return int32(-16*reply) + h
}

// cornerHint is the hint of a corner move.
const cornerHint = 1000

// squareHints[m] is the part of OrderHint that depends on the move alone:
// cornerHint for a corner, a quarter of the positional table less 20 for
// another square, 0 for the pass (and for the unused move 0).
var squareHints = func() (h [PassMove + 1]int32) {
	for sq, w := range squareWeights {
		h[sq+1] = int32(w/4 - 20)
		if cornerMask&(1<<sq) != 0 {
			h[sq+1] = cornerHint
		}
	}
	return h
}()

// String writes the 64 squares from a1 to h8, X black, O white, - empty, a
// space and the side to move.
func (p *Position) String() string {
	var b strings.Builder
	b.Grow(66)
	for s := 0; s < 64; s++ {
		b.WriteByte(p.squareChar(s))
	}
	b.WriteByte(' ')
	b.WriteString(sideChar(p.turn))
	return b.String()
}

func (p *Position) squareChar(s int) byte {
	switch {
	case p.discs[0]&(1<<s) != 0:
		return 'X'
	case p.discs[1]&(1<<s) != 0:
		return 'O'
	}
	return '-'
}

func sideChar(s games.Side) string {
	if s == games.First {
		return "X"
	}
	return "O"
}

// Draw shows the board with coordinates, the side to move and the discs.
func (p *Position) Draw() string { return p.draw(0) }

// DrawWithMoves shows the board with the legal moves marked by a dot.
func (p *Position) DrawWithMoves() string { return p.draw(legalMoves(p.mine(), p.theirs())) }

func (p *Position) draw(marks Bitboard) string {
	var b strings.Builder
	b.WriteString("    a b c d e f g h\n")
	for r := 0; r < 8; r++ {
		fmt.Fprintf(&b, "  %d", r+1)
		for f := 0; f < 8; f++ {
			s := r*8 + f
			c := p.squareChar(s)
			if c == '-' {
				c = '.'
				if marks&(1<<s) != 0 {
					c = '*'
				}
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	black, white := p.Discs()
	name := "black (X)"
	if p.turn == games.Second {
		name = "white (O)"
	}
	fmt.Fprintf(&b, "  X %d, O %d; %s to move\n", black, white, name)
	return b.String()
}

// FormatMove writes a square as "d3" or the pass as "pass".
func (p *Position) FormatMove(m games.Move) string {
	if m == PassMove {
		return "pass"
	}
	return squareName(int(m - 1))
}

func squareName(s int) string {
	return string([]byte{byte('a' + s%8), byte('1' + s/8)})
}

// ParseMove reads a square (case-insensitive, file then rank) or "pass".
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	legal := legalMoves(p.mine(), p.theirs())
	if t == "pass" {
		if legal != 0 {
			return 0, fmt.Errorf("othello: cannot pass: %d moves are legal (e.g. %s)", popcount(legal), squareName(bits.TrailingZeros64(legal)))
		}
		if legalMoves(p.theirs(), p.mine()) == 0 {
			return 0, fmt.Errorf("othello: the game is over")
		}
		return PassMove, nil
	}
	if len(t) != 2 || t[0] < 'a' || t[0] > 'z' || t[1] < '0' || t[1] > '9' {
		return 0, fmt.Errorf("othello: move %q is not a square like d3 (files a-h, ranks 1-8) or pass", s)
	}
	if t[0] > 'h' || t[1] < '1' || t[1] > '8' {
		return 0, fmt.Errorf("othello: square %q is off the board (files a-h, ranks 1-8)", s)
	}
	sq := int(t[1]-'1')*8 + int(t[0]-'a')
	switch {
	case (p.discs[0]|p.discs[1])&(1<<sq) != 0:
		return 0, fmt.Errorf("othello: square %s is taken", t)
	case legal&(1<<sq) == 0 && legal == 0 && legalMoves(p.theirs(), p.mine()) != 0:
		return 0, fmt.Errorf("othello: %s flips nothing; you have no move and must pass", t)
	case legal&(1<<sq) == 0:
		return 0, fmt.Errorf("othello: %s flips nothing (a move must outflank at least one disc)", t)
	}
	return games.Move(sq + 1), nil
}

// Parse reads a position: 64 characters from a1 to h8 (X black, O white, -
// or . empty), a space and the side to move (X or O). Boards that no game
// reaches are rejected with games.ErrUnreachable: an empty centre square, or
// a disc cut off from the others.
func Parse(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return nil, fmt.Errorf("othello: position %q: want 64 squares a1..h8 (X, O or -), a space and the side to move (X or O)", s)
	}
	board := fields[0]
	if len(board) != 64 {
		return nil, fmt.Errorf("othello: the board has %d characters, want 64 (a1..h8, rank 1 first)", len(board))
	}
	p := &Position{}
	for i := 0; i < 64; i++ {
		switch board[i] {
		case 'X', 'x', '*':
			p.discs[0] |= 1 << i
		case 'O', 'o':
			p.discs[1] |= 1 << i
		case '-', '.':
		default:
			return nil, fmt.Errorf("othello: character %d (square %s) is %q, want X, O or -", i+1, squareName(i), board[i])
		}
	}
	switch strings.ToUpper(fields[1]) {
	case "X", "B":
		p.turn = games.First
	case "O", "W":
		p.turn = games.Second
	default:
		return nil, fmt.Errorf("othello: side to move %q, want X (black) or O (white)", fields[1])
	}
	if err := reachable(p.discs[0] | p.discs[1]); err != nil {
		return nil, err
	}
	p.hash = p.computeHash()
	p.legal = legalMoves(p.mine(), p.theirs())
	return p, nil
}

// centre holds d4, e4, d5 and e5, the squares occupied at the start.
const centre Bitboard = 1<<27 | 1<<28 | 1<<35 | 1<<36

// reachable checks what every game keeps true of the occupied squares:
// discs never leave, so the four centre squares stay occupied; and each disc
// is placed next to a disc it flips, so every disc joins the centre through
// neighbouring discs (in any of the eight directions).
func reachable(occupied Bitboard) error {
	if occupied&centre != centre {
		var empty []string
		for c := centre &^ occupied; c != 0; c &= c - 1 {
			empty = append(empty, squareName(bits.TrailingZeros64(c)))
		}
		what := "square " + empty[0] + " is"
		if len(empty) > 1 {
			what = "squares " + strings.Join(empty, ", ") + " are"
		}
		return games.Unreachable("othello: centre %s empty; d4, e4, d5 and e5 hold discs from the start and discs never leave the board", what)
	}
	joined := centre
	for {
		next := (joined | neighbours(joined)) & occupied
		if next == joined {
			break
		}
		joined = next
	}
	if stray := occupied &^ joined; stray != 0 {
		return games.Unreachable("othello: the disc on %s is cut off from the centre; every disc is played next to another, so all discs join d4-e5 through neighbouring discs", squareName(bits.TrailingZeros64(stray)))
	}
	return nil
}

// Perft counts the leaves depth plies ahead, the last ply in bulk.
func (p *Position) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	return perft(p.mine(), p.theirs(), depth, false)
}

// perft counts from discs me (to move) and them; passed says the previous
// ply was a pass.
func perft(me, them Bitboard, depth int, passed bool) uint64 {
	moves := legalMoves(me, them)
	if moves == 0 {
		if passed {
			return 0 // neither side can move: the game ended a ply ago
		}
		if legalMoves(them, me) == 0 {
			return 0
		}
		if depth == 1 {
			return 1
		}
		return perft(them, me, depth-1, true)
	}
	if depth == 1 {
		return uint64(popcount(moves))
	}
	if depth == 2 {
		return lastTwoPlies(me, them, moves)
	}
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(me, them, sq)
		n += perft(them&^f, me|f|1<<sq, depth-1, false)
	}
	return n
}

// lastTwoPlies counts the leaves two plies below a position with discs me
// (to move, with the moves moves) and them, the last ply in bulk: the moves
// of each reply, or its one pass, or nothing when the game is over. flips
// and legalMoves are written out here, as the compiler does not inline
// them: with the rank's flips by shifts, perft from the start runs about
// 10% faster than with the two calls a move (legalMoves' share about 1%).
func lastTwoPlies(me, them, moves Bitboard) uint64 {
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		l := &squareLines[sq&63]
		f, r := sq&7, (sq>>3)&7
		flipped := rankFlipsOf(me, them, sq) |
			lineFlipsOf(me, them, l.file, l.fileGather, l.fileScatter, r) |
			lineFlipsOf(me, them, l.diagonal, fileA, fileA, f) |
			lineFlipsOf(me, them, l.antidiagonal, fileA, fileA, f)
		p, o := them&^flipped, me|flipped|1<<sq
		oh := o & innerSquares
		east := (oh + (p<<1)&oh) &^ oh
		replies := (east | fillRight(p, oh, 1) |
			fillLeft(p, o, 8) | fillRight(p, o, 8) |
			fillLeft(p, oh, 9) | fillRight(p, oh, 9) |
			fillLeft(p, oh, 7) | fillRight(p, oh, 7)) &^ (p | o)
		if replies != 0 {
			n += uint64(popcount(replies))
		} else if legalMoves(o, p) != 0 {
			n++
		}
	}
	return n
}

// Outcome tells whether the game is over without listing the moves
// (games.Outcomer): Ongoing while either side can move.
func (p *Position) Outcome() games.Outcome {
	if p.legal != 0 || legalMoves(p.theirs(), p.mine()) != 0 {
		return games.Ongoing
	}
	return p.final()
}
