// Package gtp reads and writes the messages of the Go Text Protocol (version
// 2) as Othello programs speak it (GRhino's gtp-rhino): commands with an
// optional id, and responses "= result" or "? message" ended by an empty
// line. Both sides use it: `tune engine othello --protocol gtp` reads
// commands and writes responses, and a referee driving an external engine
// writes commands and reads responses: Serve is the engine side's loop
// (`tune engine`), against the small Engine interface it declares (the
// search stays with the engine).
package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrEmpty is returned for a line that holds no command once comments and
// white space are removed; GTP says to ignore such lines.
var ErrEmpty = errors.New("gtp: empty line")

// Command is one command: its optional numeric id, its name and arguments.
type Command struct {
	ID    int
	HasID bool
	Name  string
	Args  []string
}

// Clean applies GTP's preprocessing to a line: control characters other
// than tab and newline removed, tabs made spaces, and everything from a '#'
// on dropped.
func Clean(line string) string {
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '#':
			return strings.TrimSpace(b.String())
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// ParseCommand reads one line: [id] name [arguments...].
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(Clean(line))
	if len(f) == 0 {
		return Command{}, ErrEmpty
	}
	var c Command
	if f[0][0] >= '0' && f[0][0] <= '9' {
		id, err := strconv.Atoi(f[0])
		if err != nil || id < 0 {
			return Command{}, fmt.Errorf("gtp: id %q is not a number", f[0])
		}
		c.ID, c.HasID = id, true
		f = f[1:]
		if len(f) == 0 {
			return Command{}, fmt.Errorf("gtp: id %d with no command", id)
		}
	}
	c.Name, c.Args = f[0], f[1:]
	return c, nil
}

// String writes the command as a controller sends it.
func (c Command) String() string {
	parts := append([]string{c.Name}, c.Args...)
	if c.HasID {
		parts = append([]string{strconv.Itoa(c.ID)}, parts...)
	}
	return strings.Join(parts, " ")
}

// Response is the answer to one command: its text (several lines allowed,
// none of them empty) and whether it is an error.
type Response struct {
	ID    int
	HasID bool
	Error bool
	Text  string
}

// Success is the response "= text" to command c.
func Success(c Command, text string) Response {
	return Response{ID: c.ID, HasID: c.HasID, Text: text}
}

// Failure is the response "? message" to command c.
func Failure(c Command, message string) Response {
	return Response{ID: c.ID, HasID: c.HasID, Error: true, Text: message}
}

// String writes the response with the empty line that ends it. Empty lines
// inside the text would end it early and are dropped.
func (r Response) String() string {
	var b strings.Builder
	if r.Error {
		b.WriteByte('?')
	} else {
		b.WriteByte('=')
	}
	if r.HasID {
		b.WriteString(strconv.Itoa(r.ID))
	}
	text := strings.TrimRight(r.Text, "\n")
	first := true
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" && !first {
			continue
		}
		if first {
			if line != "" {
				b.WriteByte(' ')
			}
			first = false
		} else {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	b.WriteString("\n\n")
	return b.String()
}

// maxResponse bounds a response read from an engine: showboard is under a
// KiB, so a megabyte means a runaway engine.
const maxResponse = 1 << 20

// ReadResponse reads one response from an engine: lines up to an empty
// line, the first starting with '=' or '?' (lines before it that are
// empty are skipped). It returns io.EOF when r ends before a response
// starts, io.ErrUnexpectedEOF when it ends inside one.
func ReadResponse(r *bufio.Reader) (Response, error) {
	var lines []string
	size := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			if err == io.EOF && len(lines) > 0 {
				return Response{}, io.ErrUnexpectedEOF
			}
			return Response{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		size += len(line)
		if size > maxResponse {
			return Response{}, fmt.Errorf("gtp: response longer than %d bytes", maxResponse)
		}
		if strings.TrimSpace(line) == "" {
			if len(lines) == 0 {
				continue
			}
			return ParseResponse(strings.Join(lines, "\n"))
		}
		lines = append(lines, line)
		if err == io.EOF {
			return ParseResponse(strings.Join(lines, "\n"))
		}
	}
}

// ParseResponse reads the text of one response, its empty last line left
// off.
func ParseResponse(text string) (Response, error) {
	if text == "" || (text[0] != '=' && text[0] != '?') {
		return Response{}, fmt.Errorf("gtp: response %q does not start with = or ?", firstLine(text))
	}
	r := Response{Error: text[0] == '?'}
	rest := text[1:]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i > 0 {
		id, err := strconv.Atoi(rest[:i])
		if err != nil {
			return Response{}, fmt.Errorf("gtp: response id %q is not a number", rest[:i])
		}
		r.ID, r.HasID = id, true
	}
	r.Text = strings.TrimLeft(rest[i:], " ")
	return r, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Color reads a GTP colour: b, black, w or white, in any case.
func Color(s string) (black bool, err error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return true, nil
	case "w", "white":
		return false, nil
	}
	return false, fmt.Errorf("gtp: colour %q: want black or white", s)
}

// ColorName writes "black" or "white".
func ColorName(black bool) string {
	if black {
		return "black"
	}
	return "white"
}

// IsPass reports whether a vertex is the pass move ("pass", any case).
func IsPass(vertex string) bool { return strings.EqualFold(vertex, "pass") }
