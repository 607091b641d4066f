package chess

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// StartFEN is the standard start position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

const pieceLetters = "PNBRQK"

func squareName(s int) string { return string([]byte{byte('a' + s%8), byte('1' + s/8)}) }

func parseSquare(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return int(s[1]-'1')*8 + int(s[0]-'a'), true
}

// Parse reads a position in FEN (six fields; the two move counters may be
// left out) or EPD (four fields, then operations, which are ignored) and
// checks that it is a position chess can reach: one king each, kings apart,
// the side not to move not in check, the side to move in check from at most
// two pieces, no pawn on the first or last rank, at most 16 pieces and 8
// pawns a colour, no more promoted pieces than missing pawns (see
// checkMaterial), castling rights whose king and rook stand on their home
// squares, an en-passant square on the third or sixth rank behind a pawn of
// the side not to move that can just have moved two. Positions that break
// these rules are rejected with an error wrapping games.ErrUnreachable.
func Parse(fen string) (*Position, error) {
	f := strings.Fields(fen)
	// EPD: the four board fields followed by operations (`bm Nf3; id
	// "sicilian"; c9 "1-0";`); the hmvc and fmvn operations give the
	// counters. A FEN may carry operations after its counters too.
	var ops string
	if len(f) > 4 {
		_, err4 := strconv.Atoi(f[4])
		_, err5 := strconv.Atoi(f[min(5, len(f)-1)])
		switch {
		case err4 != nil && (len(f) != 6 || strings.Contains(fen, ";")):
			ops, f = strings.Join(f[4:], " "), f[:4]
		case len(f) > 6 && err5 == nil:
			ops, f = strings.Join(f[6:], " "), f[:6]
		}
	}
	if len(f) != 4 && len(f) != 6 {
		return nil, fmt.Errorf("chess: FEN %q has %d fields, want 6 (board, side, castling, en passant, halfmove clock, move number) or the first 4", fen, len(f))
	}
	p := &Position{ep: -1, fullmove: 1, history: make([]undo, 0, 256)}
	for i := range p.kind {
		p.kind[i] = noPiece
	}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		return nil, fmt.Errorf("chess: FEN board %q has %d ranks, want 8 separated by /", f[0], len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		file := 0
		for _, ch := range row {
			switch {
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			case strings.ContainsRune("PNBRQKpnbrqk", ch):
				if file > 7 {
					return nil, fmt.Errorf("chess: FEN rank %d (%q) has more than 8 squares", r+1, row)
				}
				c := white
				if ch >= 'a' {
					c = black
				}
				k := strings.IndexRune(pieceLetters, ch&^0x20)
				p.put(c, k, r*8+file)
				file++
			default:
				return nil, fmt.Errorf("chess: FEN rank %d (%q): %q is not a piece (PNBRQK, pnbrqk) or a count 1-8", r+1, row, ch)
			}
		}
		if file != 8 {
			return nil, fmt.Errorf("chess: FEN rank %d (%q) has %d squares, want 8", r+1, row, file)
		}
	}
	switch f[1] {
	case "w":
		p.turn = white
	case "b":
		p.turn = black
	default:
		return nil, fmt.Errorf("chess: FEN side to move %q, want w or b", f[1])
	}
	for c, name := range []string{"white", "black"} {
		if n := popcount(p.pieces[c][King]); n != 1 {
			return nil, games.Unreachable("chess: FEN has %d %s kings, want exactly 1", n, name)
		}
	}
	if kingAttacks[p.kingSquare(white)]&p.pieces[black][King] != 0 {
		return nil, games.Unreachable("chess: FEN has the kings on adjacent squares")
	}
	if (p.pieces[white][Pawn]|p.pieces[black][Pawn])&(rank1|rank8) != 0 {
		return nil, games.Unreachable("chess: FEN has a pawn on the first or last rank (pawns start on the second and promote on the last)")
	}
	if err := p.checkMaterial(); err != nil {
		return nil, err
	}
	if f[2] != "-" {
		for _, ch := range f[2] {
			var bit uint8
			var king, rook int
			var c int
			switch ch {
			case 'K':
				bit, c, king, rook = castleWK, white, 4, 7
			case 'Q':
				bit, c, king, rook = castleWQ, white, 4, 0
			case 'k':
				bit, c, king, rook = castleBK, black, 60, 63
			case 'q':
				bit, c, king, rook = castleBQ, black, 60, 56
			default:
				return nil, fmt.Errorf("chess: FEN castling %q: %q is not one of KQkq (or - for none)", f[2], ch)
			}
			if p.castling&bit != 0 {
				return nil, fmt.Errorf("chess: FEN castling %q repeats %q", f[2], ch)
			}
			if p.pieces[c][King]&(1<<king) == 0 || p.pieces[c][Rook]&(1<<rook) == 0 {
				return nil, games.Unreachable("chess: FEN castling right %q needs the king on %s and a rook on %s", ch, squareName(king), squareName(rook))
			}
			p.castling |= bit
		}
	}
	if f[3] != "-" {
		s, ok := parseSquare(f[3])
		if !ok {
			return nil, fmt.Errorf("chess: FEN en-passant square %q is not a square (a1-h8) or -", f[3])
		}
		wantRank, pawnSq, fromSq := 5, s-8, s+8 // white to move: black just pushed
		if p.turn == black {
			wantRank, pawnSq, fromSq = 2, s+8, s-8
		}
		if s/8 != wantRank || p.pieces[p.turn^1][Pawn]&(1<<pawnSq) == 0 || p.occupied()&(1<<s|1<<fromSq) != 0 {
			return nil, games.Unreachable("chess: FEN en-passant square %s: no %s pawn can just have moved two squares past it", f[3], map[int]string{white: "white", black: "black"}[p.turn^1])
		}
		p.ep = int8(s)
	}
	if len(f) == 6 {
		hm, err1 := strconv.Atoi(f[4])
		fm, err2 := strconv.Atoi(f[5])
		if err1 != nil || err2 != nil || hm < 0 || fm < 1 {
			return nil, fmt.Errorf("chess: FEN counters %q %q: want a halfmove clock >= 0 and a move number >= 1", f[4], f[5])
		}
		p.halfmove, p.fullmove = hm, fm
	}
	if err := p.epdCounters(ops); err != nil {
		return nil, err
	}
	if p.attacked(p.kingSquare(p.turn^1), p.turn, p.occupied()) {
		return nil, games.Unreachable("chess: FEN: the side not to move is in check (it would have moved out of check)")
	}
	if n := popcount(p.attackersTo(p.kingSquare(p.turn), p.occupied()) & p.colors[p.turn^1]); n > 2 {
		return nil, games.Unreachable("chess: FEN: the side to move is in check from %d pieces; one move gives check from at most two", n)
	}
	p.hash = p.computeHash()
	return p, nil
}

