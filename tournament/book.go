package tournament

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/lines"
)

// Book is an openings file and how to read it, in fastchess's words
// (file=PATH format=epd|pgn order=sequential|random start=N plies=N).
type Book struct {
	Path string
	// Format is "epd" (one opening a line: a position in the game's
	// notation, EPD for chess, or "moves: m1 m2 ..."), "pgn" (game records
	// in the game's format: PGN, PDN or GGF; each game's position after
	// Plies plies), "bin" (a book of moves by position: Polyglot for chess;
	// openings are walks of Plies plies, 16 when not given, each book
	// move drawn by its weight from the seed), or "" to tell by the name
	// (.bin) and the content.
	Format string
	Random bool // order=random: a sample of the book in an order drawn from the seed
	Start  int  // the first opening used, from 1 (after shuffling, when Random)
	Plies  int  // records: the plies of each game played out (0: all)
}

// MaxBookOpenings bounds the openings kept from a book: a longer book is
// streamed, and its first MaxBookOpenings openings from Start are kept in
// order, or a uniform sample of them in random order.
const MaxBookOpenings = 250_000

// maxBookLine bounds one line of a book, and maxBookGame one game record.
const (
	maxBookLine = 64 << 10
	maxBookGame = 1 << 20
)

const bookForms = "want PATH or file=PATH [format=epd|pgn|bin] [order=sequential|random] [start=N] [plies=N], separated by spaces or commas"

// ParseBook reads a book spec: a path, or fastchess's words file=PATH,
// format=epd|pgn, order=sequential|random, start=N (from 1) and plies=N.
func ParseBook(spec string) (Book, error) {
	if !strings.Contains(spec, "=") {
		return Book{Path: spec, Start: 1}, nil
	}
	b := Book{Start: 1}
	for _, word := range strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' }) {
		key, value, ok := strings.Cut(word, "=")
		if !ok || value == "" {
			return Book{}, fmt.Errorf("tournament: openings %q: %q is not key=value; %s", spec, word, bookForms)
		}
		switch key {
		case "file":
			b.Path = value
		case "format":
			if value != "epd" && value != "pgn" && value != "bin" {
				return Book{}, fmt.Errorf("tournament: openings %q: format %q; the formats are epd (a position or moves: a line), pgn (game records: PGN, PDN, GGF) and bin (Polyglot)", spec, value)
			}
			b.Format = value
		case "order":
			if value != "random" && value != "sequential" {
				return Book{}, fmt.Errorf("tournament: openings %q: order %q; the orders are sequential and random", spec, value)
			}
			b.Random = value == "random"
		case "start", "plies":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || n > 1<<30 || (key == "start" && n < 1) {
				return Book{}, fmt.Errorf("tournament: openings %q: %s=%s is not a count (start from 1, plies from 0)", spec, key, value)
			}
			if key == "start" {
				b.Start = n
			} else {
				b.Plies = n
			}
		default:
			return Book{}, fmt.Errorf("tournament: openings %q: unknown word %q; %s", spec, key, bookForms)
		}
	}
	if b.Path == "" {
		return Book{}, fmt.Errorf("tournament: openings %q: no file=PATH; %s", spec, bookForms)
	}
	return b, nil
}

// ReadOpenings reads an openings file in order: ReadBook of the file.
func ReadOpenings(path string, g games.Game) ([]string, error) {
	return ReadBook(context.Background(), Book{Path: path, Start: 1}, g, 0, false)
}

