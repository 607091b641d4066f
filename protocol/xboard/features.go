package xboard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Feature is one NAME=VALUE of an engine's feature command; a value in
// double quotes is given without them.
type Feature struct {
	Name  string
	Value string
}

// String writes the feature as an engine does: a value that is not a
// number in double quotes.
func (f Feature) String() string {
	if _, err := strconv.Atoi(f.Value); err == nil {
		return f.Name + "=" + f.Value
	}
	return f.Name + `="` + f.Value + `"`
}

// ParseFeatures reads the text after "feature": NAME=VALUE pairs
// separated by spaces, a VALUE a word or a string in double quotes
// (myname="Fairy-Max 5.0b"). It returns the pairs read before any error;
// the error names what is wrong.
func ParseFeatures(text string) ([]Feature, error) {
	var out []Feature
	for i := 0; ; {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i == len(text) {
			return out, nil
		}
		start := i
		for i < len(text) && isWordByte(text[i]) {
			i++
		}
		name := text[start:i]
		if name == "" || i == len(text) || text[i] != '=' {
			return out, fmt.Errorf("xboard: feature %q: want NAME=VALUE", cut(text[start:], 40))
		}
		i++
		var value string
		if i < len(text) && text[i] == '"' {
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				return out, fmt.Errorf("xboard: feature %s: the double quote is not closed", name)
			}
			value, i = text[i+1:i+1+end], i+2+end
		} else {
			end := strings.IndexAny(text[i:], " \t")
			if end < 0 {
				end = len(text) - i
			}
			value, i = text[i:i+end], i+end
		}
		out = append(out, Feature{Name: name, Value: value})
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cut shortens s to at most n bytes for an error message.
func cut(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "") + "..."
	}
	return s
}

// Features are what an engine said of itself in its feature commands, as
// a GUI keeps them. DefaultFeatures is what a GUI assumes before any, and
// of a version 1 engine.
type Features struct {
	Ping      bool // answers ping N with pong N
	SetBoard  bool // takes setboard FEN; otherwise positions are set up with edit
	PlayOther bool
	SAN       bool // wants moves in SAN rather than coordinate notation
	UserMove  bool // wants moves as "usermove MOVE"
	Time      bool // wants time and otim before its moves
	Draw      bool
	SigInt    bool
	SigTerm   bool
	Reuse     bool // may play several games in one process
	Analyze   bool
	Colors    bool
	Name      bool // wants the opponent's name
	NPS       bool // takes nps N (a node limit with st)
	Memory    bool // takes memory N (MiB)
	SMP       bool // takes cores N
	MyName    string
	Variants  []string // nil: normal chess only
	Options   []Option
	// Done is 1 once the engine said done=1, 0 after done=0 (wait for
	// done=1), -1 before either.
	Done int
}

// DefaultFeatures are the values of protocol version 2's defaults: time,
// draw, sigint, sigterm, reuse, analyze and colors on, the rest off.
func DefaultFeatures() Features {
	return Features{Time: true, Draw: true, SigInt: true, SigTerm: true, Reuse: true, Analyze: true, Colors: true, Done: -1}
}

// Set records one feature and reports whether a GUI accepts it (it
// answers "accepted NAME", else "rejected NAME"): unknown names, egt
// (gametune has no tablebases to offer), malformed options and values
// other than 0 or 1 for the switches are rejected.
func (fs *Features) Set(f Feature) bool {
	switches := map[string]*bool{
		"ping": &fs.Ping, "setboard": &fs.SetBoard, "playother": &fs.PlayOther, "san": &fs.SAN,
		"usermove": &fs.UserMove, "time": &fs.Time, "draw": &fs.Draw, "sigint": &fs.SigInt, "sigterm": &fs.SigTerm,
		"reuse": &fs.Reuse, "analyze": &fs.Analyze, "colors": &fs.Colors, "name": &fs.Name, "nps": &fs.NPS,
		"memory": &fs.Memory, "smp": &fs.SMP,
	}
	if p, ok := switches[f.Name]; ok {
		if f.Value != "0" && f.Value != "1" {
			return false
		}
		*p = f.Value == "1"
		return true
	}
	switch f.Name {
	case "myname":
		fs.MyName = f.Value
	case "variants":
		fs.Variants = strings.Split(f.Value, ",")
		for i, v := range fs.Variants {
			fs.Variants[i] = strings.TrimSpace(v)
		}
	case "option":
		o, err := ParseOption(f.Value)
		if err != nil {
			return false
		}
		for i, known := range fs.Options {
			if known.Name == o.Name { // said again: an engine asked protover twice
				fs.Options[i] = o
				return true
			}
		}
		fs.Options = append(fs.Options, o)
	case "done":
		if f.Value != "0" && f.Value != "1" {
			return false
		}
		fs.Done = int(f.Value[0] - '0')
	case "ics", "pause", "debug", "exclude", "setscore", "highlight", "xedit":
		// Abilities gametune never asks for: accepting them changes nothing.
	default:
		return false
	}
	return true
}