// lightSquares holds b1, d1, ..., a2, c2, ...: the squares of the colour of h1.
const lightSquares Bitboard = 0x55aa55aa55aa55aa

// checkMaterial checks each colour's pieces against what play can give it:
// a colour starts with 16 pieces, 8 of them pawns, and gains a piece only
// by promoting a pawn. The pieces beyond the starting one queen, two rooks,
// two knights and one bishop on each square colour are promoted, so they
// and the pawns left number at most 8.
func (p *Position) checkMaterial() error {
	for c, name := range []string{"white", "black"} {
		own := &p.pieces[c]
		if n := popcount(p.colors[c]); n > 16 {
			return games.Unreachable("chess: FEN has %d %s pieces; a colour starts with 16 and never gains one", n, name)
		}
		pawns := popcount(own[Pawn])
		if pawns > 8 {
			return games.Unreachable("chess: FEN has %d %s pawns; a colour starts with 8 and gains none", pawns, name)
		}
		light, dark := popcount(own[Bishop]&lightSquares), popcount(own[Bishop]&^lightSquares)
		promoted := max(popcount(own[Queen])-1, 0) + max(popcount(own[Rook])-2, 0) +
			max(popcount(own[Knight])-2, 0) + max(light-1, 0) + max(dark-1, 0)
		if pawns+promoted > 8 {
			return games.Unreachable("chess: FEN has %d %s pawns and %d promoted %s pieces (beyond 1 queen, 2 rooks, 2 knights and 1 bishop per square colour); "+
				"each promotion uses up a pawn, so pawns and promoted pieces number at most 8", pawns, name, promoted, name)
		}
	}
	return nil
}

