package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Option is one "option" line: an engine's setting as the GUI shows it.
type Option struct {
	Name    string
	Type    string // check, spin, combo, button or string
	Default string
	Min     int64 // spin only
	Max     int64 // spin only
	Vars    []string
}

// String writes the line, "option name Hash type spin default 16 min 1 max 65536".
func (o Option) String() string {
	var b strings.Builder
	b.WriteString("option name ")
	b.WriteString(o.Name)
	b.WriteString(" type ")
	b.WriteString(o.Type)
	if o.Type != "button" {
		b.WriteString(" default ")
		b.WriteString(o.Default)
	}
	if o.Type == "spin" {
		fmt.Fprintf(&b, " min %d max %d", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		b.WriteString(" var ")
		b.WriteString(v)
	}
	return b.String()
}

// ParseOption reads the words after "option". Names, defaults and vars may
// hold spaces: a word is a keyword only where UCI puts one.
func ParseOption(args []string) (Option, error) {
	var o Option
	key := ""
	var val []string
	flush := func() error {
		v := strings.Join(val, " ")
		switch key {
		case "name":
			o.Name = v
		case "type":
			o.Type = v
		case "default":
			o.Default = v
		case "min", "max":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("uci: option %q: %s %q is not an integer", o.Name, key, v)
			}
			if key == "min" {
				o.Min = n
			} else {
				o.Max = n
			}
		case "var":
			o.Vars = append(o.Vars, v)
		}
		return nil
	}
	for _, w := range args {
		switch w {
		case "name", "type", "default", "min", "max", "var":
			// "default" and "var" values may hold keywords only after a name.
			if key != "" || w == "name" {
				if err := flush(); err != nil {
					return Option{}, err
				}
				key, val = w, nil
				continue
			}
		}
		if key == "" {
			return Option{}, fmt.Errorf("uci: option: %q before name", w)
		}
		val = append(val, w)
	}
	if err := flush(); err != nil {
		return Option{}, err
	}
	if o.Name == "" {
		return Option{}, errors.New("uci: option: the name is missing")
	}
	switch o.Type {
	case "check", "spin", "combo", "button", "string":
	default:
		return Option{}, fmt.Errorf("uci: option %q: type %q, want check, spin, combo, button or string", o.Name, o.Type)
	}
	return o, nil
}

// Score is an engine's evaluation from the side to move's point of view:
// centipawns, or moves to mate (negative when the engine is mated).
type Score struct {
	Mate  bool
	Value int
	Bound string // "", "lowerbound" or "upperbound"
}

// String writes "cp 31" or "mate -2", with the bound after it.
func (s Score) String() string {
	kind := "cp"
	if s.Mate {
		kind = "mate"
	}
	out := kind + " " + strconv.Itoa(s.Value)
	if s.Bound != "" {
		out += " " + s.Bound
	}
	return out
}

// Info is one "info" line. Zero fields are left out when written, except
// Depth, which is written whenever Score or PV is.
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int
	Score    *Score
	Nodes    int64
	NPS      int64
	Time     time.Duration
	HashFull int
	CurrMove string
	PV       []string
	String   string // "info string ...": free text to the end of the line
}

// Format writes the line, "info depth 5 seldepth 7 score cp 31 nodes ... pv e2e4 e7e5".
func (in Info) Format() string {
	b := []string{"info"}
	if in.Depth > 0 || in.Score != nil || len(in.PV) > 0 {
		b = append(b, "depth", strconv.Itoa(in.Depth))
	}
	if in.SelDepth > 0 {
		b = append(b, "seldepth", strconv.Itoa(in.SelDepth))
	}
	if in.MultiPV > 0 {
		b = append(b, "multipv", strconv.Itoa(in.MultiPV))
	}
	if in.Score != nil {
		b = append(b, "score", in.Score.String())
	}
	if in.Nodes > 0 {
		b = append(b, "nodes", strconv.FormatInt(in.Nodes, 10))
	}
	if in.NPS > 0 {
		b = append(b, "nps", strconv.FormatInt(in.NPS, 10))
	}
	if in.Time > 0 || in.Nodes > 0 {
		b = append(b, "time", strconv.FormatInt(in.Time.Milliseconds(), 10))
	}
	if in.HashFull > 0 {
		b = append(b, "hashfull", strconv.Itoa(in.HashFull))
	}
	if in.CurrMove != "" {
		b = append(b, "currmove", in.CurrMove)
	}
	if len(in.PV) > 0 {
		b = append(b, "pv")
		b = append(b, in.PV...)
	}
	if in.String != "" {
		b = append(b, "string", in.String)
	}
	return strings.Join(b, " ")
}

