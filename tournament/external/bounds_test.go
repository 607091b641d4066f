package external

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// playPool plays specs on a pool of one worker whose engines log to log,
// and returns the records in order.
func playPool(t *testing.T, log *syncBuffer, specs []tournament.GameSpec) []tournament.Record {
	t.Helper()
	pool, err := tournament.NewPool(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pool.SetEngineLog(log)
	var recs []tournament.Record
	err = pool.Run(context.Background(), specs, func(_ int, r tournament.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestStderrBounded (issue 30, item 6): engines that write 4 MB of stderr
// lines, or 1 MB without a newline, before every move leave at most the
// cap in the log for each game, say that the rest was dropped, log the
// start of an endless line, and cost no memory in proportion to what they
// wrote.
func TestStderrBounded(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	lines := enginePlayer(t, "cmd="+bin+",proto=uci,name=lines,depth=1,arg=-stderr-lines,arg=4000000")
	endless := enginePlayer(t, "cmd="+bin+",proto=uci,name=endless,depth=1,arg=-stderr-bytes,arg=1000000")
	before := heapInUse()
	log := &summaryLog{bytes: map[string]int{}, lines: map[string]int{}}
	pool, err := tournament.NewPool(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pool.SetEngineLog(log)
	specs := tournament.MatchSpecs(g, lines, endless, 1, nil, 12, tournament.Adjudication{})
	if err := pool.Run(context.Background(), specs, func(int, tournament.Record) error { return nil }); err != nil {
		t.Fatal(err)
	}
	grown := int64(heapInUse()) - int64(before)
	pool.Close()
	const games = 2
	for _, name := range []string{"lines", "endless"} {
		if n := log.bytes[name]; n > games*(StderrCap+4<<10) {
			t.Errorf("%s: %d bytes in the log over %d games, want at most %d a game", name, n, games, StderrCap)
		}
	}
	text := log.kept.String()
	if !strings.Contains(text, "lines: [more than") {
		t.Errorf("the log does not say that the lines engine's stderr was cut; it ends %q", tail(text))
	}
	if !strings.Contains(text, "endless: xxxxxxxx") || !strings.Contains(text, "[line cut at") {
		t.Errorf("the endless line is not logged cut; the log holds %d bytes of endless", log.bytes["endless"])
	}
	t.Logf("log: lines %d bytes, endless %d; heap grew by %d bytes", log.bytes["lines"], log.bytes["endless"], grown)
	// The same match with quiet engines grows the heap by 3.5 MB (the
	// pool's own); unbounded buffers made it 85 MB.
	if grown > 8<<20 {
		t.Errorf("the heap grew by %d bytes while the engines wrote 12 MB without a newline", grown)
	}
}

// summaryLog is a log that counts the bytes of each engine (named before
// the first ": " of each line) and keeps each line's start and end, so
// that it costs little memory itself.
type summaryLog struct {
	mu    sync.Mutex
	bytes map[string]int
	lines map[string]int
	kept  strings.Builder
}

func (l *summaryLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.SplitAfter(string(p), "\n") {
		name, _, _ := strings.Cut(line, ": ")
		l.bytes[name] += len(line)
		if len(line) > 120 {
			line = line[:60] + "..." + line[len(line)-60:]
		}
		if l.lines[name]++; l.lines[name] <= 100 || strings.Contains(line, "[") {
			l.kept.WriteString(line)
		}
	}
	return len(p), nil
}

func tail(s string) string {
	if len(s) > 300 {
		return s[len(s)-300:]
	}
	return s
}

// TestFaultDetailsRecorded (issue 30, item 14): a stall's detail reaches
// the game record (the PGN) and the engines' log, with the end of the
// engine's stderr; an endless output line is reported as such, not as an
// exit.
func TestFaultDetailsRecorded(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	cases := []struct {
		flags, reason, detail string
	}{
		// The stall limit bounds the handshake too: 3 s, so that an engine
		// slow to start on a busy machine still reaches its stall.
		{"arg=-stall-at,arg=4,stall=3000", "stall", "test: no answer in 3s while searching"},
		{"arg=-crash-at,arg=4", "crash", `crashing on purpose`},
		{"arg=-long-line-at,arg=4", "crash", "test: line longer than 1048576 bytes while searching"},
	}
	for _, tc := range cases {
		t.Run(tc.reason+"/"+tc.flags, func(t *testing.T) {
			var log syncBuffer
			ext := enginePlayer(t, "cmd="+bin+",proto=uci,name=test,depth=1,"+tc.flags)
			recs := playPool(t, &log, []tournament.GameSpec{{Game: g, First: builtin, Second: ext, MaxPlies: 40}})
			r := recs[0]
			if string(r.Reason) != tc.reason || !strings.Contains(r.Detail, tc.detail) {
				t.Errorf("record: %s %q, want %s with %q", r.Reason, r.Detail, tc.reason, tc.detail)
			}
			var pgn bytes.Buffer
			if err := tournament.NewRecordWriter(g, &pgn).WriteGame(g, "builtin", "test", r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(pgn.String(), tc.detail) {
				t.Errorf("the PGN does not hold the detail %q:\n%s", tc.detail, pgn.String())
			}
			if !strings.Contains(log.String(), tc.detail) {
				t.Errorf("the log does not hold the detail %q:\n%s", tc.detail, tail(log.String()))
			}
		})
	}
}

// TestOptionControlCharacters (issue 30, item 10): an option value or name
// with a newline (or any control character) is refused, naming the
// option, from a spec, an engines file or WithOptions; the engine never
// receives the command smuggled in.
func TestOptionControlCharacters(t *testing.T) {
	for _, s := range []string{
		"cmd=e,proto=uci,depth=1,option.pawn=100\nsetoption name Hash value 3000",
		"cmd=e,proto=uci,depth=1,option.pa\rwn=100",
		"cmd=e,proto=uci,depth=1,option.pawn=1\x00",
	} {
		_, err := Parse(s)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "option.pa") || !strings.Contains(err.Error(), "control character") {
			t.Errorf("%q: %v, want ErrSpec naming the option and its control character", s, err)
		}
	}
	en, err := ParseEngines([]byte("- name: e\n  cmd: e\n  proto: uci\n  depth: 1\n  options: {pawn: \"100\\nsetoption name Hash value 3000\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := all.Find("chess")
	if _, _, err := en.Player(context.Background(), g, "e"); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "option.pawn") {
		t.Errorf("engines file: %v, want ErrSpec naming option.pawn", err)
	}

	bin := buildTestEngine(t)
	markProcesses(t)
	received := filepath.Join(t.TempDir(), "received")
	e := mustSpec(t, "cmd="+bin+",proto=uci,name=test,depth=1,arg=-log,arg="+received).WithOptions(Option{"Hash", "16\nsetoption name Hash value 3000"})
	pool, _ := tournament.NewPool(1, 1)
	defer pool.Close()
	ev, _ := games.FindEvaluator(g, "textbook")
	builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	err = pool.Run(context.Background(), []tournament.GameSpec{{Game: g, First: builtin, Second: tournament.Player{Name: "test", Engine: e}, MaxPlies: 4}}, func(int, tournament.Record) error { return nil })
	if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "option.Hash") {
		t.Errorf("a game with the option: %v, want ErrSpec naming option.Hash", err)
	}
	pool.Close()
	got, _ := os.ReadFile(received)
	if strings.Contains(string(got), "value 3000") {
		t.Errorf("the engine received the smuggled command:\n%s", got)
	}
}

// TestEscapedChildKilled (issue 30, item 7): a child the engine started in
// a session of its own (out of its process group) dies with the engine,
// whether the engine crashes or is closed.
func TestEscapedChildKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the engines' supervisor is Linux's")
	}
	bin := buildTestEngine(t)
	for _, flags := range []string{"arg=-crash-at,arg=3", "arg=-crash-at,arg=500"} {
		t.Run(flags, func(t *testing.T) {
			markProcesses(t)
			g, _ := all.Find("chess")
			ext := enginePlayer(t, "cmd="+bin+",proto=uci,name=test,depth=1,arg=-escape,"+flags)
			ev, _ := games.FindEvaluator(g, "textbook")
			builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
			var log syncBuffer
			playPool(t, &log, []tournament.GameSpec{{Game: g, First: builtin, Second: ext, MaxPlies: 10}})
		})
	}
}

// TestEmptyLogRemoved (issue 29): a log no engine wrote to leaves no file;
// one written to is kept.
func TestEmptyLogRemoved(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	l, err := OpenLog("")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "gametune-engines-*")); len(left) > 0 {
		t.Errorf("an empty engines log was left: %v", left)
	}
	l, err = OpenLog("")
	if err != nil {
		t.Fatal(err)
	}
	l.Write([]byte("sf: hello\n"))
	l.Close()
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "gametune-engines-*"))
	if len(left) != 1 {
		t.Fatalf("a written log: files %v, want one", left)
	}
	if b, _ := os.ReadFile(left[0]); string(b) != "sf: hello\n" {
		t.Errorf("the log holds %q", b)
	}
}