// String writes the position as FEN.
func (p *Position) String() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			s := r*8 + f
			k := p.kind[s]
			if k == noPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			ch := pieceLetters[k]
			if p.colorAt(s) == black {
				ch |= 0x20
			}
			b.WriteByte(ch)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(map[int]string{white: " w ", black: " b "}[p.turn])
	if p.castling == 0 {
		b.WriteByte('-')
	}
	for i, ch := range "KQkq" {
		if p.castling&(1<<i) != 0 {
			b.WriteRune(ch)
		}
	}
	if p.ep >= 0 {
		b.WriteString(" " + squareName(int(p.ep)))
	} else {
		b.WriteString(" -")
	}
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// UCI writes m in UCI notation: e2e4, e7e8q, e1g1 for castling.
func (p *Position) UCI(m games.Move) string {
	s := squareName(mFrom(m)) + squareName(mTo(m))
	if pr := mPromo(m); pr != 0 {
		s += string(pieceLetters[pr] | 0x20)
	}
	return s
}

// FormatMove writes m in SAN: Nf3, exd5, O-O, e8=Q+, Qh4#.
func (p *Position) FormatMove(m games.Move) string {
	san := p.sanBody(m)
	p.Play(m)
	if p.InCheck() {
		// The legal moves, not Moves': a check that repeats a position a
		// third time is a draw, yet no mate.
		if len(p.generate(nil, false)) == 0 {
			san += "#"
		} else {
			san += "+"
		}
	}
	p.Undo()
	return san
}

// sanBody is SAN without the check sign.
func (p *Position) sanBody(m games.Move) string {
	from, to := mFrom(m), mTo(m)
	if mFlag(m) == flagCastle {
		if to > from {
			return "O-O"
		}
		return "O-O-O"
	}
	k := int(p.kind[from])
	capture := p.kind[to] != noPiece || mFlag(m) == flagEnPassant
	var b strings.Builder
	if k == Pawn {
		if capture {
			b.WriteByte(byte('a' + from%8))
		}
	} else {
		b.WriteByte(pieceLetters[k])
		// Disambiguate among the other pieces of the kind that reach to.
		sameFile, sameRank, others := false, false, false
		for _, o := range p.generate(nil, false) {
			of := mFrom(o)
			if mTo(o) != to || of == from || int(p.kind[of]) != k {
				continue
			}
			others = true
			sameFile = sameFile || of%8 == from%8
			sameRank = sameRank || of/8 == from/8
		}
		switch {
		case others && !sameFile:
			b.WriteByte(byte('a' + from%8))
		case others && !sameRank:
			b.WriteByte(byte('1' + from/8))
		case others:
			b.WriteString(squareName(from))
		}
	}
	if capture {
		b.WriteByte('x')
	}
	b.WriteString(squareName(to))
	if pr := mPromo(m); pr != 0 {
		b.WriteByte('=')
		b.WriteByte(pieceLetters[pr])
	}
	return b.String()
}

// ParseMove reads a move in UCI (e2e4, e7e8q) or SAN (Nf3, exd5, e8=Q,
// e8Q, O-O, 0-0-0, with or without x, + and #).
func (p *Position) ParseMove(s string) (games.Move, error) {
	t := strings.TrimSpace(s)
	moves, outcome := p.Moves(nil)
	if outcome != games.Ongoing {
		return 0, fmt.Errorf("chess: the game is over (%s)", outcome)
	}
	// UCI.
	if len(t) == 4 || len(t) == 5 {
		if from, ok1 := parseSquare(t[:2]); ok1 {
			if to, ok2 := parseSquare(t[2:4]); ok2 {
				promo := 0
				if len(t) == 5 {
					promo = strings.IndexByte("pnbrqk", t[4])
					if promo < Knight || promo > Queen {
						return 0, fmt.Errorf("chess: move %q: promotion piece %q, want n, b, r or q", s, t[4])
					}
				}
				for _, m := range moves {
					if mFrom(m) == from && mTo(m) == to && mPromo(m) == promo {
						return m, nil
					}
				}
				return 0, fmt.Errorf("chess: %s is not legal here%s", t, p.why(from, to))
			}
		}
	}
	return p.parseSAN(s, t, moves)
}

