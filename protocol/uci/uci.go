// Package uci reads and writes the messages of the Universal Chess Interface,
// both ways: the commands a GUI sends an engine (position, go, setoption,
// ...) and the lines an engine answers (id, option, info, bestmove). A match
// runner driving an external engine uses it as the GUI; `tune engine` serves
// UCI with Serve, the engine side's loop, against the small Engine interface
// it declares (the search stays with the engine).
//
// Moves stay strings in UCI's long algebraic notation (e2e4, e7e8q, 0000);
// checking them against a position is the caller's business.
package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
)

// ErrEmpty is returned for a line with no command on it.
var ErrEmpty = errors.New("uci: empty line")

// Command is one line from the GUI: its first word and the words after it.
type Command struct {
	Name string
	Args []string
}

// ParseCommand splits a line into words. UCI allows any amount of white
// space between words; a line with none is ErrEmpty.
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Command{}, ErrEmpty
	}
	return Command{Name: f[0], Args: f[1:]}, nil
}

// Position is the "position" command: the start position or a FEN, and the
// moves played from it. Its moves give the engine the game's history
// (repetitions).
type Position struct {
	FEN   string // "" for startpos
	Moves []string
}

// ParsePosition reads the words after "position":
//
//	startpos [moves m1 m2 ...]
//	fen FIELD1 ... FIELD6 [moves m1 m2 ...]
//
// The FEN is kept as written (its fields joined by one space); the caller
// checks it.
func ParsePosition(args []string) (Position, error) {
	if len(args) == 0 {
		return Position{}, errors.New("uci: position needs startpos or fen FEN")
	}
	var p Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
	case "fen":
		i := 0
		for i < len(rest) && rest[i] != "moves" {
			i++
		}
		if i == 0 {
			return Position{}, errors.New("uci: position fen: the FEN is missing")
		}
		p.FEN = strings.Join(rest[:i], " ")
		rest = rest[i:]
	default:
		return Position{}, fmt.Errorf("uci: position %q: want startpos or fen FEN", args[0])
	}
	if len(rest) == 0 {
		return p, nil
	}
	if rest[0] != "moves" {
		return Position{}, fmt.Errorf("uci: position: %q after the position, want moves", rest[0])
	}
	p.Moves = append([]string(nil), rest[1:]...)
	return p, nil
}

// String writes the command, "position startpos moves e2e4".
func (p Position) String() string {
	var b strings.Builder
	b.WriteString("position ")
	if p.FEN == "" {
		b.WriteString("startpos")
	} else {
		b.WriteString("fen ")
		b.WriteString(p.FEN)
	}
	if len(p.Moves) > 0 {
		b.WriteString(" moves ")
		b.WriteString(strings.Join(p.Moves, " "))
	}
	return b.String()
}

// Go is the "go" command. The zero value is a "go" with no limit, which
// engines take as infinite; times are those of the GUI's clocks. Perft is
// Stockfish's "go perft N": count the leaves N plies below, move by move,
// rather than search.
type Go struct {
	SearchMoves []string
	Ponder      bool
	WTime       time.Duration // white's clock; HasClock tells whether any clock was given
	BTime       time.Duration
	WInc        time.Duration
	BInc        time.Duration
	MovesToGo   int
	Depth       int
	Nodes       int64
	Mate        int
	MoveTime    time.Duration
	Infinite    bool
	Perft       int
	clock       bool
}

// HasClock reports whether the command gave wtime or btime.
func (g Go) HasClock() bool { return g.clock }

// SetClock sets both clocks and increments and marks the command as timed.
func (g *Go) SetClock(wtime, btime, winc, binc time.Duration) {
	g.WTime, g.BTime, g.WInc, g.BInc, g.clock = wtime, btime, winc, binc, true
}

// maxMillis bounds the times read (about 11 days): larger values are
// refused rather than overflowing a time.Duration.
const maxMillis = 1 << 40

// The bounds of go's numbers other than times. A depth above the engine's
// own bound (64 plies for gametune) is searched to that bound.
const (
	MaxGoDepth     = 1000
	MaxGoNodes     = 1 << 40
	MaxGoMate      = 500
	MaxGoMovesToGo = 1000
)

// goBounds are the values each number of go accepts, both ends included.
var goBounds = map[string][2]int64{
	"wtime": {-maxMillis, maxMillis}, "btime": {-maxMillis, maxMillis},
	"winc": {-maxMillis, maxMillis}, "binc": {-maxMillis, maxMillis}, "movetime": {0, maxMillis},
	"movestogo": {0, MaxGoMovesToGo}, "depth": {0, MaxGoDepth}, "nodes": {0, MaxGoNodes},
	"mate": {0, MaxGoMate}, "perft": {1, games.MaxPerftDepth},
}

