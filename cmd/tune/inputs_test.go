package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/learn"
	"github.com/gametune/gametune/results"
)

// TestFilesReadRefuseSpecialFiles (issue 57): every file a command reads
// (weights, books, positions, configs, params, engines files, run folders'
// files) is refused at once when it is a named pipe: no command waits for a
// writer that never comes. Each command runs as a process of its own; it
// must end by itself with a usage error naming the pipe (each used to stay
// blocked in open() until SIGKILL). A directory or a device where a file
// is wanted is refused the same way, and so is a pipe given as the games
// file to write (--games-out), which open() would wait on for a reader.
func TestFilesReadRefuseSpecialFiles(t *testing.T) {
	bin := buildTune(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// A run whose database is a named pipe; a folder of runs holding it.
	run := filepath.Join(dir, "runs", "run")
	if out, err := exec.Command(bin, "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1",
		"--games", "1", "--yardstick-pairs", "0", "--quiet", "--out", run).CombinedOutput(); err != nil {
		t.Fatalf("a small run: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(run, results.DBName))
	if err := syscall.Mkfifo(filepath.Join(run, results.DBName), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name string
		args []string
	}{
		{"report --weights", []string{"report", "--weights", fifo, "--game", "othello"}},
		{"match --openings", []string{"match", "--game", "othello", "--openings", fifo, "--depth", "1", "--pairs", "1"}},
		{"match --openings file=", []string{"match", "--game", "chess", "--openings", "file=" + fifo + " format=bin", "--depth", "1", "--pairs", "1"}},
		{"match --a", []string{"match", "--game", "othello", "--a", fifo, "--depth", "1", "--pairs", "1"}},
		{"match --engines", []string{"match", "--game", "othello", "--engines", fifo, "--depth", "1", "--pairs", "1"}},
		{"tournament --openings", []string{"tournament", "--game", "nim", "--players", "default,default", "--openings", fifo, "--depth", "1", "--pairs", "1"}},
		{"search --weights", []string{"search", "othello", "--weights", fifo, "--depth", "1"}},
		{"play --weights", []string{"play", "nim", "--weights", fifo}},
		{"engine --weights", []string{"engine", "othello", "--weights", fifo}},
		{"export --weights", []string{"export", "--weights", fifo}},
		{"learn --start", []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--start", fifo, "-o", out("l1.gtw")}},
		{"learn --positions", []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--positions", fifo, "-o", out("l2.gtw")}},
		{"run --config", []string{"run", "--config", fifo, "--out", out("r1")}},
		{"run --start", []string{"run", "--game", "nim", "--start", fifo, "--out", out("r2")}},
		{"run --openings", []string{"run", "--game", "nim", "--openings", fifo, "--out", out("r3")}},
		{"run --spsa-params", []string{"run", "--game", "chess", "--algo", "spsa", "--spsa-params", fifo, "--out", out("r4")}},
		{"run --params", []string{"run", "--game", "chess", "--algo", "spsa", "--tune-engine", "cmd=" + bin + ",proto=uci,arg=engine,arg=chess,nodes=100", "--params", fifo, "--out", out("r5")}},
		{"run --positions", []string{"run", "--game", "chess", "--algo", "texel", "--positions", fifo, "--out", out("r6")}},
		{"compare --start", []string{"compare", "--game", "nim", "--start", fifo, "--budget-games", "100", "--out", out("c1")}},
		{"resume --config", []string{"resume", run, "--config", fifo}},
		{"show", []string{"show", run}},
		{"export DIR", []string{"export", run}},
		{"ladder", []string{"ladder", run}},
		{"plot", []string{"plot", run}},
		{"report DIR", []string{"report", run}},
		{"resume", []string{"resume", run}},
		{"runs", []string{"runs", filepath.Dir(run)}},
		{"match --games-out", []string{"match", "--game", "nim", "--games-out", fifo, "--depth", "1", "--pairs", "1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := start(t, bin, c.args...)
			select {
			case <-p.done:
			case <-time.After(10 * time.Second):
				p.cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-p.done:
					t.Fatalf("blocked until SIGTERM\nstderr: %s", p.stderr)
				case <-time.After(time.Second):
					t.Fatalf("blocked, and still running a second after SIGTERM\nstderr: %s", p.stderr)
				}
			}
			code, errOut := p.cmd.ProcessState.ExitCode(), p.stderr.String()
			if c.name == "runs" {
				// runs lists what it can and says what it skipped.
				if !strings.Contains(errOut, "named pipe (FIFO)") {
					t.Errorf("exit %d, %q; want the pipe named", code, errOut)
				}
				return
			}
			if code != exitUsage || !strings.Contains(errOut, "is not a regular file: it is a named pipe (FIFO)") {
				t.Errorf("exit %d, %q; want 2 and the pipe refused", code, errOut)
			}
		})
	}
}

// TestHostileFilesEndFast (issue 57): files built to cost hours or all
// memory are refused at once, each by a process of its own: a Polyglot book
// of 64 MiB, 4 million copies of one entry (it loaded for hours, one read
// per copy in each of 4,096 walks); a positions file of 2 million games of
// no moves (565 MB of memory); weights files whose tables would saturate
// every score (int16 at the largest scale a float32 allows, float32 values
// of 3e38), which loaded and lost every game.
func TestHostileFilesEndFast(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB book")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	book := filepath.Join(dir, "repeated.bin")
	entry := make([]byte, 16)
	copy(entry, []byte{0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x00, 0x01}) // the start's key, e2e4, weight 1
	if err := os.WriteFile(book, bytes.Repeat(entry, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.pos")
	if err := os.WriteFile(empty, append([]byte("gametune-games 1 othello 2000000\n"), bytes.Repeat([]byte{0, 2}, 2_000_000)...), 0o644); err != nil {
		t.Fatal(err)
	}
	ints, floats := saturatingWeights(t, dir)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"book of 4M copies", []string{"match", "--game", "chess", "--openings", book, "--depth", "1", "--pairs", "1"},
			"more than 256 entries for one position"},
		{"2M games of no moves", []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--positions", empty, "-o", filepath.Join(dir, "x.gtw")},
			"a game of no moves (every game holds one move or more)"},
		{"int16 at float32's largest scale", []string{"match", "--game", "othello", "--a", ints, "--depth", "1", "--pairs", "1"},
			"(an int16 table needs a scale above 0, at most 1024)"},
		{"float32 3e38", []string{"match", "--game", "othello", "--a", floats, "--depth", "1", "--pairs", "1"},
			"is 3e+38; a table value lies within ±1024, so that no evaluation saturates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t0 := time.Now()
			p := start(t, bin, c.args...)
			code := p.exitCode(t, time.Minute)
			if code != exitUsage || !strings.Contains(p.stderr.String(), c.want) {
				t.Errorf("exit %d, %q; want 2 and %q", code, p.stderr, c.want)
			}
			t.Logf("refused in %v", time.Since(t0).Round(time.Millisecond))
		})
	}
}

// saturatingWeights writes two Othello patterns weights files whose tables
// would saturate every score: int16 tables at the largest scale a float32
// allows, and float32 tables with a value of 3e38.
func saturatingWeights(t *testing.T, dir string) (ints, floats string) {
	t.Helper()
	g, _ := all.Find("othello")
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := games.WriteWeightsWith(&b, g, ev, ev.Defaults(), nil, games.WeightsOptions{Encoding: games.EncodingFloat32}); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	line, data, _ := bytes.Cut(plain, []byte("\n"))
	var h games.TablesHeader
	if err := json.Unmarshal(line, &h); err != nil {
		t.Fatal(err)
	}
	write := func(name string, h games.TablesHeader, data []byte) string {
		line, _ := json.Marshal(h)
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(append(line, '\n'))
		zw.Write(data)
		zw.Close()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	binary.LittleEndian.PutUint32(data[4*7:], math.Float32bits(3e38))
	floats = write("float32.gtw", h, data)
	h16 := h
	h16.Tables = append([]games.TableEncoding(nil), h.Tables...)
	for i := range h16.Tables {
		h16.Tables[i].Encoding, h16.Tables[i].Scale = games.EncodingInt16, math.MaxFloat32/32768
	}
	ints = write("int16.gtw", h16, bytes.Repeat([]byte{0xff, 0x7f}, len(data)/4))
	return ints, floats
}

// TestOutputsCheckedFirst (issue 57): a file a command writes at its end is
// checked before the work: in a folder that does not exist, export -o,
// report -o and match --games-out are refused (exit 2, the folder named)
// before anything is read, drawn or played.
func TestOutputsCheckedFirst(t *testing.T) {
	weights := filepath.Join(t.TempDir(), "patterns.gtw")
	if code, _, errOut := tune(t, "", "export", "--weights", "default:patterns", "--game", "othello", "-o", weights); code != 0 {
		t.Fatal(errOut)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"export -o", []string{"export", "--weights", "default:patterns", "--game", "othello", "-o", "/nonexistent/x.gtw"}},
		{"report -o", []string{"report", "--weights", weights, "--game", "othello", "-o", "/nonexistent/x.html"}},
		{"match --games-out", []string{"match", "--game", "othello", "--depth", "4", "--pairs", "100000", "--games-out", "/nonexistent/g.pgn"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := tune(t, "", c.args...)
			if code != exitUsage || !strings.Contains(errOut, "the folder /nonexistent does not exist (create it first)") || out != "" {
				t.Errorf("exit %d, %q, %q; want 2 and the folder named", code, out, errOut)
			}
		})
	}
}

// TestLongReadsHearSIGTERM (issue 57): a long read looks at its context
// as it goes: SIGTERM in the middle of reading a positions file of 4
// million games (seconds of reading), or a book of 3 million lines sampled
// at random, sent once the command has the file open, ends the command at
// once (within a second on an idle machine) with status 130.
func TestLongReadsHearSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 12 and 66 MiB")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	g, _ := all.Find("othello")
	first, _ := g.Start().Moves(nil)
	var one bytes.Buffer
	if err := learn.WriteGames(&one, g, []learn.Game{{Moves: first[:1], Result: 1}}); err != nil {
		t.Fatal(err)
	}
	_, body, _ := bytes.Cut(one.Bytes(), []byte("\n"))
	store := filepath.Join(dir, "many.pos")
	n := learn.MaxStoreGames
	if err := os.WriteFile(store, append(fmt.Appendf(nil, "gametune-games 1 othello %d\n", n), bytes.Repeat(body, n)...), 0o644); err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "many.txt")
	if err := os.WriteFile(book, bytes.Repeat([]byte("moves: f5 d6 c3 d3 c4\n"), 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		args       []string
	}{
		{"learn --positions", store, []string{"learn", "--game", "othello", "--budget-games", "40", "--depth", "1", "--positions", store, "-o", filepath.Join(dir, "x.gtw")}},
		{"match --openings", book, []string{"match", "--game", "othello", "--openings", "file=" + book + " order=random", "--depth", "1", "--pairs", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := start(t, bin, c.args...)
			// The signal goes once the command reads its file (a fixed delay
			// once sent it before the command could catch it, on a busy
			// machine).
			waitOpen(t, p, c.file)
			sent := time.Now()
			p.cmd.Process.Signal(syscall.SIGTERM)
			code := p.exitCode(t, 30*time.Second)
			// Within a second on an idle machine; the bound is generous so
			// that a busy one passes: what is checked is the status, and
			// that the read did not run to its end (below).
			if took := time.Since(sent); code != exitInterrupted || took > 10*time.Second {
				t.Errorf("exit %d %v after SIGTERM, want 130 at once\nstderr: %s", code, took, p.stderr)
			}
			if strings.Contains(p.stderr.String(), "round 0") {
				t.Errorf("the read was over before SIGTERM (the reads take seconds):\n%s", p.stderr)
			}
		})
	}
}

// waitOpen waits until the process of p has path open (Linux: its
// /proc/PID/fd), so that a signal sent then finds the command running; it
// skips the test where /proc is not there to tell.
func waitOpen(t *testing.T, p *started, path string) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid)
	if _, err := os.Stat(fds); err != nil {
		t.Skipf("no %s to see the file open: %v", fds, err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == path {
				return
			}
		}
	}
	t.Fatalf("the command never opened %s\nstderr: %s", path, p.stderr)
}
