package xboard

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The feature lines of Debian's xboard engines, as they write them.
const (
	fairymaxFeatures = `myname="Fairy-Max 5.0b"`
	fairymaxDone     = `setboard=0 xedit=1 ping=1 done=0`
	fairymaxOption   = `option="Resign Threshold -spin 800 200 1200"`
	phalanxFeatures  = `analyze=1 setboard=1 sigint=1 time=1 memory=1 draw=0 option="Randomizer (0-50) -slider 0 0 50" ping=1 `
	hoichessFeatures = `myname="HoiChess 0.22.0-3-debian" variants="normal" ping=1 setboard=1 time=1 sigint=0 sigterm=0 colors=0 analyze=1 name=1 smp=1 option="verbose -spin 0 -2147483648 2147483647" done=1`
)

func TestParseFeatures(t *testing.T) {
	for _, c := range []struct {
		text string
		want []Feature
		err  string
	}{
		{fairymaxFeatures, []Feature{{"myname", "Fairy-Max 5.0b"}}, ""},
		{fairymaxDone, []Feature{{"setboard", "0"}, {"xedit", "1"}, {"ping", "1"}, {"done", "0"}}, ""},
		{phalanxFeatures, []Feature{{"analyze", "1"}, {"setboard", "1"}, {"sigint", "1"}, {"time", "1"}, {"memory", "1"}, {"draw", "0"},
			{"option", "Randomizer (0-50) -slider 0 0 50"}, {"ping", "1"}}, ""},
		{"", nil, ""},
		{`ping=1 myname="x`, []Feature{{"ping", "1"}}, "double quote is not closed"},
		{`ping=1 done`, []Feature{{"ping", "1"}}, `feature "done": want NAME=VALUE`},
		{`=1`, nil, "want NAME=VALUE"},
	} {
		got, err := ParseFeatures(c.text)
		if !reflect.DeepEqual(got, c.want) || c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: %v, %v; want %v, %q", c.text, got, err, c.want, c.err)
		}
	}
}

// TestFeaturesSet: hoichess's features as a GUI keeps them, the defaults
// of those it leaves out, and what is rejected.
func TestFeaturesSet(t *testing.T) {
	fs := DefaultFeatures()
	parsed, err := ParseFeatures(hoichessFeatures)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range parsed {
		if !fs.Set(f) {
			t.Errorf("%v rejected", f)
		}
	}
	want := Features{Ping: true, SetBoard: true, Time: true, Draw: true, Reuse: true, Analyze: true, Name: true, SMP: true,
		MyName: "HoiChess 0.22.0-3-debian", Variants: []string{"normal"},
		Options: []Option{{Name: "verbose", Type: "spin", Default: "0", Min: -2147483648, Max: 2147483647}}, Done: 1}
	if !reflect.DeepEqual(fs, want) {
		t.Errorf("got  %+v\nwant %+v", fs, want)
	}
	for _, f := range []Feature{{"egt", "syzygy"}, {"frobnicate", "1"}, {"ping", "yes"}, {"done", "2"}, {"option", "x -knob 3"}} {
		if fs.Set(f) {
			t.Errorf("%v accepted", f)
		}
	}
	if v := (Features{Variants: []string{"shatranj", "normal"}}); !v.PlaysNormal() {
		t.Error("normal among the variants: not playing normal chess")
	}
	if v := (Features{Variants: []string{"xiangqi"}}); v.PlaysNormal() {
		t.Error("xiangqi alone plays normal chess")
	}
}

