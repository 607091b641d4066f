package learn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
)

// A store holds the games of a Set compactly, one block per append (a
// round of self-play):
//
//	gametune-games 1 GAME COUNT\n
//
// a header line naming the format, its version, the game and the number of
// games in the block, then COUNT games, each its number of moves as a
// uvarint, its moves (games.Move values) as uvarints, and one byte, the
// first player's result times two (0 a loss, 1 a draw, 2 a win). An
// Othello game takes about 62 bytes: a million positions in 1 MB.
//
// A block of version 2 holds games with scores (Game.Scores): after each
// game's result byte, one byte, 1 when scores follow and 0 when not, then
// a score per move as a signed varint. A block whose games have no scores
// is written as version 1, so files without scores read in older programs.
//
// Every game holds one move or more: a game of no moves teaches nothing,
// and a file of them (2 bytes each) would hold more games than memory.
//
// Memory: a Set read from a store takes 56 bytes a game (its Game) plus 8
// a move and 4 a score, and while it grows, up to a quarter more for the
// slice of its games: a store of MaxStoreGames one-move games (12 MiB)
// takes under 600 MB; of MaxStoreGames Othello games with scores (60 moves
// each, some 750 MiB), about 3.2 GB.
const (
	storeMagic   = "gametune-games"
	storeVersion = 2
	// MaxStoreFile is the largest store ReadStore reads: 1 GiB, some 17
	// million Othello games without scores.
	MaxStoreFile = 1 << 30
	// MaxStoreGames is the most games ReadStore reads: 4,194,304, some 250
	// million Othello positions (a fit of them replays the games each
	// epoch: FitOptions.MemoryMiB).
	MaxStoreGames = 1 << 22
	// MaxGameMoves bounds the moves of one stored game.
	MaxGameMoves = 100_000
	maxHeader    = 256
	// checkEvery is how many games a read goes between looks at its
	// context.
	checkEvery = 4096
)

// ErrBadStore is wrapped by the errors of a store that does not read.
var ErrBadStore = errors.New("learn: bad positions file")

// WriteGames writes gs, games of g, as one block of a store.
func WriteGames(w io.Writer, g games.Game, gs []Game) error {
	data, err := encodeBlock(g, gs)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func encodeBlock(g games.Game, gs []Game) ([]byte, error) {
	if strings.ContainsAny(g.Name(), " \n") {
		return nil, fmt.Errorf("learn: game name %q has a space or a newline", g.Name())
	}
	version := 1
	for i, game := range gs {
		if len(game.Moves) == 0 {
			return nil, fmt.Errorf("learn: game %d has no move (a store holds games of one move or more)", i)
		}
		if len(game.Moves) > MaxGameMoves {
			return nil, fmt.Errorf("learn: game %d has %d moves (a store holds at most %d)", i, len(game.Moves), MaxGameMoves)
		}
		if game.Scores != nil {
			version = storeVersion
			if err := checkScores(game); err != nil {
				return nil, fmt.Errorf("learn: game %d: %w", i, err)
			}
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %s %d\n", storeMagic, version, g.Name(), len(gs))
	var tmp [binary.MaxVarintLen64]byte
	for i, game := range gs {
		code, ok := resultCode(game.Result)
		if !ok {
			return nil, fmt.Errorf("learn: game %d: result %v (a store holds 0, 0.5 or 1)", i, game.Result)
		}
		b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(game.Moves)))])
		for _, m := range game.Moves {
			b.Write(tmp[:binary.PutUvarint(tmp[:], uint64(m))])
		}
		b.WriteByte(code)
		if version == 1 {
			continue
		}
		if game.Scores == nil {
			b.WriteByte(0)
			continue
		}
		b.WriteByte(1)
		for _, v := range game.Scores {
			b.Write(tmp[:binary.PutVarint(tmp[:], int64(v))])
		}
	}
	return b.Bytes(), nil
}

// storable tells whether v can stand in Game.Scores: NoScore, or at most
// MaxScore in magnitude.
func storable(v int64) bool { return v == NoScore || (v >= -MaxScore && v <= MaxScore) }

// checkScores tells whether a game's scores can be stored: one per move,
// each NoScore or of magnitude at most MaxScore.
func checkScores(g Game) error {
	if len(g.Scores) != len(g.Moves) {
		return fmt.Errorf("%d scores for %d moves (want one per move)", len(g.Scores), len(g.Moves))
	}
	for ply, v := range g.Scores {
		if !storable(int64(v)) {
			return fmt.Errorf("score %d of move %d (want at most %d in magnitude, or NoScore)", v, ply+1, MaxScore)
		}
	}
	return nil
}

