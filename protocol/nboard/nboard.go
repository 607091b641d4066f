// Package nboard reads and writes the messages of the NBoard protocol
// (version 2), which the NBoard Othello GUI speaks to its engines (the GGF
// game records it sends with "set game" are read by the game, a
// games.RecordReader). Both sides use it: `tune engine
// othello --protocol nboard` reads commands and writes answers ("=== F5",
// "pong 3", "status ..."), and a client driving an external engine writes
// commands and reads answers. The messages hold no board: squares stay
// strings such as "F5" and "PA" (pass). Serve is the engine side's loop,
// against the small Engine interface it declares (the search stays with
// the engine).
package nboard

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gametune/gametune/protocol/lines"
)

// Move is a move with what NBoard sends beside it: "F5/1.50/0.2" is F5
// with an evaluation of 1.5 discs, played after 0.2 seconds.
type Move struct {
	Square  string // "F5", or "PA" for a pass
	Eval    float64
	HasEval bool
	Seconds float64
}

// IsPass reports whether the move is a pass ("PA" or "pass", any case).
func (m Move) IsPass() bool {
	return strings.EqualFold(m.Square, "pa") || strings.EqualFold(m.Square, "pass")
}

// The bounds of a move's eval (discs) and time (seconds) ParseMove accepts.
const (
	MaxEval    = 1000
	MaxSeconds = 1e7
)

// ParseMove reads MOVE[/EVAL[/TIME]]; an empty eval or time is zero. The
// eval is from -MaxEval to MaxEval, the time from 0 to MaxSeconds.
func ParseMove(s string) (Move, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) > 3 {
		return Move{}, fmt.Errorf("nboard: move %q: want MOVE[/EVAL[/TIME]]", s)
	}
	m := Move{Square: parts[0]}
	if !m.IsPass() && (len(m.Square) != 2 || !isFile(m.Square[0]) || m.Square[1] < '1' || m.Square[1] > '8') {
		return Move{}, fmt.Errorf("nboard: move %q: want a square A1-H8 or PA (pass)", s)
	}
	number := func(i int, what string) (float64, error) {
		if len(parts) <= i || parts[i] == "" {
			return 0, nil
		}
		lo, hi := float64(-MaxEval), float64(MaxEval)
		if i == 2 {
			lo, hi = 0, MaxSeconds
		}
		v, err := strconv.ParseFloat(parts[i], 64)
		if err != nil || math.IsNaN(v) || v < lo || v > hi {
			return 0, fmt.Errorf("nboard: move %q: %s %q: want a number from %g to %g", s, what, parts[i], lo, hi)
		}
		return v, nil
	}
	var err error
	if m.Eval, err = number(1, "eval"); err != nil {
		return Move{}, err
	}
	m.HasEval = len(parts) > 1 && parts[1] != ""
	if m.Seconds, err = number(2, "time"); err != nil {
		return Move{}, err
	}
	return m, nil
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' || c >= 'A' && c <= 'H' }

// String writes the move as NBoard sends it: "F5", "F5/1.50", "F5/1.50/0.20".
func (m Move) String() string {
	sq := strings.ToUpper(m.Square)
	if m.IsPass() {
		sq = "PA"
	}
	switch {
	case m.Seconds != 0:
		return fmt.Sprintf("%s/%s/%s", sq, formatFloat(m.Eval, m.HasEval), strconv.FormatFloat(m.Seconds, 'f', 2, 64))
	case m.HasEval:
		return sq + "/" + formatFloat(m.Eval, true)
	}
	return sq
}

func formatFloat(v float64, has bool) string {
	if !has {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// BestMove writes the engine's answer to "go": "=== F5/1.50/0.20".
func BestMove(m Move) string { return "=== " + m.String() }

// Search writes a line of thinking output, "search F5-D6 1.50 0 7": the
// principal variation (squares joined by dashes, no spaces), the
// evaluation from the side to move's point of view and the depth.
func Search(pv []string, eval float64, depth int) string {
	sq := make([]string, len(pv))
	for i, s := range pv {
		sq[i] = Move{Square: s}.String()
	}
	return fmt.Sprintf("search %s %.2f 0 %d", strings.Join(sq, "-"), eval, depth)
}

// ErrEmpty is returned for a blank line, which NBoard never sends.
var ErrEmpty = errors.New("nboard: empty line")

// Answer is one line from an engine, as a client reads it.
type Answer struct {
	Kind string // "===", "pong", "status", "search", "set", "learned", "nodestats" or another first word
	Move Move   // for "==="
	Pong int    // for "pong"
	Text string // the rest of the line: the status text, "myname NAME", ...
}

// ParseAnswer reads one line an engine wrote.
func ParseAnswer(line string) (Answer, error) {
	c, ok := lines.Split(line)
	if !ok {
		return Answer{}, ErrEmpty
	}
	a := Answer{Kind: c.Name, Text: c.Rest}
	var err error
	switch c.Name {
	case "===":
		if len(c.Args) == 0 {
			return Answer{}, errors.New("nboard: === without a move")
		}
		// Some engines write "=== d6 -1.00 0.0" rather than the slashes.
		s := c.Args[0]
		if len(c.Args) > 1 && !strings.Contains(s, "/") {
			s = strings.Join(c.Args[:min(3, len(c.Args))], "/")
		}
		if a.Move, err = ParseMove(s); err != nil {
			return Answer{}, err
		}
	case "pong":
		if len(c.Args) != 1 {
			return Answer{}, errors.New("nboard: pong needs one number")
		}
		if a.Pong, err = strconv.Atoi(c.Args[0]); err != nil {
			return Answer{}, fmt.Errorf("nboard: pong %q: not a number", c.Args[0])
		}
	}
	return a, nil
}