func TestParseOption(t *testing.T) {
	for _, c := range []struct {
		text string
		want Option
		err  string
	}{
		{"Resign -check 0", Option{Name: "Resign", Type: "check", Default: "0"}, ""},
		{"Resign Threshold -spin 800 200 1200", Option{Name: "Resign Threshold", Type: "spin", Default: "800", Min: 200, Max: 1200}, ""},
		{"Makruk rules -combo makruk /// *Cambodian /// Ai-wok", Option{Name: "Makruk rules", Type: "combo", Default: "Cambodian", Choices: []string{"makruk", "Cambodian", "Ai-wok"}}, ""},
		{"Variant -combo a /// b", Option{Name: "Variant", Type: "combo", Default: "a", Choices: []string{"a", "b"}}, ""},
		{"Dummy String Example -string happy birthday!", Option{Name: "Dummy String Example", Type: "string", Default: "happy birthday!"}, ""},
		{"Clear Hash -button", Option{Name: "Clear Hash", Type: "button"}, ""},
		{"Resign -check 2", Option{}, "0 or 1"},
		{"S -spin 1 2 3", Option{}, "not within"},
		{"S -spin 1 2", Option{}, "DEFAULT MIN MAX"},
		{"S -knob", Option{}, "unknown type"},
		{"-check 1", Option{}, "want NAME -TYPE"},
	} {
		got, err := ParseOption(c.text)
		if !reflect.DeepEqual(got, c.want) || c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: %+v, %v; want %+v, %q", c.text, got, err, c.want, c.err)
			continue
		}
		if c.err == "" {
			if back, err := ParseOption(got.String()); err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("%q: written %q, read back %+v, %v", c.text, got.String(), back, err)
			}
		}
	}
}

func TestOptionCommand(t *testing.T) {
	spin := Option{Name: "Skill", Type: "spin", Default: "5", Max: 10}
	check := Option{Name: "Fast", Type: "check", Default: "0"}
	combo := Option{Name: "Style", Type: "combo", Default: "a", Choices: []string{"a", "b c"}}
	for _, c := range []struct {
		o           Option
		value, want string
	}{
		{spin, "7", "option Skill=7"},
		{spin, "11", ""},
		{check, "true", "option Fast=1"},
		{check, "0", "option Fast=0"},
		{check, "maybe", ""},
		{combo, "b c", "option Style=b c"},
		{combo, "d", ""},
		{Option{Name: "Clear Hash", Type: "button"}, "", "option Clear Hash"},
		{Option{Name: "Book", Type: "file"}, "/a b", "option Book=/a b"},
	} {
		got, err := c.o.Command(c.value)
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("%s=%s: %q, %v; want %q", c.o.Name, c.value, got, err, c.want)
		}
	}
}

