package tournament

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gametune/gametune/games"
)

// RecordWriter writes finished games to a file of records. WriteGame's
// error wraps the writer's (errors.Is finds it).
type RecordWriter interface {
	WriteGame(g games.Game, white, black string, r Record) error
}

// NewRecordWriter returns the game's own record format (PGN for chess) when
// it has one (games.Recorder), one line per game otherwise.
func NewRecordWriter(g games.Game, w io.Writer) RecordWriter {
	if r, ok := g.(games.Recorder); ok {
		return gameRecorder{r, w, new(int)}
	}
	return LineWriter{W: w}
}

type gameRecorder struct {
	r     games.Recorder
	w     io.Writer
	count *int
}

func (g gameRecorder) WriteGame(game games.Game, first, second string, r Record) error {
	*g.count++
	tags := [][2]string{{"Event", "gametune"}, {"Round", fmt.Sprint(*g.count)}, {games.TagFirst, first}, {games.TagSecond, second}, {"Termination", string(r.Reason)}}
	if r.Detail != "" {
		tags = append(tags, [2]string{"TerminationDetails", r.Detail})
	}
	if err := g.r.WriteGame(g.w, tags, r.Opening, r.Moves, r.Outcome); err != nil {
		return fmt.Errorf("tournament: writing game %d: %w", *g.count, err)
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

// RecordFile is a new file of records: every game written as it finishes
// (NewRecordWriter's format), the file synced when it is closed.
type RecordFile struct {
	RecordWriter
	f      *os.File
	closed bool
}

// CreateRecordFile creates path for the records of games of g. It never
// overwrites a file: an existing one is an error wrapping os.ErrExist.
func CreateRecordFile(path string, g games.Game) (*RecordFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return &RecordFile{RecordWriter: NewRecordWriter(g, f), f: f}, nil
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
