package xboard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the kind of a line an engine writes.
type Kind int

// The kinds of ParseOutput's lines.
const (
	OtherLine       Kind = iota // anything else: tellics, telluser, # comments, hints, echoes
	MoveLine                    // move MOVE, or version 1's "12. ... MOVE"
	FeatureLine                 // feature NAME=VALUE ...
	PongLine                    // pong N
	ResultLine                  // 1-0, 0-1, 1/2-1/2 or *, with a {comment}
	ResignLine                  // resign
	DrawOfferLine               // offer draw
	IllegalMoveLine             // Illegal move[ (REASON)]: MOVE
	ErrorLine                   // Error (TYPE): COMMAND
	ThinkingLine                // DEPTH SCORE TIME NODES PV
)

// Output is one line of an engine's, read by ParseOutput.
type Output struct {
	Kind     Kind
	Move     string    // MoveLine and IllegalMoveLine: the move as written
	Features []Feature // FeatureLine
	Pong     int       // PongLine
	Result   string    // ResultLine: 1-0, 0-1, 1/2-1/2 or *
	Comment  string    // ResultLine: the comment without braces; IllegalMoveLine: the reason; ErrorLine: the rest
	Thinking Thinking  // ThinkingLine
}

// Thinking is a line of an engine's thinking output (after post): the
// depth, the score in centipawns from the engine's side, the time in
// hundredths of a second, the nodes and the principal variation.
type Thinking struct {
	Depth int
	Score int
	Time  time.Duration
	Nodes int64
	PV    string
}

// String writes the line as an engine does: "9 35 120 102345 e2e4 e7e5".
func (t Thinking) String() string {
	s := fmt.Sprintf("%d %d %d %d", t.Depth, t.Score, t.Time/(10*time.Millisecond), t.Nodes)
	if t.PV != "" {
		s += " " + t.PV
	}
	return s
}

// The results an engine may claim, and a GUI send with "result".
const (
	WhiteWins = "1-0"
	BlackWins = "0-1"
	Drawn     = "1/2-1/2"
	Unknown   = "*"
)

// ParseOutput reads one line an engine wrote. A line of a kind it knows
// that is malformed ("move" alone, "pong x", a feature without =) is an
// error, with what could be read (a feature line's pairs before the
// fault); any other line is OtherLine.
func ParseOutput(line string) (Output, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Output{}, nil
	}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
	switch f[0] {
	case "move":
		if len(f) != 2 {
			return Output{}, fmt.Errorf("xboard: %q: want move MOVE", cut(line, 80))
		}
		return Output{Kind: MoveLine, Move: f[1]}, nil
	case "feature":
		fs, err := ParseFeatures(rest)
		return Output{Kind: FeatureLine, Features: fs}, err
	case "pong":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return Output{}, fmt.Errorf("xboard: %q: want pong N", cut(line, 80))
		}
		return Output{Kind: PongLine, Pong: n}, nil
	case WhiteWins, BlackWins, Drawn, Unknown:
		return Output{Kind: ResultLine, Result: f[0], Comment: strings.TrimSuffix(strings.TrimPrefix(rest, "{"), "}")}, nil
	case "resign":
		return Output{Kind: ResignLine}, nil
	case "offer":
		if rest == "draw" {
			return Output{Kind: DrawOfferLine}, nil
		}
	case "Error":
		return Output{Kind: ErrorLine, Comment: rest}, nil
	case "Illegal":
		return illegalMove(line)
	}
	if m, ok := oldMove(f); ok {
		return Output{Kind: MoveLine, Move: m}, nil
	}
	if t, ok := thinking(f); ok {
		return Output{Kind: ThinkingLine, Thinking: t}, nil
	}
	return Output{Kind: OtherLine}, nil
}

// illegalMove reads "Illegal move: MOVE" or "Illegal move (REASON): MOVE".
func illegalMove(line string) (Output, error) {
	text, ok := strings.CutPrefix(strings.TrimSpace(line), "Illegal move")
	if !ok {
		return Output{Kind: OtherLine}, nil
	}
	i := strings.LastIndex(text, ":")
	if i < 0 {
		return Output{}, fmt.Errorf("xboard: %q: want Illegal move: MOVE", cut(line, 80))
	}
	reason := strings.TrimSpace(text[:i])
	reason = strings.TrimSuffix(strings.TrimPrefix(reason, "("), ")")
	return Output{Kind: IllegalMoveLine, Move: strings.TrimSpace(text[i+1:]), Comment: reason}, nil
}

// oldMove reads version 1's move lines, "12. ... e7e5" and "12... e7e5";
// "12. e2e4", an engine's echo of the GUI's move, is none.
func oldMove(f []string) (string, bool) {
	number, dots, ok := strings.Cut(f[0], ".")
	if !ok || !digits(number) {
		return "", false
	}
	switch {
	case dots == ".." && len(f) == 2:
		return f[1], true
	case dots == "" && len(f) == 3 && f[1] == "...":
		return f[2], true
	}
	return "", false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// errNotThinking marks a line that is not a thinking line.
var errNotThinking = errors.New("not a thinking line")

// thinking reads "DEPTH SCORE TIME NODES [PV]": DEPTH may carry one mark
// after its digits (12&, 12.), SCORE a sign.
func thinking(f []string) (Thinking, bool) {
	if len(f) < 4 {
		return Thinking{}, false
	}
	depth := f[0]
	if n := len(depth); n > 1 && !digits(depth[n-1:]) {
		depth = depth[:n-1]
	}
	nums, err := numbers(depth, f[1], f[2], f[3])
	if err != nil || !digits(depth) || nums[0] > 1000 || nums[2] < 0 || nums[2] > MaxSeconds*100 || nums[3] < 0 {
		return Thinking{}, false
	}
	return Thinking{Depth: int(nums[0]), Score: int(nums[1]), Time: time.Duration(nums[2]) * 10 * time.Millisecond,
		Nodes: nums[3], PV: strings.Join(f[4:], " ")}, true
}

// numbers reads whole numbers of at most 15 digits (so that none
// overflows an int on any platform or a Duration in hundredths).
func numbers(words ...string) ([4]int64, error) {
	var out [4]int64
	for i, w := range words {
		if len(strings.TrimLeft(w, "+-")) > 15 || !digits(strings.TrimLeft(w, "+-")) || len(w)-len(strings.TrimLeft(w, "+-")) > 1 {
			return out, errNotThinking
		}
		n, err := strconv.ParseInt(w, 10, 64)
		if err != nil {
			return out, errNotThinking
		}
		out[i] = n
	}
	return out, nil
}