// ReadBook reads the openings of a book (a regular file: a named pipe or a
// device is refused at once, files.Open), streaming it: a line file holds
// one position a line in the game's notation (EPD or FEN for chess, its
// operations read past) or "moves: m1 m2 ..." for moves from the start,
// blank lines and lines starting with # skipped; a record file (PGN, PDN,
// GGF: it starts with a tag "[" or a GGF "(;") gives the position each game
// reaches after b.Plies plies. Every opening kept is checked (a game that
// is over is refused) and an error names the line or game. Sequential
// order keeps MaxBookOpenings openings from b.Start; random order keeps a
// uniform sample of MaxBookOpenings drawn from seed, shuffled, then starts
// at b.Start. With asMoves, openings given as moves from the start stay
// moves ("moves: ..."), the form GTP engines need.
func ReadBook(ctx context.Context, b Book, g games.Game, seed uint64, asMoves bool) ([]string, error) {
	f, err := files.Open(b.Path)
	if err != nil {
		return nil, fmt.Errorf("tournament: openings: %w", err)
	}
	defer f.Close()
	format := b.Format
	if format == "bin" || (format == "" && strings.HasSuffix(b.Path, ".bin")) {
		return readMoveBook(ctx, f, b, g, seed, asMoves)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	if format == "" {
		format = "epd"
		if head, _ := r.Peek(4096); isRecords(head) {
			format = "pgn"
		}
	}
	entries := bookEntries{random: b.Random, rng: rand.New(rand.NewPCG(seed, 0x626f6f6b))}
	if format == "pgn" {
		err = readRecordBook(ctx, r, b, g, asMoves, &entries)
	} else {
		err = readLineBook(ctx, r, b.Path, b.Start, &entries)
	}
	if err != nil {
		return nil, err
	}
	if entries.seen == 0 {
		return nil, fmt.Errorf("tournament: %s holds no opening (one position a line, moves: ..., or game records)", b.Path)
	}
	kept := entries.ordered(b.Start)
	if kept == nil {
		return nil, fmt.Errorf("tournament: %s: start=%d, but the book holds %d openings", b.Path, b.Start, entries.seen)
	}
	out := make([]string, len(kept))
	for i, e := range kept {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if e.parsed {
			out[i] = e.text
			continue
		}
		if out[i], err = lineOpening(g, e.text, asMoves); err != nil {
			return nil, fmt.Errorf("tournament: %s:%d: %w", b.Path, e.line, err)
		}
	}
	return out, nil
}

// isRecords tells a file of game records by its first non-blank byte.
func isRecords(head []byte) bool {
	t := strings.TrimSpace(string(head))
	return strings.HasPrefix(t, "[") || strings.HasPrefix(t, "(;")
}

// lineOpening is one line of a line book as an opening: ParseOpening's
// position, or the moves normalized ("moves: m1 m2") when asMoves.
func lineOpening(g games.Game, text string, asMoves bool) (string, error) {
	p, moves, err := readOpening(g, text)
	if err != nil {
		return "", err
	}
	if asMoves && moves != nil {
		return strings.TrimSpace("moves: " + strings.Join(moves, " ")), nil
	}
	return p.String(), nil
}

// bookEntry is one opening of a book: a line to check (with its number),
// or an opening already read from a record.
type bookEntry struct {
	text   string
	line   int
	parsed bool
}

// bookEntries keeps a book's openings as they stream past: the first
// MaxBookOpenings from the start (sequential order; the ones before the
// start are counted, not kept), or a uniform reservoir sample of all.
type bookEntries struct {
	random bool
	rng    *rand.Rand
	seen   int
	kept   []bookEntry
}

func (b *bookEntries) add(e bookEntry, start int) {
	b.seen++
	switch {
	case b.random && len(b.kept) < MaxBookOpenings:
		b.kept = append(b.kept, e)
	case b.random:
		if j := b.rng.IntN(b.seen); j < MaxBookOpenings {
			b.kept[j] = e
		}
	case b.seen >= start && len(b.kept) < MaxBookOpenings:
		b.kept = append(b.kept, e)
	}
}

// full says whether more openings would change nothing kept.
func (b *bookEntries) full() bool { return !b.random && len(b.kept) == MaxBookOpenings }

// ordered returns the kept openings in use order: sequential ones as read
// (nil when the start lies past the book), random ones shuffled and turned
// to start at start.
func (b *bookEntries) ordered(start int) []bookEntry {
	if !b.random {
		if len(b.kept) == 0 {
			return nil
		}
		return b.kept
	}
	if start > len(b.kept) {
		return nil
	}
	b.rng.Shuffle(len(b.kept), func(i, j int) { b.kept[i], b.kept[j] = b.kept[j], b.kept[i] })
	return append(b.kept[start-1:], b.kept[:start-1]...)
}

// readLineBook streams a book of one opening a line.
func readLineBook(ctx context.Context, r *bufio.Reader, path string, start int, entries *bookEntries) error {
	for line := 1; ; line++ {
		text, err := readLine(r)
		if errors.Is(err, io.EOF) && text == "" {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("tournament: %s:%d: %w", path, line, err)
		}
		if line%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if text = strings.TrimSpace(text); text != "" && !strings.HasPrefix(text, "#") {
			entries.add(bookEntry{text: text, line: line}, start)
			if entries.full() {
				return nil
			}
		}
	}
}

// readLine reads one line without its end, refusing one longer than
// maxBookLine (read past, never held).
func readLine(r *bufio.Reader) (string, error) {
	b, long, err := lines.ReadLine(r, maxBookLine)
	if long {
		return "", fmt.Errorf("a line longer than %d bytes: not an opening", maxBookLine)
	}
	return strings.TrimRight(string(b), "\r\n"), err
}

// readRecordBook streams a book of game records, game by game: a game
// starts at a tag line ("[") that follows movetext, or at a GGF "(;".
func readRecordBook(ctx context.Context, r *bufio.Reader, b Book, g games.Game, asMoves bool, entries *bookEntries) error {
	reader, ok := g.(games.RecordReader)
	if !ok {
		return fmt.Errorf("tournament: %s: %s has no game record format; give one opening a line", b.Path, g.Name())
	}
	var game strings.Builder
	number, inMoves := 0, false
	flush := func() error {
		text := strings.TrimSpace(game.String())
		game.Reset()
		inMoves = false
		if text == "" {
			return nil
		}
		number++
		recs, err := reader.ReadGames([]byte(text))
		if err != nil {
			return fmt.Errorf("tournament: %s: game %d: %w", b.Path, number, err)
		}
		for _, rec := range recs {
			op, err := recordOpening(g, rec, b.Plies, asMoves)
			if err != nil {
				return fmt.Errorf("tournament: %s: game %d: %w", b.Path, number, err)
			}
			entries.add(bookEntry{text: op, parsed: true}, b.Start)
		}
		return ctx.Err()
	}
	for {
		line, err := readLine(r)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("tournament: %s: after game %d: %w", b.Path, number, err)
		}
		t := strings.TrimSpace(line)
		if (strings.HasPrefix(t, "[") && inMoves) || strings.HasPrefix(t, "(;") {
			if ferr := flush(); ferr != nil || entries.full() {
				return ferr
			}
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			inMoves = true
		}
		game.WriteString(line)
		game.WriteByte('\n')
		if game.Len() > maxBookGame {
			return fmt.Errorf("tournament: %s: game %d is longer than %d bytes", b.Path, number+1, maxBookGame)
		}
		if errors.Is(err, io.EOF) {
			return flush()
		}
	}
}

