package tournament

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestRecordFile: a file gets one line per game (tic-tac-toe has no record
// format of its own), is appended to when opened again, as cutechess and
// fastchess do, and closes once; a nil file has nothing to close.
func TestRecordFile(t *testing.T) {
	g, _ := all.Find("tictactoe")
	path := filepath.Join(t.TempDir(), "games.txt")
	r := Record{Outcome: games.Draw, Reason: "rule", Opening: "start", Moves: []string{"b2", "a1"}}
	line := "tictactoe | a | b | start | b2 a1 | " + games.Draw.String() + " | rule\n"
	for range 2 {
		f, err := OpenRecordFile(path, g, "-")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.WriteGame(g, "a", "b", r); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Errorf("second close: %v", err)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != line+line {
		t.Errorf("%q, want the line twice", data)
	}
	var none *RecordFile
	if err := none.Close(); err != nil {
		t.Errorf("nil file: %v", err)
	}
}

// chessRecords are two chess games as the referee records them: a mate
// with the movers' words on each move, and a loss on time from a set-up
// position.
func chessRecords() []Record {
	evals := []MoveEval{{Score: 35, Scored: true, Depth: 12, Time: 123 * time.Millisecond}, {Score: -20, Scored: true, Depth: 11, Time: 2 * time.Second},
		{Time: 5 * time.Millisecond}, {Score: 100000, Scored: true, Depth: 3, Time: time.Millisecond}}
	return []Record{
		{Outcome: games.SecondWins, Reason: ByRule, Opening: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}, Evals: evals},
		{Outcome: games.FirstWins, Reason: ByTime, Detail: `sf "x": 120ms over its clock {margin 100ms}`,
			Opening: "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Moves: []string{"e8d7"}, Evals: evals[:1]},
	}
}

// TestPGNRecords: chess records carry the Seven Tag Roster in its order,
// TimeControl, PlyCount and PGN's Termination values, cutechess's move
// comments (score/depth time), SetUp and FEN for a set-up start, and
// gametune's reason with the fault's detail as the last comment.
func TestPGNRecords(t *testing.T) {
	g, _ := all.Find("chess")
	var b bytes.Buffer
	w := newRecordWriter(g, &b, "40/60+0.6").(*gameRecorder)
	w.now = func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
	for _, r := range chessRecords() {
		if err := w.WriteGame(g, "a", `b "the engine"`, r); err != nil {
			t.Fatal(err)
		}
	}
	want := `[Event "gametune"]
[Site "?"]
[Date "2026.11.23"]
[Round "1"]
[White "a"]
[Black "b \"the engine\""]
[Result "0-1"]
[TimeControl "40/60+0.6"]
[PlyCount "4"]
[Termination "normal"]

1. f3 {+0.35/12 0.123s} 1... e5 {-0.20/11 2.000s} 2. g4 {0.005s} 2... Qh4#
{+1000.00/3 0.001s} {rule} 0-1

[Event "gametune"]
[Site "?"]
[Date "2026.11.23"]
[Round "2"]
[White "a"]
[Black "b \"the engine\""]
[Result "1-0"]
[TimeControl "40/60+0.6"]
[PlyCount "1"]
[Termination "time forfeit"]
[TerminationDetails "sf \"x\": 120ms over its clock {margin 100ms}"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]

1... Kd7 {+0.35/12 0.123s}
{time-forfeit: sf "x": 120ms over its clock (margin 100ms)} 1-0

`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// The games read back: the same moves from the same starts.
	read, err := g.(games.RecordReader).ReadGames(b.Bytes())
	if err != nil || len(read) != 2 || len(read[0].Moves) != 4 || read[1].Start != "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1" {
		t.Fatalf("read back: %+v %v", read, err)
	}
	checkWithPGNExtract(t, b.Bytes(), 2)
}

// checkWithPGNExtract has Debian's pgn-extract read the PGN and fails on
// any complaint: every game must be read and matched, nothing else said.
func checkWithPGNExtract(t *testing.T, pgn []byte, n int) {
	t.Helper()
	bin, err := exec.LookPath("pgn-extract")
	if err != nil {
		if bin, err = exec.LookPath("/usr/games/pgn-extract"); err != nil {
			t.Skip("pgn-extract is not installed (Debian package pgn-extract): the PGN is not checked by it")
		}
	}
	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, pgn, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-r", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pgn-extract: %v\n%s", err, out)
	}
	matched := regexp.MustCompile(`^(\d+) games? matched out of (\d+)\.$`)
	seen := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		line = strings.TrimSpace(line)
		switch m := matched.FindStringSubmatch(line); {
		case strings.HasPrefix(line, "Processing "), strings.HasPrefix(line, "a - b"):
		case m != nil:
			seen = true
			if m[1] != m[2] || m[2] != strconv.Itoa(n) {
				t.Errorf("pgn-extract: %s (wrote %d games)", line, n)
			}
		default:
			t.Errorf("pgn-extract says %q\n%s", line, out)
		}
	}
	if !seen {
		t.Errorf("pgn-extract gave no count:\n%s", out)
	}
}