// ParseGo reads the words after "go". Unknown words are an error, so that a
// typo is not silently taken for an infinite search, and so is a number
// out of its bounds (goBounds; the message gives them). Clock times may be
// negative (a GUI's clock that has run over).
func ParseGo(args []string) (Go, error) {
	var g Go
	for i := 0; i < len(args); i++ {
		word := args[i]
		switch word {
		case "infinite":
			g.Infinite = true
			continue
		case "ponder":
			g.Ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) && !goKeyword(args[i+1]) {
				i++
				g.SearchMoves = append(g.SearchMoves, args[i])
			}
			continue
		}
		if !goKeyword(word) {
			return Go{}, fmt.Errorf("uci: go: unknown word %q (want depth, nodes, movetime, wtime, btime, winc, binc, movestogo, mate, infinite, ponder, searchmoves, perft)", word)
		}
		if i+1 >= len(args) {
			return Go{}, fmt.Errorf("uci: go %s: the value is missing", word)
		}
		i++
		bounds := goBounds[word]
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil || n < bounds[0] || n > bounds[1] {
			unit := ""
			if timeWords[word] {
				unit = " ms"
			}
			return Go{}, fmt.Errorf("uci: go %s %q: want an integer from %d to %d%s", word, args[i], bounds[0], bounds[1], unit)
		}
		g.set(word, n)
	}
	return g, nil
}

// timeWords are go's numbers in milliseconds.
var timeWords = map[string]bool{"wtime": true, "btime": true, "winc": true, "binc": true, "movetime": true}

// set stores the number n of word, within its bounds.
func (g *Go) set(word string, n int64) {
	ms := time.Duration(n) * time.Millisecond
	switch word {
	case "wtime":
		g.WTime, g.clock = ms, true
	case "btime":
		g.BTime, g.clock = ms, true
	case "winc":
		g.WInc = ms
	case "binc":
		g.BInc = ms
	case "movestogo":
		g.MovesToGo = int(n)
	case "depth":
		g.Depth = int(n)
	case "nodes":
		g.Nodes = n
	case "mate":
		g.Mate = int(n)
	case "movetime":
		g.MoveTime = ms
	case "perft":
		g.Perft = int(n)
	}
}

func goKeyword(w string) bool {
	if _, ok := goBounds[w]; ok {
		return true
	}
	return w == "infinite" || w == "ponder" || w == "searchmoves"
}

// String writes the command as a GUI sends it.
func (g Go) String() string {
	b := []string{"go"}
	if g.Ponder {
		b = append(b, "ponder")
	}
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	if g.clock {
		b = append(b, "wtime", ms(g.WTime), "btime", ms(g.BTime))
		if g.WInc != 0 || g.BInc != 0 {
			b = append(b, "winc", ms(g.WInc), "binc", ms(g.BInc))
		}
	}
	if g.MovesToGo > 0 {
		b = append(b, "movestogo", strconv.Itoa(g.MovesToGo))
	}
	if g.Depth > 0 {
		b = append(b, "depth", strconv.Itoa(g.Depth))
	}
	if g.Nodes > 0 {
		b = append(b, "nodes", strconv.FormatInt(g.Nodes, 10))
	}
	if g.Mate > 0 {
		b = append(b, "mate", strconv.Itoa(g.Mate))
	}
	if g.MoveTime > 0 {
		b = append(b, "movetime", ms(g.MoveTime))
	}
	if g.Infinite {
		b = append(b, "infinite")
	}
	if g.Perft > 0 {
		b = append(b, "perft", strconv.Itoa(g.Perft))
	}
	if len(g.SearchMoves) > 0 {
		b = append(b, "searchmoves")
		b = append(b, g.SearchMoves...)
	}
	return strings.Join(b, " ")
}

// SetOption is the "setoption" command. Names and values may hold spaces.
type SetOption struct {
	Name  string
	Value string // "" for a button
}

// ParseSetOption reads the words after "setoption": name NAME [value VALUE].
func ParseSetOption(args []string) (SetOption, error) {
	if len(args) == 0 || args[0] != "name" {
		return SetOption{}, errors.New("uci: setoption: want setoption name NAME [value VALUE]")
	}
	i := 1
	for i < len(args) && args[i] != "value" {
		i++
	}
	o := SetOption{Name: strings.Join(args[1:i], " ")}
	if o.Name == "" {
		return SetOption{}, errors.New("uci: setoption: the option name is missing")
	}
	if i < len(args) {
		o.Value = strings.Join(args[i+1:], " ")
	}
	return o, nil
}

// String writes the command.
func (o SetOption) String() string {
	if o.Value == "" {
		return "setoption name " + o.Name
	}
	return "setoption name " + o.Name + " value " + o.Value
}
