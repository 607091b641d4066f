package chess

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
)

// repeatedBook writes a Polyglot book of n copies of one entry, the start
// position's e2e4, between an entry of a smaller key and one of a larger.
func repeatedBook(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "repeated.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	start := PolyglotKey(Start())
	entry := func(key uint64, move uint16) {
		var e [16]byte
		binary.BigEndian.PutUint64(e[:8], key)
		binary.BigEndian.PutUint16(e[8:10], move)
		binary.BigEndian.PutUint16(e[10:12], 1)
		w.Write(e[:])
	}
	e2e4 := uint16(28 | 12<<6)
	entry(start-1, e2e4)
	for range n {
		entry(start, e2e4)
	}
	entry(start+1, e2e4)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func openBookFile(t testing.TB, path string) *PolyglotBook {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenPolyglot(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPolyglotRepeatedEntries: a 64 MiB book of 4 million copies of one
// entry (the start's e2e4) is refused at its first lookup, which reads the
// file 24 times (a binary search, then one read of the position's
// entries) rather than once per entry; MaxPolyglotMoves copies still read.
func TestPolyglotRepeatedEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB book")
	}
	path := repeatedBook(t, 4<<20)
	book := openBookFile(t, path)
	t0 := time.Now()
	_, err := book.Moves(Start())
	took := time.Since(t0)
	if err == nil || !strings.Contains(err.Error(), "more than 256 entries for one position") {
		t.Fatalf("4M copies of one entry: %v; want refused", err)
	}
	if book.reads > 24 {
		t.Errorf("the lookup took %d reads, want at most 24", book.reads)
	}
	t.Logf("64 MiB book of 4M copies refused in %v, %d reads", took, book.reads)
}

func TestPolyglotEntriesBound(t *testing.T) {
	for _, c := range []struct {
		copies int
		ok     bool
	}{{1, true}, {MaxPolyglotMoves, true}, {MaxPolyglotMoves + 1, false}} {
		book := openBookFile(t, repeatedBook(t, c.copies))
		moves, err := book.Moves(Start())
		if c.ok != (err == nil) || (c.ok && len(moves) != c.copies) {
			t.Errorf("%d copies: %d moves, %v", c.copies, len(moves), err)
		}
		if !c.ok && !strings.Contains(err.Error(), "a position has at most 218 legal moves") {
			t.Errorf("%d copies: %v", c.copies, err)
		}
	}
}

// TestPolyglotReadsBound: a position looked up again costs no read; the
// reads of a book are bounded by MaxPolyglotReads, with an error saying so.
func TestPolyglotReadsBound(t *testing.T) {
	book := openBookFile(t, repeatedBook(t, 3))
	if moves, err := book.Moves(Start()); err != nil || len(moves) != 3 {
		t.Fatalf("%d moves, %v", len(moves), err)
	}
	reads := book.reads
	for range 100 {
		book.Moves(Start())
	}
	if book.reads != reads {
		t.Errorf("100 lookups of a position seen took %d reads more, want 0", book.reads-reads)
	}
	book.reads = MaxPolyglotReads
	p := Start()
	m, _ := p.ParseMove("e2e4")
	p.Play(m)
	if _, err := book.Moves(p); err == nil || !strings.Contains(err.Error(), "lookups took more than 2097152 reads") {
		t.Errorf("past the reads' bound: %v", err)
	}
}

// BenchmarkPolyglotRepeatedEntries: the first lookup in a 64 MiB book of 4
// million copies of one entry (refused).
func BenchmarkPolyglotRepeatedEntries(b *testing.B) {
	f := openBookFile(b, repeatedBook(b, 4<<20))
	for b.Loop() {
		book, err := OpenPolyglot(f.r, 16*f.entries)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := book.Moves(Start()); err == nil {
			b.Fatal("accepted")
		}
	}
}

// FuzzPolyglot: a book of any bytes never panics a lookup; what a lookup
// returns is at most MaxPolyglotMoves moves, each legal in the position.
func FuzzPolyglot(f *testing.F) {
	start := Start()
	e4, _ := start.ParseMove("e2e4")
	d4, _ := start.ParseMove("d2d4")
	var good bytes.Buffer
	WritePolyglot(&good, map[string][]games.WeightedMove{StartFEN: {{Move: e4, Weight: 30}, {Move: d4, Weight: 20}}})
	f.Add(good.Bytes())
	repeated, err := os.ReadFile(repeatedBook(f, MaxPolyglotMoves+1))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(repeated)
	f.Add(make([]byte, 16))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		book, err := OpenPolyglot(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		p := Start()
		for range 4 {
			moves, err := book.Moves(p)
			if err != nil || len(moves) == 0 {
				return
			}
			if len(moves) > MaxPolyglotMoves {
				t.Fatalf("%d moves", len(moves))
			}
			legal, _ := p.Moves(nil)
			for _, m := range moves {
				if !containsMove(legal, m.Move) {
					t.Fatalf("move %v is not legal in %s", m.Move, p)
				}
			}
			p.Play(moves[0].Move)
		}
	})
}

func containsMove(moves []games.Move, m games.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