func resultCode(r float64) (byte, bool) {
	switch r {
	case 0:
		return 0, true
	case 0.5:
		return 1, true
	case 1:
		return 2, true
	}
	return 0, false
}

// AppendStore appends gs, games of g, to the store at path as one block,
// creating the file when there is none, and syncs it. An existing file must
// be a store of g (its first header is checked; ReadStore checks the rest).
// A crash in the middle of an append leaves a last block that ReadStore
// reports as truncated.
func AppendStore(path string, g games.Game, gs []Game) error {
	data, err := encodeBlock(g, gs)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("learn: %s is not a regular file: a positions file must be one", path)
	}
	head, err := bufio.NewReader(io.LimitReader(f, maxHeader)).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && head == "") {
		f.Close()
		return fmt.Errorf("%w: %s: its first line does not read (%v)", ErrBadStore, path, err)
	}
	if head != "" {
		if _, _, err := parseHeader(strings.TrimSuffix(head, "\n"), g); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("learn: appending to %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("learn: appending to %s: %w", path, err)
	}
	return f.Close()
}

// ReadStore reads the store at path into a Set of g: ReadStoreContext
// without a context.
func ReadStore(path string, g games.Game) (*Set, error) {
	return ReadStoreContext(context.Background(), path, g)
}

// ReadStoreContext reads the store at path (a regular file: a named pipe
// or a device is refused at once; at most MaxStoreFile bytes and
// MaxStoreGames games) into a Set of g: ReadSetContext.
func ReadStoreContext(ctx context.Context, path string, g games.Game) (*Set, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, fmt.Errorf("learn: positions file: %w", err)
	}
	defer f.Close()
	set, err := ReadSetContext(ctx, f, g, MaxStoreFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}

// ReadSet reads a store of g's games from r: ReadSetContext without a
// context.
func ReadSet(r io.Reader, g games.Game, limit int64) (*Set, error) {
	return ReadSetContext(context.Background(), r, g, limit)
}

// ReadSetContext reads a store of g's games from r, at most limit bytes and
// MaxStoreGames games of it: every block, every game's moves checked legal
// from the start. A store of another game, a truncated or oversized one, a
// game of no moves, or one that does not read is an error wrapping
// ErrBadStore that says where. ctx is checked every few thousand games: a
// cancelled read returns ctx's error.
func ReadSetContext(ctx context.Context, r io.Reader, g games.Game, limit int64) (*Set, error) {
	sr := &storeReader{ctx: ctx, r: bufio.NewReader(io.LimitReader(r, limit+1)), limit: limit, game: g}
	set := &Set{Game: g}
	for block := 1; ; block++ {
		done, err := sr.block(block, set)
		if err != nil {
			return nil, err
		}
		if done {
			return set, nil
		}
	}
}

// storeReader reads a store, counting the bytes and the games.
type storeReader struct {
	ctx   context.Context
	r     *bufio.Reader
	off   int64
	limit int64
	games int
	game  games.Game
	legal []games.Move
}

func (s *storeReader) ReadByte() (byte, error) {
	c, err := s.r.ReadByte()
	if err == nil {
		s.off++
		if s.off > s.limit {
			return 0, fmt.Errorf("%w: larger than the limit of %d bytes", ErrBadStore, s.limit)
		}
	}
	return c, err
}

// block reads block number n into set; true at the end of the store.
func (s *storeReader) block(n int, set *Set) (bool, error) {
	start := s.off
	var line []byte
	for {
		c, err := s.ReadByte()
		if errors.Is(err, io.EOF) && len(line) == 0 {
			if n == 1 {
				return false, fmt.Errorf("%w: the file is empty (no header line)", ErrBadStore)
			}
			return true, nil
		}
		if err != nil {
			return false, s.fail(n, start, "header", err)
		}
		if c == '\n' {
			break
		}
		if line = append(line, c); len(line) > maxHeader {
			return false, fmt.Errorf("%w: block %d (byte %d): a header line longer than %d bytes", ErrBadStore, n, start, maxHeader)
		}
	}
	count, version, err := parseHeader(string(line), s.game)
	if err != nil {
		return false, fmt.Errorf("block %d (byte %d): %w", n, start, err)
	}
	if count > MaxStoreGames-s.games {
		return false, fmt.Errorf("%w: block %d (byte %d) brings the games to %d, more than %d, the most read (start a new positions file)", ErrBadStore, n, start, s.games+count, MaxStoreGames)
	}
	for i := 0; i < count; i++ {
		if s.games++; s.games%checkEvery == 0 {
			if err := s.ctx.Err(); err != nil {
				return false, err
			}
		}
		game, err := s.readGame(version)
		if err != nil {
			return false, s.fail(n, start, fmt.Sprintf("game %d of %d", i+1, count), err)
		}
		set.Games = append(set.Games, game)
	}
	return false, nil
}