// TestStderrLogLinear: the fast check of TestStderrBounded. 64 MiB of
// stderr without a newline, in pipe-sized writes, take no allocation once
// the line is cut, and the log holds the cut line once; lines beyond the
// cap are dropped until the next game.
func TestStderrLogLinear(t *testing.T) {
	var log bytes.Buffer
	s := newStderrLog(&log, "e")
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	s.Write(chunk)
	if allocs := testing.AllocsPerRun(2048, func() { s.Write(chunk) }); allocs != 0 {
		t.Errorf("%v allocations a write of an endless line, want 0", allocs)
	}
	if want := "e: " + strings.Repeat("x", stderrLine) + " [line cut at 4096 bytes]\n"; log.String() != want {
		t.Errorf("log %d bytes, want the cut line once (%d bytes)", log.Len(), len(want))
	}
	s.Write([]byte("\n"))
	log.Reset()
	line := []byte(strings.Repeat("y", 99) + "\n")
	for range 2 * StderrCap / len(line) {
		s.Write(line)
	}
	if log.Len() > StderrCap+200 || !strings.HasSuffix(log.String(), "the rest of the game's is dropped]\n") {
		t.Errorf("2 MiB of lines in a game: %d bytes logged, ending %q", log.Len(), tail(log.String()))
	}
	s.newGame()
	s.Write([]byte("next\n"))
	if !strings.HasSuffix(log.String(), "e: next\n") {
		t.Errorf("the next game's stderr is not logged: %q", tail(log.String()))
	}
	if got := s.lastLine(); got != `"next"` {
		t.Errorf("last line %s, want \"next\"", got)
	}
}