// TestParseOutput: the lines Debian's engines write, each read as what it
// is.
func TestParseOutput(t *testing.T) {
	for _, c := range []struct {
		line string
		want Output
		err  string
	}{
		{"move g8f6", Output{Kind: MoveLine, Move: "g8f6"}, ""},
		{"1. ... d7d5", Output{Kind: MoveLine, Move: "d7d5"}, ""}, // gnuchess
		{"12... Nf6", Output{Kind: MoveLine, Move: "Nf6"}, ""},
		{"1. e2e4", Output{}, ""},           // gnuchess's echo of the GUI's move
		{"My move is : d7d5", Output{}, ""}, // gnuchess, after its 1. ... d7d5
		{"tellics say     Fairy-Max 5.0b", Output{}, ""},
		{"# times @ 602996901", Output{}, ""},
		{" 6      3        4     104514 g8f6 b1c3 d7d5", Output{Kind: ThinkingLine, Thinking: Thinking{Depth: 6, Score: 3, Time: 40 * time.Millisecond, Nodes: 104514, PV: "g8f6 b1c3 d7d5"}}, ""},
		{"  0      0     0        0  (e7-e5  c7-c5 , book1)", Output{Kind: ThinkingLine, Thinking: Thinking{PV: "(e7-e5 c7-c5 , book1)"}}, ""}, // phalanx
		{"5 +15 1 17318 d5 exd5 Nf6", Output{Kind: ThinkingLine, Thinking: Thinking{Depth: 5, Score: 15, Time: 10 * time.Millisecond, Nodes: 17318, PV: "d5 exd5 Nf6"}}, ""},
		{"12& -100005 300 99 e2e4", Output{Kind: ThinkingLine, Thinking: Thinking{Depth: 12, Score: -100005, Time: 3 * time.Second, Nodes: 99, PV: "e2e4"}}, ""},
		{"feature ping=1 done=1", Output{Kind: FeatureLine, Features: []Feature{{"ping", "1"}, {"done", "1"}}}, ""},
		{"feature ping", Output{Kind: FeatureLine}, "want NAME=VALUE"},
		{"pong 7", Output{Kind: PongLine, Pong: 7}, ""},
		{"pong x", Output{}, "want pong N"},
		{"1/2-1/2 {Draw by repetition}", Output{Kind: ResultLine, Result: Drawn, Comment: "Draw by repetition"}, ""},
		{"0-1 {White resigns}", Output{Kind: ResultLine, Result: BlackWins, Comment: "White resigns"}, ""},
		{"*", Output{Kind: ResultLine, Result: Unknown}, ""},
		{"resign", Output{Kind: ResignLine}, ""},
		{"offer draw", Output{Kind: DrawOfferLine}, ""},
		{"Illegal move: e2e4", Output{Kind: IllegalMoveLine, Move: "e2e4"}, ""},
		{"Illegal move (king in check): e1e2", Output{Kind: IllegalMoveLine, Move: "e1e2", Comment: "king in check"}, ""},
		{"Illegal move", Output{}, "want Illegal move: MOVE"},
		{"Error (unknown command): usermove", Output{Kind: ErrorLine, Comment: "(unknown command): usermove"}, ""},
		{"move", Output{}, "want move MOVE"},
		{"", Output{}, ""},
	} {
		got, err := ParseOutput(c.line)
		if !reflect.DeepEqual(got, c.want) || c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: %+v, %v; want %+v, %q", c.line, got, err, c.want, c.err)
		}
	}
}

func TestLevel(t *testing.T) {
	for _, c := range []struct {
		args string
		want Level
		text string
	}{
		{"40 5 0", Level{Moves: 40, Base: 5 * time.Minute}, "level 40 5 0"},
		{"0 0:30 0.1", Level{Base: 30 * time.Second, Increment: 100 * time.Millisecond}, "level 0 0:30 0.1"},
		{"0 2:05 12", Level{Base: 125 * time.Second, Increment: 12 * time.Second}, "level 0 2:05 12"},
		{"0 0.5 0", Level{Base: 30 * time.Second}, "level 0 0:30 0"},
	} {
		got, err := ParseLevel(strings.Fields(c.args))
		if err != nil || got != c.want || got.String() != c.text {
			t.Errorf("%q: %+v (%q), %v; want %+v (%q)", c.args, got, got.String(), err, c.want, c.text)
		}
	}
	for args, want := range map[string]string{
		"40 5":        "want level MOVES BASE INC",
		"-1 5 0":      "level moves",
		"40 x 0":      "level base",
		"40 1.5:30 0": "level base",
		"40 1:75 0":   "seconds below 60",
		"40 5 -1":     "level increment",
	} {
		if _, err := ParseLevel(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
	if d, err := ParseCentiseconds("-150"); err != nil || d != -1500*time.Millisecond {
		t.Errorf("time -150: %v, %v", d, err)
	}
	if s := Centiseconds(-time.Second); s != "0" {
		t.Errorf("a clock below 0 written %q", s)
	}
	if s := Centiseconds(12345 * time.Millisecond); s != "1234" {
		t.Errorf("12.345 s written %q", s)
	}
}

func TestNormalMove(t *testing.T) {
	for in, want := range map[string]string{"e7e8Q": "e7e8q", "e7e8=Q": "e7e8q", "e7e8q": "e7e8q", "e2e4": "e2e4", "Nf3": "Nf3", "O-O": "O-O", "e8=Q+": "e8=Q+"} {
		if got := NormalMove(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