// why explains an illegal from-to pair.
func (p *Position) why(from, to int) string {
	switch {
	case p.kind[from] == noPiece:
		return fmt.Sprintf(" (no piece on %s)", squareName(from))
	case p.colorAt(from) != p.turn:
		return fmt.Sprintf(" (the piece on %s is not the side to move's)", squareName(from))
	case p.InCheck():
		return " (the king is in check)"
	}
	return ""
}

func (p *Position) parseSAN(orig, t string, moves []games.Move) (games.Move, error) {
	t = strings.TrimRight(t, "+#!?")
	switch strings.ReplaceAll(t, "0", "O") {
	case "O-O", "O-O-O":
		long := len(t) == 5
		for _, m := range moves {
			if mFlag(m) == flagCastle && (mTo(m) < mFrom(m)) == long {
				return m, nil
			}
		}
		return 0, fmt.Errorf("chess: %s: castling is not legal here", orig)
	}
	body := strings.ReplaceAll(t, "x", "")
	body = strings.ReplaceAll(body, ":", "")
	piece := Pawn
	if body != "" && strings.IndexByte("NBRQK", body[0]) >= 0 {
		piece = strings.IndexByte(pieceLetters, body[0])
		body = body[1:]
	}
	promo := 0
	if i := strings.IndexByte(body, '='); i >= 0 {
		if i+2 != len(body) {
			return 0, fmt.Errorf("chess: move %q: malformed promotion (want e8=Q)", orig)
		}
		promo = strings.IndexByte("PNBRQK", body[i+1])
		body = body[:i]
	} else if n := len(body); n >= 3 && strings.IndexByte("NBRQ", body[n-1]) >= 0 && piece == Pawn {
		promo = strings.IndexByte(pieceLetters, body[n-1])
		body = body[:n-1]
	}
	if promo != 0 && (promo < Knight || promo > Queen) {
		return 0, fmt.Errorf("chess: move %q: a pawn promotes to N, B, R or Q", orig)
	}
	if len(body) < 2 || len(body) > 4 {
		return 0, fmt.Errorf("chess: move %q is neither SAN (Nf3, exd5, e8=Q, O-O) nor UCI (e2e4)", orig)
	}
	to, ok := parseSquare(body[len(body)-2:])
	if !ok {
		return 0, fmt.Errorf("chess: move %q: %q is not a square", orig, body[len(body)-2:])
	}
	fromFile, fromRank := -1, -1
	for _, ch := range body[:len(body)-2] {
		switch {
		case ch >= 'a' && ch <= 'h':
			fromFile = int(ch - 'a')
		case ch >= '1' && ch <= '8':
			fromRank = int(ch - '1')
		default:
			return 0, fmt.Errorf("chess: move %q: %q is not a file or a rank", orig, ch)
		}
	}
	var found []games.Move
	for _, m := range moves {
		from := mFrom(m)
		if mTo(m) != to || int(p.kind[from]) != piece || mPromo(m) != promo ||
			(fromFile >= 0 && from%8 != fromFile) || (fromRank >= 0 && from/8 != fromRank) {
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if piece == Pawn && promo == 0 && (to/8 == 7 || to/8 == 0) {
			return 0, fmt.Errorf("chess: %s: a pawn reaching the last rank must promote (e.g. %s=Q)", orig, squareName(to))
		}
		return 0, fmt.Errorf("chess: %s is not legal here", orig)
	}
	names := make([]string, len(found))
	for i, m := range found {
		names[i] = p.UCI(m)
	}
	return 0, fmt.Errorf("chess: %s is ambiguous (%s): add the file or rank of the piece", orig, strings.Join(names, ", "))
}

// Draw shows the board from White's side with coordinates.
func (p *Position) Draw() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		fmt.Fprintf(&b, "  %d ", r+1)
		for f := 0; f < 8; f++ {
			s := r*8 + f
			ch := byte('.')
			if k := p.kind[s]; k != noPiece {
				ch = pieceLetters[k]
				if p.colorAt(s) == black {
					ch |= 0x20
				}
			}
			b.WriteByte(' ')
			b.WriteByte(ch)
		}
		b.WriteByte('\n')
	}
	b.WriteString("     a b c d e f g h\n")
	side := "white"
	if p.turn == black {
		side = "black"
	}
	fmt.Fprintf(&b, "  %s to move", side)
	if p.InCheck() {
		b.WriteString(", in check")
	}
	b.WriteByte('\n')
	return b.String()
}