// PlaysNormal reports whether the engine plays normal chess: it listed no
// variants, or normal among them.
func (fs *Features) PlaysNormal() bool {
	if fs.Variants == nil {
		return true
	}
	for _, v := range fs.Variants {
		if v == "normal" {
			return true
		}
	}
	return false
}

// Option is an engine's option, from feature option="NAME -TYPE ...":
// set with "option NAME=VALUE" (a button with "option NAME").
type Option struct {
	Name     string
	Type     string // check, spin, slider, combo, string, file, path, button, save or reset
	Default  string // check: 0 or 1; combo: the choice marked *
	Min, Max int64  // spin and slider
	Choices  []string
}

// String writes the option as a feature's value: "Hash -spin 16 1 64".
func (o Option) String() string {
	switch o.Type {
	case "spin", "slider":
		return fmt.Sprintf("%s -%s %s %d %d", o.Name, o.Type, o.Default, o.Min, o.Max)
	case "combo":
		choices := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			if c == o.Default {
				c = "*" + c
			}
			choices[i] = c
		}
		return o.Name + " -combo " + strings.Join(choices, " /// ")
	case "button", "save", "reset":
		return o.Name + " -" + o.Type
	}
	return o.Name + " -" + o.Type + " " + o.Default
}

// ParseOption reads an option's description, "NAME -TYPE [VALUES]":
// check DEFAULT (0 or 1); spin or slider DEFAULT MIN MAX; combo CHOICES
// separated by " /// ", the default marked with *; string, file or path
// DEFAULT; button, save or reset alone.
func ParseOption(text string) (Option, error) {
	i := strings.Index(text, " -")
	if i < 1 {
		return Option{}, fmt.Errorf("xboard: option %q: want NAME -TYPE [VALUES]", cut(text, 60))
	}
	o := Option{Name: strings.TrimSpace(text[:i])}
	o.Type, o.Default, _ = strings.Cut(text[i+2:], " ")
	bad := func(want string) (Option, error) {
		return Option{}, fmt.Errorf("xboard: option %q: %s", cut(text, 60), want)
	}
	if o.Name == "" {
		return bad("the option has no name")
	}
	switch o.Type {
	case "check":
		if o.Default != "0" && o.Default != "1" {
			return bad("a check's value is 0 or 1")
		}
	case "spin", "slider":
		f := strings.Fields(o.Default)
		if len(f) != 3 {
			return bad("want -spin DEFAULT MIN MAX")
		}
		var n [3]int64
		for k := range n {
			var err error
			if n[k], err = strconv.ParseInt(f[k], 10, 64); err != nil {
				return bad("want -spin DEFAULT MIN MAX, whole numbers")
			}
		}
		if n[1] > n[0] || n[0] > n[2] {
			return bad("the default is not within MIN and MAX")
		}
		o.Default, o.Min, o.Max = f[0], n[1], n[2]
	case "combo":
		for _, c := range strings.Split(o.Default, " /// ") {
			if d, marked := strings.CutPrefix(c, "*"); marked {
				o.Default, c = d, d
			}
			if c == "" {
				return bad("a combo's choices are words separated by \" /// \"")
			}
			o.Choices = append(o.Choices, c)
		}
		if !strings.Contains(text, "*") {
			o.Default = o.Choices[0]
		}
	case "string", "file", "path":
	case "button", "save", "reset":
		o.Default = ""
	default:
		return bad("unknown type (want check, spin, slider, combo, string, file, path, button, save or reset)")
	}
	return o, nil
}

// ErrNoValue is returned by Option.Command for a value a check, spin or
// combo option cannot take.
var ErrNoValue = errors.New("xboard: option value")

// Command is the line that sets the option to value: "option NAME=VALUE",
// a check's value 0 or 1 (true and false are read as 1 and 0), a button's
// "option NAME" (value ignored).
func (o Option) Command(value string) (string, error) {
	switch o.Type {
	case "button", "save", "reset":
		return "option " + o.Name, nil
	case "check":
		switch strings.ToLower(value) {
		case "1", "true", "on":
			value = "1"
		case "0", "false", "off":
			value = "0"
		default:
			return "", fmt.Errorf("%w: %s is a check: want 1 or 0 (true or false), not %q", ErrNoValue, o.Name, value)
		}
	case "spin", "slider":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < o.Min || n > o.Max {
			return "", fmt.Errorf("%w: %s: want a whole number from %d to %d, not %q", ErrNoValue, o.Name, o.Min, o.Max, value)
		}
	case "combo":
		found := false
		for _, c := range o.Choices {
			found = found || c == value
		}
		if !found {
			return "", fmt.Errorf("%w: %s: want one of %s, not %q", ErrNoValue, o.Name, strings.Join(o.Choices, ", "), value)
		}
	}
	return "option " + o.Name + "=" + value, nil
}
