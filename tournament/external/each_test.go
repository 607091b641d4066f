package external

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// TestApplyEach: --each fills in what a spec does not set; the engine's
// own settings win (a limit of any kind keeps --each's limit out; an
// option is compared without case).
func TestApplyEach(t *testing.T) {
	const each = "tc=10+0.1,option.Hash=16,restart=on,timemargin=50"
	for _, c := range []struct{ spec, want string }{
		{"cmd=e", "cmd=e,tc=10+0.1,option.Hash=16,restart=on,timemargin=50"},
		{"cmd=e,depth=3,option.hash=8", "cmd=e,depth=3,option.hash=8,restart=on,timemargin=50"},
		{"cmd=e,movetime=100,restart=off,timemargin=0", "cmd=e,movetime=100,restart=off,timemargin=0,option.Hash=16"},
		{"cmd=e,tc=5+0.05", "cmd=e,tc=5+0.05,option.Hash=16,restart=on,timemargin=50"},
		{`cmd=e,name="a,b",option.Threads=2`, `cmd=e,name="a,b",option.Threads=2,tc=10+0.1,option.Hash=16,restart=on,timemargin=50`},
	} {
		got, err := ApplyEach(c.spec, each)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.spec, got, err, c.want)
		}
	}
	// tc=inf in the engine's spec keeps --each's clock out but not a depth.
	if got, _ := ApplyEach("cmd=e,tc=inf", "tc=1+0"); got != "cmd=e,tc=inf" {
		t.Errorf("tc=inf against tc: %s", got)
	}
	if got, _ := ApplyEach("cmd=e,tc=inf", "depth=4"); got != "cmd=e,tc=inf,depth=4" {
		t.Errorf("tc=inf against depth: %s", got)
	}
	if got, _ := ApplyEach("cmd=e,depth=2", ""); got != "cmd=e,depth=2" {
		t.Errorf("no each: %s", got)
	}
	// What Parse makes of the merge: the engine's clock and option, each's
	// margin.
	merged, _ := ApplyEach("cmd=e,tc=5+0.05,option.hash=8", each)
	e, err := Parse(merged)
	if err != nil || e.TC == nil || e.TC.String() != "5+0.05" || !e.Restart || e.TimeMargin != 50*time.Millisecond ||
		!slices.Equal(e.Options, []Option{{"hash", "8"}}) {
		t.Errorf("%s: %+v %v", merged, e, err)
	}
}

// TestParseEachBad: what --each cannot set, and bad values, are refused
// with the key named and what is accepted.
func TestParseEachBad(t *testing.T) {
	for each, msg := range map[string]string{
		"cmd=x":                       "cmd= belongs to each engine; each sets tc, st, depth",
		"name=n":                      "name= belongs to each engine",
		"arg=-x":                      "arg= belongs to each engine",
		"dir=/tmp":                    "dir= belongs to each engine",
		"colour=white":                `unknown key "colour" (each sets tc,`,
		"tc=10+0.1,depth=3":           "give one of depth=, nodes=, movetime=, st= or tc=, not two",
		"tc=10,tc=20":                 "tc is given twice",
		"option.Hash=1,option.HASH=2": "option.HASH is given twice",
		"tc=ten":                      "tc",
		"depth=0":                     "depth=0: want 1 to 200 plies",
		"proto=cecp":                  "proto=cecp: want uci or xboard (chess), or gtp (Othello)",
		"restart=maybe":               "restart=maybe: want on or off",
		`option.Hash="a"b"c"`:         "cannot hold one",
		"option.X=a\nb":               "control character",
		"tc":                          `"tc" is not KEY=VALUE`,
		`option.P="a`:                 "a double quote is not closed",
	} {
		_, err := ParseEach(each)
		if err == nil || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q:\n got %v\nwant %q", each, err, msg)
		}
	}
	if e, err := ParseEach(` tc=10+0.1 , option.Path="a,b" ,`); err != nil || e.String() != `tc=10+0.1,option.Path="a,b"` {
		t.Errorf("%v %v", e, err)
	}
}

// TestPlayersEach: --each reaches an engine of the file and a cmd= spec
// (the engine's own limit winning) and no built-in player; the engine is
// checked with the options --each gives it.
func TestPlayersEach(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	g, _ := all.Find("chess")
	en := Engines{"json": "cmd=" + bin + ",proto=uci,name=json,option.Hash=8"}
	each, err := ParseEach("tc=10+0.1,option.Hash=32")
	if err != nil {
		t.Fatal(err)
	}
	builtin := func(spec string) (tournament.Player, error) { return tournament.Player{Name: spec}, nil }
	players, ext, err := en.PlayersEach(context.Background(), g, []string{"json", "cmd=" + bin + ",name=own,depth=2", "default"}, each, builtin)
	if err != nil || !ext || len(players) != 3 {
		t.Fatalf("%+v %v %v", players, ext, err)
	}
	a, b := players[0].Engine.(Spec), players[1].Engine.(Spec)
	if a.TC == nil || a.TC.String() != "10+0.1" || !slices.Equal(a.Options, []Option{{"Hash", "8"}}) {
		t.Errorf("the file's engine: %+v", a)
	}
	if b.TC != nil || b.Depth != 2 || !slices.Equal(b.Options, []Option{{"Hash", "32"}}) {
		t.Errorf("the cmd= engine: %+v", b)
	}
	if players[2].Engine != nil || players[2].Name != "default" {
		t.Errorf("built-in: %+v", players[2])
	}
	// Without --each the file's engine has no limit, and Parse says so.
	if _, _, err := en.Players(context.Background(), g, []string{"json"}, builtin); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "needs depth=") {
		t.Errorf("no limit: %v", err)
	}
}

// FuzzApplyEach: nothing panics; when the engine's spec and the merge
// both parse, the engine keeps its own limit and its own options' values.
func FuzzApplyEach(f *testing.F) {
	f.Add("cmd=e,depth=3,option.Hash=8", "tc=10+0.1,option.hash=16,restart=on")
	f.Add("cmd=e,tc=inf", "depth=2")
	f.Add(`cmd=e,name="a,b",movetime=5`, `option.P="x,y",st=1`)
	f.Fuzz(func(t *testing.T, spec, each string) {
		merged, err := ApplyEach(spec, each)
		if err != nil {
			return
		}
		own, err1 := Parse(spec)
		got, err2 := Parse(merged)
		if err1 != nil || err2 != nil {
			return
		}
		if own.Depth != got.Depth || own.Nodes != got.Nodes || own.MoveTime != got.MoveTime || (own.TC == nil) != (got.TC == nil) {
			t.Fatalf("%q with each %q: limit %+v became %+v", spec, each, own, got)
		}
		if !slices.Equal(own.Options, got.Options[:len(own.Options)]) {
			t.Fatalf("%q with each %q: options %v became %v", spec, each, own.Options, got.Options)
		}
	})
}