// ParseInfo reads the words after "info". Words it does not know are
// skipped, as UCI asks, with their value when they are known to have one.
func ParseInfo(args []string) (Info, error) {
	var in Info
	num := func(i int, word string) (int64, error) {
		if i >= len(args) {
			return 0, fmt.Errorf("uci: info %s: the value is missing", word)
		}
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("uci: info %s %q: want an integer", word, args[i])
		}
		return n, nil
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch w {
		case "depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "currmovenumber", "tbhits", "cpuload", "sbhits":
			n, err := num(i+1, w)
			if err != nil {
				return Info{}, err
			}
			i++
			switch w {
			case "depth":
				in.Depth = int(n)
			case "seldepth":
				in.SelDepth = int(n)
			case "multipv":
				in.MultiPV = int(n)
			case "nodes":
				in.Nodes = n
			case "nps":
				in.NPS = n
			case "time":
				in.Time = time.Duration(min(max(n, 0), maxMillis)) * time.Millisecond
			case "hashfull":
				in.HashFull = int(n)
			}
		case "score":
			if i+2 >= len(args) || (args[i+1] != "cp" && args[i+1] != "mate") {
				return Info{}, errors.New("uci: info score: want cp N or mate N")
			}
			n, err := num(i+2, "score "+args[i+1])
			if err != nil {
				return Info{}, err
			}
			s := &Score{Mate: args[i+1] == "mate", Value: int(max(min(n, 1<<30), -1<<30))}
			i += 2
			if i+1 < len(args) && (args[i+1] == "lowerbound" || args[i+1] == "upperbound") {
				i++
				s.Bound = args[i]
			}
			in.Score = s
		case "currmove":
			if i+1 < len(args) {
				i++
				in.CurrMove = args[i]
			}
		case "pv":
			in.PV = append([]string(nil), args[i+1:]...)
			i = len(args)
		case "string":
			in.String = strings.Join(args[i+1:], " ")
			i = len(args)
		}
	}
	return in, nil
}

// BestMove is the "bestmove" line that ends every search.
type BestMove struct {
	Move   string // "0000" when the engine has no move
	Ponder string
}

// String writes "bestmove e2e4" or "bestmove e2e4 ponder e7e5".
func (m BestMove) String() string {
	if m.Ponder != "" {
		return "bestmove " + m.Move + " ponder " + m.Ponder
	}
	return "bestmove " + m.Move
}

// ParseBestMove reads the words after "bestmove".
func ParseBestMove(args []string) (BestMove, error) {
	if len(args) == 0 {
		return BestMove{}, errors.New("uci: bestmove: the move is missing")
	}
	m := BestMove{Move: args[0]}
	if len(args) >= 3 && args[1] == "ponder" {
		m.Ponder = args[2]
	}
	return m, nil
}

// ID is an "id name X" or "id author Y" line.
type ID struct {
	Name, Author string
}

// Lines writes the id lines an engine sends after "uci".
func (id ID) Lines() []string {
	return []string{"id name " + id.Name, "id author " + id.Author}
}

// InfoString writes "info string TEXT", the free text UCI allows an engine
// to send at any time; `tune engine` sends its error messages this way,
// since UCI has no error line.
func InfoString(text string) string {
	return "info string " + strings.Join(strings.Fields(text), " ")
}
