package xboard

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrEmpty is returned for a line with no command on it.
var ErrEmpty = errors.New("xboard: empty line")

// Command is one line from the GUI: its first word, the words after it,
// and the text after the first word as sent (setboard's FEN, option's
// NAME=VALUE, result's comment keep their spaces).
type Command struct {
	Name string
	Args []string
	Rest string
}

// ParseCommand splits a line into its command and arguments; a line with
// no word is ErrEmpty.
func ParseCommand(line string) (Command, error) {
	line = strings.TrimSpace(line)
	f := strings.Fields(line)
	if len(f) == 0 {
		return Command{}, ErrEmpty
	}
	rest := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
	return Command{Name: f[0], Args: f[1:], Rest: rest}, nil
}

// Level is the "level MOVES BASE INC" command: the moves of each time
// control (0: the whole game in one), the time for them, and the
// increment added after each move.
type Level struct {
	Moves     int
	Base      time.Duration
	Increment time.Duration
}

// The bounds of the numbers ParseLevel and ParseCentiseconds accept.
const (
	MaxLevelMoves = 10000
	MaxMinutes    = 1e6 // a level's base: about two years
	MaxSeconds    = 1e9 // an increment, st
)

// String writes the command as xboard does: the base in minutes, or
// minutes:seconds when it is not a whole number of minutes (cut to whole
// seconds), the increment in seconds.
func (l Level) String() string {
	secs := int64(l.Base / time.Second)
	base := strconv.FormatInt(secs/60, 10)
	if secs%60 != 0 {
		base += fmt.Sprintf(":%02d", secs%60)
	}
	return fmt.Sprintf("level %d %s %s", l.Moves, base, strconv.FormatFloat(l.Increment.Seconds(), 'f', -1, 64))
}

// ParseLevel reads the words after "level": MOVES (0 or more), BASE in
// minutes ("5", "0.5") or minutes:seconds ("0:30"), INC in seconds
// ("0", "0.1").
func ParseLevel(args []string) (Level, error) {
	if len(args) != 3 {
		return Level{}, fmt.Errorf("xboard: level %q: want level MOVES BASE INC (level 40 5 0, level 0 0:30 0.1)", strings.Join(args, " "))
	}
	moves, err := strconv.Atoi(args[0])
	if err != nil || moves < 0 || moves > MaxLevelMoves {
		return Level{}, fmt.Errorf("xboard: level moves %q: want 0 (the whole game) to %d", args[0], MaxLevelMoves)
	}
	minutes, secs, hasSecs := strings.Cut(args[1], ":")
	m, err := strconv.ParseFloat(minutes, 64)
	if err != nil || !(m >= 0 && m <= MaxMinutes) || hasSecs && m != math.Trunc(m) {
		return Level{}, fmt.Errorf("xboard: level base %q: want minutes (5) or minutes:seconds (0:30)", args[1])
	}
	base := time.Duration(m * float64(time.Minute))
	if hasSecs {
		s, err := strconv.ParseFloat(secs, 64)
		if err != nil || !(s >= 0 && s < 60) {
			return Level{}, fmt.Errorf("xboard: level base %q: want minutes:seconds, seconds below 60", args[1])
		}
		base += time.Duration(s * float64(time.Second))
	}
	inc, err := ParseSeconds(args[2])
	if err != nil {
		return Level{}, fmt.Errorf("xboard: level increment %q: want seconds (0, 0.1)", args[2])
	}
	return Level{Moves: moves, Base: base, Increment: inc}, nil
}

// ParseSeconds reads a number of seconds, 0 to MaxSeconds (st, a level's
// increment).
func ParseSeconds(s string) (time.Duration, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= MaxSeconds) {
		return 0, fmt.Errorf("xboard: %q: want seconds, 0 to %g", s, float64(MaxSeconds))
	}
	return time.Duration(v * float64(time.Second)), nil
}

// ParseCentiseconds reads the clock of a time or otim command, in
// hundredths of a second; a clock that ran out may be negative.
func ParseCentiseconds(s string) (time.Duration, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < -MaxSeconds*100 || n > MaxSeconds*100 {
		return 0, fmt.Errorf("xboard: clock %q: want hundredths of a second (time 6000 is a minute)", s)
	}
	return time.Duration(n) * 10 * time.Millisecond, nil
}

// Centiseconds writes d for a time or otim command: whole hundredths of a
// second, never below 0.
func Centiseconds(d time.Duration) string {
	return strconv.FormatInt(max(int64(d/(10*time.Millisecond)), 0), 10)
}