// WritePGN writes a whole game in PGN: the Seven Tag Roster then the other
// tags of g (with SetUp and FEN when start is not the standard position),
// the moves in SAN with move numbers and their comments, the note, and the
// result. g's Start and Moves are not read: start and moves are the game.
func WritePGN(w io.Writer, g games.GameText, start *Position, moves []games.Move) error {
	var b strings.Builder
	tags := g.Tags
	if fen := start.String(); fen != StartFEN {
		tags = append(slices.Clip(tags), [2]string{"SetUp", "1"}, [2]string{"FEN", fen})
	}
	games.WriteTags(&b, tags, g.Result.String())
	b.WriteString("\n")
	p := start.Clone().(*Position)
	mt := &games.MoveText{B: &b}
	emit := mt.Emit
	for i, m := range moves {
		if p.turn == white {
			emit(fmt.Sprintf("%d.", p.fullmove))
		} else if i == 0 || g.Comment(i-1) != "" {
			emit(fmt.Sprintf("%d...", p.fullmove))
		}
		emit(p.FormatMove(m))
		if c := g.Comment(i); c != "" {
			mt.Comment(c)
		}
		p.Play(m)
	}
	if g.Note != "" {
		mt.Comment(g.Note)
	}
	emit(g.Result.String())
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// epdCounters reads the halfmove clock and the move number from an EPD
// line's operations, "hmvc N;" and "fmvn N;"; other operations (id, c0-c9,
// bm, am, ...) are kept by nobody.
func (p *Position) epdCounters(ops string) error {
	for op := range strings.SplitSeq(ops, ";") {
		words := strings.Fields(op)
		if len(words) == 0 || (words[0] != "hmvc" && words[0] != "fmvn") {
			continue
		}
		n := -1
		if len(words) == 2 {
			if x, err := strconv.Atoi(words[1]); err == nil {
				n = x
			}
		}
		switch {
		case words[0] == "hmvc" && n >= 0:
			p.halfmove = n
		case words[0] == "fmvn" && n >= 1:
			p.fullmove = n
		default:
			return fmt.Errorf("chess: EPD operation %q: want hmvc N (N >= 0) or fmvn N (N >= 1)", strings.TrimSpace(op))
		}
	}
	return nil
}

// Perft counts the leaves depth plies ahead, the last ply in bulk. As the
// published tables do, it counts moves only: draws by rule do not end the
// tree.
//
// The move lists, one a ply, are borrowed from a pool: games.PerftContext
// calls Perft for every subtree below its walk, often at depth 1 or 2, and
// those calls then allocate nothing.
func (p *Position) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	lists := perftLists.Get(depth)
	n := p.perft(depth, *lists)
	perftLists.Put(lists)
	return n
}

// perftLists holds the move lists Perft borrows.
var perftLists = games.NewMoveLists(256)

// PerftMoves writes into dst[:0] the moves Perft follows: every legal move,
// draws by rule notwithstanding (games.PerftMover).
func (p *Position) PerftMoves(dst []games.Move) []games.Move {
	return p.generate(dst[:0], false)
}

func (p *Position) perft(depth int, bufs [][]games.Move) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.countMoves())
	}
	moves := p.generate(bufs[depth][:0], false)
	bufs[depth] = moves[:0]
	var n uint64
	for _, m := range moves {
		p.Play(m)
		n += p.perft(depth-1, bufs)
		p.Undo()
	}
	return n
}
