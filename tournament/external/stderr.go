package external

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Bounds of an engine's stderr.
const (
	// StderrCap is how much of an engine's stderr reaches the log in one
	// game (its lines with their prefixes); the rest of the game's is
	// dropped, the drop said once in the log.
	StderrCap = 1 << 20
	// stderrLine is the longest stderr line logged whole; a longer one is
	// logged cut, its rest skipped up to its newline.
	stderrLine = 4 << 10
	// stderrTail is how much of the end of an engine's stderr (logged or
	// not) is kept for the fault record.
	stderrTail = 4 << 10
	// detailStderr is how much of the last stderr line a fault's detail
	// quotes.
	detailStderr = 200
)

// logMu serialises the writes of every engine to the logs, so that lines
// never interleave.
var logMu sync.Mutex

// stderrLog is an engine's stderr: its lines written to a log (nil: none)
// after a prefix, at most StderrCap bytes a game, each line at most
// stderrLine bytes; the last stderrTail bytes kept for a fault. Writing
// costs time linear in what is written and memory bounded by the
// constants above, however long the lines.
type stderrLog struct {
	mu     sync.Mutex
	out    io.Writer
	prefix string
	used   int    // bytes logged this game
	capped bool   // the cap was reached this game (and said)
	line   []byte // the line being read, at most stderrLine bytes
	cut    bool   // the line being read is longer than stderrLine
	tail   []byte // the last stderrTail bytes written, in order
}

func newStderrLog(out io.Writer, name string) *stderrLog {
	return &stderrLog{out: out, prefix: name + ": ", line: make([]byte, 0, 256)}
}

// Write takes the next bytes of the engine's stderr; it never fails, so
// that the engine is never blocked by its log.
func (s *stderrLog) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepTail(b)
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		chunk := rest
		if i >= 0 {
			chunk = rest[:i]
		}
		switch room := stderrLine - len(s.line); {
		case s.cut: // the rest of a line logged cut
		case len(chunk) > room:
			s.line = append(s.line, chunk[:room]...)
			s.cut = true
			s.emitLine()
		default:
			s.line = append(s.line, chunk...)
		}
		if i < 0 {
			break
		}
		if !s.cut {
			s.emitLine()
		}
		s.line, s.cut = s.line[:0], false
		rest = rest[i+1:]
	}
	return len(b), nil
}

// keepTail appends b to the tail, keeping its last stderrTail bytes.
func (s *stderrLog) keepTail(b []byte) {
	if len(b) >= stderrTail {
		s.tail = append(s.tail[:0], b[len(b)-stderrTail:]...)
		return
	}
	if over := len(s.tail) + len(b) - stderrTail; over > 0 {
		s.tail = s.tail[:copy(s.tail, s.tail[over:])]
	}
	s.tail = append(s.tail, b...)
}

// emitLine logs the line read (as soon as it is cut, if it is too long),
// within the game's cap.
func (s *stderrLog) emitLine() {
	line := string(s.line)
	if s.cut {
		line += fmt.Sprintf(" [line cut at %d bytes]", stderrLine)
	}
	if s.out == nil || s.capped {
		return
	}
	n := len(s.prefix) + len(line) + 1
	if s.used+n > StderrCap {
		s.capped = true
		s.write(fmt.Sprintf("[more than %d bytes of stderr in this game: the rest of the game's is dropped]", StderrCap))
		return
	}
	s.used += n
	s.write(line)
}

// write logs one line after the prefix.
func (s *stderrLog) write(line string) {
	logMu.Lock()
	defer logMu.Unlock()
	io.WriteString(s.out, s.prefix+line+"\n")
}

// newGame starts a game's allowance of the log.
func (s *stderrLog) newGame() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used, s.capped = 0, false
}

// note logs a line of gametune's about the engine (a fault), outside the
// cap, and, if the engine's stderr was cut in this game, the end of it.
func (s *stderrLog) note(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out == nil {
		return
	}
	s.write(sanitize(line))
	if s.capped && len(s.tail) > 0 {
		s.write("the end of its stderr: " + sanitize(string(s.tail)))
	}
}

// lastLine is the last non-empty line of the engine's stderr, quoted and
// cut to detailStderr bytes ("" when there is none).
func (s *stderrLog) lastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := strings.TrimRight(string(s.tail), "\r\n ")
	if i := strings.LastIndexByte(t, '\n'); i >= 0 {
		t = t[i+1:]
	}
	if t == "" {
		return ""
	}
	if len(t) > detailStderr {
		t = t[len(t)-detailStderr:]
	}
	return fmt.Sprintf("%q", t)
}

// sanitize writes control characters (newlines included) as \xNN, so
// that a note is one line.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&b, `\x%02x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
