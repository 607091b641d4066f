package reports

import (
	"fmt"
	"io"
)

// StatusLine shows where a long computation with no count of steps stands
// (tune solve): on a terminal one line rewritten in place, otherwise a
// plain line each time; nothing when quiet.
type StatusLine struct {
	w        io.Writer
	quiet    bool
	terminal bool
	shown    bool
}

// NewStatusLine returns a status line writing to w, rewritten in place
// when terminal.
func NewStatusLine(w io.Writer, quiet, terminal bool) *StatusLine {
	return &StatusLine{w: w, quiet: quiet, terminal: terminal}
}

// Show replaces the status with s.
func (l *StatusLine) Show(s string) {
	if l.quiet {
		return
	}
	if l.terminal {
		fmt.Fprintf(l.w, "\r\x1b[K%s", s)
		l.shown = true
		return
	}
	fmt.Fprintln(l.w, s)
}

// Done ends the line on a terminal, so that what follows starts afresh.
func (l *StatusLine) Done() {
	if l.shown {
		fmt.Fprintln(l.w)
		l.shown = false
	}
}