// recordOpening is the opening a game record gives: the position after
// plies plies (every ply when 0), which must not be over; as moves from
// the start when asMoves and the record starts there.
func recordOpening(g games.Game, rec games.GameRecord, plies int, asMoves bool) (string, error) {
	if plies > 0 && len(rec.Moves) > plies {
		rec.Moves = rec.Moves[:plies]
	}
	p, moves, err := rec.Replay(g)
	if err != nil {
		return "", err
	}
	if _, o := p.Moves(nil); o != games.Ongoing {
		return "", fmt.Errorf("it ends the game (%s): an opening must leave a game to play", o)
	}
	if !asMoves || rec.Start != g.Start().String() {
		return p.String(), nil
	}
	q := g.Start()
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = q.FormatMove(m)
		q.Play(m)
	}
	return strings.TrimSpace("moves: " + strings.Join(texts, " ")), nil
}

// maxBinOpenings is how many distinct openings a book of moves gives at
// most: walks are drawn until so many differ, or four times as many were
// tried.
const maxBinOpenings = 1024

// readMoveBook draws openings from a book of moves by position (Polyglot):
// walks from the start of b.Plies plies (16 when 0), each move drawn by its
// weight (uniformly when every weight is 0) from a generator seeded from
// seed and the walk's number; a walk stops early where the book has no
// move. Distinct openings are kept in the order drawn, then turned to
// start at b.Start.
func readMoveBook(ctx context.Context, f *os.File, b Book, g games.Game, seed uint64, asMoves bool) ([]string, error) {
	opener, ok := g.(games.BookOpener)
	if !ok {
		return nil, fmt.Errorf("tournament: %s: %s has no book format of moves (format=bin is Polyglot, for chess)", b.Path, g.Name())
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("tournament: openings: %w", err)
	}
	book, err := opener.OpenBook(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("tournament: %s: %w", b.Path, err)
	}
	plies := b.Plies
	if plies == 0 {
		plies = 16
	}
	var out []string
	seen := map[string]bool{}
	for i := 0; i < 4*maxBinOpenings && len(out) < maxBinOpenings; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed, uint64(i)^0x62696e))
		p, moves, err := bookWalk(ctx, g, book, rng, plies)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("tournament: %s: %w", b.Path, err)
		}
		if len(moves) == 0 {
			return nil, fmt.Errorf("tournament: %s has no move for the start position", b.Path)
		}
		op := p.String()
		if asMoves {
			op = "moves: " + strings.Join(moves, " ")
		}
		if !seen[op] {
			seen[op] = true
			out = append(out, op)
		}
	}
	if b.Start > len(out) {
		return nil, fmt.Errorf("tournament: %s: start=%d, but the book gives %d openings", b.Path, b.Start, len(out))
	}
	return append(out[b.Start-1:], out[:b.Start-1]...), nil
}

// bookWalk plays up to plies book moves from the start, each drawn by its
// weight, stopping where the book has none or the next would end the game;
// ctx is checked before each lookup.
func bookWalk(ctx context.Context, g games.Game, book games.MoveBook, rng *rand.Rand, plies int) (games.Position, []string, error) {
	p := g.Start()
	var moves []string
	for range plies {
		if err := ctx.Err(); err != nil {
			return p, moves, err
		}
		choices, err := book.BookMoves(p)
		if err != nil || len(choices) == 0 {
			return p, moves, err
		}
		total := 0
		for _, c := range choices {
			total += c.Weight
		}
		pick := choices[rng.IntN(len(choices))]
		if total > 0 {
			x := rng.IntN(total)
			for _, c := range choices {
				if x < c.Weight {
					pick = c
					break
				}
				x -= c.Weight
			}
		}
		text := p.FormatMove(pick.Move)
		p.Play(pick.Move)
		if _, o := p.Moves(nil); o != games.Ongoing {
			p.Undo()
			return p, moves, nil
		}
		moves = append(moves, text)
	}
	return p, moves, nil
}