func (s *storeReader) fail(block int, start int64, what string, err error) error {
	if errors.Is(err, ErrBadStore) {
		return fmt.Errorf("block %d (byte %d): %s: %w", block, start, what, err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &truncatedError{block: block, start: start, end: s.off, what: what}
	}
	return fmt.Errorf("%w: block %d (byte %d): %s: %w", ErrBadStore, block, start, what, err)
}

// truncatedError is the error of a store whose last block ends before its
// games do, as an append cut short by a crash leaves it; start is the byte
// at which that block begins.
type truncatedError struct {
	block      int
	start, end int64
	what       string
}

func (e *truncatedError) Error() string {
	return fmt.Sprintf("%v: truncated: block %d (byte %d) ends in its %s at byte %d", ErrBadStore, e.block, e.start, e.what, e.end)
}

func (e *truncatedError) Unwrap() error { return ErrBadStore }

// parseHeader reads a block's header line and returns its count and its
// version.
func parseHeader(line string, g games.Game) (count, version int, err error) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != storeMagic {
		return 0, 0, fmt.Errorf("%w: header %q: want %q (not a positions file?)", ErrBadStore, clip(line), storeMagic+" 1 GAME COUNT")
	}
	if version, err = strconv.Atoi(f[1]); err != nil || version < 1 || version > storeVersion {
		return 0, 0, fmt.Errorf("%w: version %q (this program reads versions 1 to %d)", ErrBadStore, clip(f[1]), storeVersion)
	}
	if f[2] != g.Name() {
		return 0, 0, fmt.Errorf("%w: games of %q, not of %s", ErrBadStore, clip(f[2]), g.Name())
	}
	count, err = strconv.Atoi(f[3])
	if err != nil || count < 0 {
		return 0, 0, fmt.Errorf("%w: count %q is not a number of games", ErrBadStore, clip(f[3]))
	}
	return count, version, nil
}

// readGame reads one game of a block of version and checks its moves and
// scores.
func (s *storeReader) readGame(version int) (Game, error) {
	n, err := binary.ReadUvarint(s)
	if err != nil {
		return Game{}, err
	}
	if n > MaxGameMoves {
		return Game{}, fmt.Errorf("%w: %d moves (at most %d)", ErrBadStore, n, MaxGameMoves)
	}
	if n == 0 {
		return Game{}, fmt.Errorf("%w: a game of no moves (every game holds one move or more)", ErrBadStore)
	}
	p := s.game.Start()
	moves := make([]games.Move, 0, min(n, 128))
	for ply := range int(n) {
		v, err := binary.ReadUvarint(s)
		if err != nil {
			return Game{}, err
		}
		m := games.Move(v)
		var out games.Outcome
		s.legal, out = p.Moves(s.legal[:0])
		if out != games.Ongoing || !legal(s.legal, m) {
			return Game{}, fmt.Errorf("%w: move %d (%d) is not legal", ErrBadStore, ply+1, v)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	code, err := s.ReadByte()
	if err != nil {
		return Game{}, err
	}
	if code > 2 {
		return Game{}, fmt.Errorf("%w: result byte %d (want 0 a loss, 1 a draw, 2 a win)", ErrBadStore, code)
	}
	g := Game{Moves: moves, Result: float64(code) / 2}
	if version == 1 {
		return g, nil
	}
	g.Scores, err = s.readScores(len(moves))
	return g, err
}

// readScores reads a game's scores flag and, when it is 1, its n scores.
func (s *storeReader) readScores(n int) ([]int32, error) {
	flag, err := s.ReadByte()
	if err != nil || flag == 0 {
		return nil, err
	}
	if flag != 1 {
		return nil, fmt.Errorf("%w: scores byte %d (want 0 none, 1 a score per move)", ErrBadStore, flag)
	}
	scores := make([]int32, n)
	for ply := range scores {
		v, err := binary.ReadVarint(s)
		if err != nil {
			return nil, err
		}
		if !storable(v) {
			return nil, fmt.Errorf("%w: score %d of move %d (at most %d in magnitude)", ErrBadStore, v, ply+1, MaxScore)
		}
		scores[ply] = int32(v)
	}
	return scores, nil
}

// clip shortens a piece of a bad file for a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
