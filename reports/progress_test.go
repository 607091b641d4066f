package reports

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressModes drives the display as a terminal (a bar redrawn in
// place, with the count, the rate and the note), as plain output (a line
// every N steps and every Line, with a rate only after a stage's first
// second), and quiet (nothing).
func TestProgressModes(t *testing.T) {
	var term bytes.Buffer
	p := NewProgressMode(&term, false, 0, true)
	p.Start("generation 1/3", 10)
	for i := 1; i <= 10; i++ {
		p.Set(i)
	}
	p.Note("best 0.75")
	p.Line("generation 1/3: best 4")
	p.Finish()
	out := term.String()
	for _, want := range []string{"\r", "generation 1/3", "/10", "games", "generation 1/3: best 4\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q: %q", want, out)
		}
	}

	var plain bytes.Buffer
	p = NewProgressMode(&plain, false, 4, false)
	p.Start("match", 10)
	for i := 1; i <= 10; i++ {
		p.Set(i)
	}
	p.Line("done")
	p.Finish()
	lines := strings.Split(strings.TrimSpace(plain.String()), "\n")
	// In a stage's first second its pace is not known: no rate, no time left.
	if len(lines) != 3 || lines[0] != "match: 4/10 games" || lines[2] != "done" {
		t.Errorf("plain output: %q", plain.String())
	}
	plain.Reset()
	p.Start("ladder", 10)
	p.start = p.start.Add(-2 * time.Second) // the stage began two seconds ago
	p.Set(4)
	if line := plain.String(); !strings.HasPrefix(line, "ladder: 4/10 games, ") || !strings.Contains(line, " games/s, ") || !strings.Contains(line, " left") {
		t.Errorf("a line after the stage's first second has no rate and time left: %q", line)
	}
	if strings.Contains(plain.String(), "\r") {
		t.Error("plain output redraws in place")
	}

	var quiet bytes.Buffer
	p = NewProgressMode(&quiet, true, 1, true)
	p.Start("x", 3)
	p.Set(1)
	p.Line("y")
	p.Finish()
	if quiet.Len() != 0 {
		t.Errorf("quiet output: %q", quiet.String())
	}
	if IsTerminal(&quiet) {
		t.Error("a buffer is not a terminal")
	}
}
