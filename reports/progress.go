package reports

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress shows how a long command advances: a progress bar with the
// count, the rate, the time left and a note (the generation, the best
// fitness) on a terminal; plain log lines otherwise (a line per Line call,
// and one every Every steps); nothing when quiet.
type Progress struct {
	w        io.Writer
	quiet    bool
	terminal bool
	every    int
	bar      *progressbar.ProgressBar
	label    string
	note     string
	total    int
	done     int
	start    time.Time
	// Interval, when not 0, prints a plain line (not on a terminal) at the
	// first step of each stage and then every Interval, whatever every
	// says, so that a run says how it goes from its first game.
	Interval time.Duration
	lastLine time.Time
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewProgress returns a display writing to w, as a bar when w is a
// terminal. every is how many steps between plain lines when w is not a
// terminal (0: only Line calls).
func NewProgress(w io.Writer, quiet bool, every int) *Progress {
	return NewProgressMode(w, quiet, every, IsTerminal(w))
}

// NewProgressMode is NewProgress with the choice between a bar (terminal)
// and plain lines made by the caller.
func NewProgressMode(w io.Writer, quiet bool, every int, terminal bool) *Progress {
	return &Progress{w: w, quiet: quiet, terminal: terminal, every: every}
}

// Start begins a stage of total steps.
func (p *Progress) Start(label string, total int) {
	p.Finish()
	p.label, p.total, p.done, p.start, p.lastLine = label, total, 0, time.Now(), time.Time{}
	if p.quiet || !p.terminal {
		return
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// Set moves the stage to done steps.
func (p *Progress) Set(done int) {
	p.done = done
	if p.quiet {
		return
	}
	if p.bar != nil {
		p.bar.Set(done)
		return
	}
	switch {
	case done >= p.total || done == 0:
	case p.every > 0 && done%p.every == 0,
		p.Interval > 0 && (p.lastLine.IsZero() || time.Since(p.lastLine) >= p.Interval):
		p.plain(fmt.Sprintf("%d/%d games", done, p.total))
	}
}

// Note changes the bar's description (on a terminal), and is added to
// the plain lines otherwise, until the next Note ("" for none).
func (p *Progress) Note(note string) {
	p.note = note
	if p.bar != nil && !p.quiet {
		p.bar.Describe(p.label + " " + note)
	}
}

// Line prints a line for the record: above the bar on a terminal, as a
// plain line otherwise.
func (p *Progress) Line(s string) {
	if p.quiet {
		return
	}
	if p.bar != nil {
		p.bar.Clear()
		fmt.Fprintln(p.w, s)
		p.bar.RenderBlank()
		p.bar.Set(p.done)
		return
	}
	fmt.Fprintln(p.w, s)
}

func (p *Progress) plain(s string) {
	secs := time.Since(p.start).Seconds()
	if secs < 1 {
		// Too early for the stage's own pace: no rate of a first game or two.
		p.lastLine = time.Now()
		if p.note != "" {
			s += ", " + p.note
		}
		fmt.Fprintf(p.w, "%s: %s\n", p.label, s)
		return
	}
	rate := float64(p.done) / max(secs, 1e-9)
	eta := ""
	if rate > 0 && p.total > p.done {
		left := time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
		eta = fmt.Sprintf(", %s left", left.Round(time.Second))
	}
	if p.note != "" {
		eta += ", " + p.note
	}
	p.lastLine = time.Now()
	fmt.Fprintf(p.w, "%s: %s, %.1f games/s%s\n", p.label, s, rate, eta)
}

// Finish ends the current stage.
func (p *Progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
