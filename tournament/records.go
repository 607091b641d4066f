package tournament

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
)

// RecordWriter writes finished games to a file of records. WriteGame's
// error wraps the writer's (errors.Is finds it).
type RecordWriter interface {
	WriteGame(g games.Game, white, black string, r Record) error
}

// NewRecordWriter returns the game's own record format (PGN for chess, PDN
// for checkers, GGF for Othello) when it has one (games.Recorder), one line
// per game otherwise, with the PGN TimeControl tag "-" (none).
func NewRecordWriter(g games.Game, w io.Writer) RecordWriter {
	return newRecordWriter(g, w, "-")
}

// newRecordWriter is NewRecordWriter with timeControl the TimeControl
// tag's value.
func newRecordWriter(g games.Game, w io.Writer, timeControl string) RecordWriter {
	if r, ok := g.(games.Recorder); ok {
		return &gameRecorder{r: r, w: w, timeControl: timeControl, now: time.Now}
	}
	return LineWriter{W: w}
}

type gameRecorder struct {
	r           games.Recorder
	w           io.Writer
	count       int
	timeControl string
	now         func() time.Time
}

// WriteGame writes the Seven Tag Roster (the date the game is written),
// the time control, the plies, PGN's Termination, every move's comment
// (score/depth time) and gametune's own reason before the result.
func (g *gameRecorder) WriteGame(game games.Game, first, second string, r Record) error {
	g.count++
	tc := g.timeControl
	if tc == "" {
		tc = "-"
	}
	tags := [][2]string{{"Event", "gametune"}, {"Site", "?"}, {"Date", g.now().Format("2006.01.02")}, {"Round", fmt.Sprint(g.count)},
		{games.TagFirst, first}, {games.TagSecond, second},
		{"TimeControl", tc}, {"PlyCount", fmt.Sprint(len(r.Moves))}, {"Termination", r.Reason.Termination()}}
	if r.Detail != "" {
		tags = append(tags, [2]string{"TerminationDetails", r.Detail})
	}
	text := games.GameText{Tags: tags, Start: r.Opening, Moves: r.Moves, Result: r.Outcome, Note: string(r.Reason)}
	if r.Detail != "" {
		text.Note += ": " + r.Detail
	}
	for _, e := range r.Evals {
		text.Comments = append(text.Comments, e.Comment())
	}
	if err := g.r.WriteGame(g.w, text); err != nil {
		return fmt.Errorf("tournament: writing game %d: %w", g.count, err)
	}
	return nil
}

// LineWriter writes one line per game: the players, the opening, the moves,
// the result and the reason, separated by " | ", and the detail of a loss
// by a fault or on time when there is one.
type LineWriter struct{ W io.Writer }

func (l LineWriter) WriteGame(g games.Game, first, second string, r Record) error {
	detail := ""
	if r.Detail != "" {
		detail = " | " + strings.NewReplacer("\n", " ", "\r", " ").Replace(r.Detail)
	}
	if _, err := fmt.Fprintf(l.W, "%s | %s | %s | %s | %s | %s | %s%s\n", g.Name(), first, second, r.Opening, strings.Join(r.Moves, " "), r.Outcome, r.Reason, detail); err != nil {
		return fmt.Errorf("tournament: writing a game: %w", err)
	}
	return nil
}

// RecordFile is a file of records: every game appended as it finishes
// (NewRecordWriter's format), the file synced when it is closed.
type RecordFile struct {
	RecordWriter
	f      *os.File
	closed bool
}

// OpenRecordFile opens path for the records of games of g, appending to it
// when it exists (as cutechess and fastchess do: nothing in it is lost),
// creating it otherwise; a path that is not a regular file (a named pipe,
// a device) is refused at once (files.CheckAppendable). timeControl is the
// PGN TimeControl tag's value ("-" or "" for none, as when both players
// search to a depth).
func OpenRecordFile(path string, g games.Game, timeControl string) (*RecordFile, error) {
	if err := files.CheckAppendable(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, err
	}
	return &RecordFile{RecordWriter: newRecordWriter(g, f, timeControl), f: f}, nil
}

// TimeControlTag is the PGN TimeControl tag of games between players:
// their clock when they all play on the same one ("40/60", "10+0.1"), "-"
// when none plays on a clock (a depth or node limit), "1/SECONDS" (one
// move in so many seconds) for a fixed time per move, "?" when they differ.
func TimeControlTag(players []Player) string {
	tags := map[string]bool{}
	for _, p := range players {
		tag := "-"
		switch t := p.timing(); {
		case t.TC != nil:
			tag = t.TC.String()
		case t.MoveTime > 0:
			tag = "1/" + strconv.FormatFloat(t.MoveTime.Seconds(), 'f', -1, 64)
		}
		tags[tag] = true
	}
	if len(tags) != 1 {
		return "?"
	}
	for tag := range tags {
		return tag
	}
	return "-"
}

// Close syncs the file to disk and closes it; it may be called again, and
// then does nothing. A nil *RecordFile (no file) has nothing to close.
func (r *RecordFile) Close() error {
	if r == nil || r.closed {
		return nil
	}
	r.closed = true
	if err := r.f.Sync(); err != nil {
		r.f.Close()
		return err
	}
	return r.f.Close()
}
