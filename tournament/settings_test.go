package tournament

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestBuiltinSettings: the clock, the search and its parameters of a
// built-in spec, as the player carries them; a clock without a depth of
// its own searches to the engine's deepest.
func TestBuiltinSettings(t *testing.T) {
	g, _ := all.Find("chess")
	run := engine.Limits{Depth: 4}
	tc := TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}
	selective := engine.DefaultSearchParams(g.Start())
	selective.ReductionBase = 80
	clockUse := thinker.DefaultTimeParams()
	clockUse.Horizon = 30
	for _, c := range []struct {
		spec   string
		name   string
		lim    engine.Limits
		timing Timing
		search Search
		time   thinker.TimeParams
	}{
		{"default:pst,tc=10+0.1", "default:pst,tc=10+0.1", engine.Limits{Depth: engine.MaxDepth}, Timing{TC: &tc}, Search{}, thinker.TimeParams{}},
		{"default,st=0.5", "default:textbook,st=0.5", engine.Limits{Depth: engine.MaxDepth}, Timing{MoveTime: 500 * time.Millisecond}, Search{}, thinker.TimeParams{}},
		{"default,movetime=250,timemargin=50", "default:textbook,movetime=250,timemargin=50", engine.Limits{Depth: engine.MaxDepth},
			Timing{MoveTime: 250 * time.Millisecond, Margin: 50 * time.Millisecond}, Search{}, thinker.TimeParams{}},
		{"default,tc=10+0.1,depth=9", "default:textbook,tc=10+0.1,depth=9", engine.Limits{Depth: 9}, Timing{TC: &tc}, Search{}, thinker.TimeParams{}},
		{"default,search=selective", "default:textbook,search=selective", run, Timing{}, Search{Selective: true}, thinker.TimeParams{}},
		{"default,search=exact,depth=2", "default:textbook,search=exact,depth=2", engine.Limits{Depth: 2}, Timing{}, Search{}, thinker.TimeParams{}},
		{"default,search=selective,param.lmr-base=80", "default:textbook,search=selective,param.lmr-base=80", run, Timing{}, Search{Selective: true, Params: selective}, thinker.TimeParams{}},
		{"default,tc=10+0.1,param.time-horizon=30", "default:textbook,tc=10+0.1,param.time-horizon=30", engine.Limits{Depth: engine.MaxDepth}, Timing{TC: &tc}, Search{}, clockUse},
	} {
		pl, err := BuiltinPlayer(g, "", c.spec, run)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		if pl.Name != c.name || pl.Limits != c.lim || pl.Search != c.search || pl.Time != c.time || !sameTiming(pl.Timing, c.timing) {
			t.Errorf("%s: %s %+v %+v %+v %+v, want %s %+v %+v %+v %+v", c.spec, pl.Name, pl.Limits, pl.Timing, pl.Search, pl.Time, c.name, c.lim, c.timing, c.search, c.time)
		}
	}
	for spec, want := range map[string]string{
		"default,tc=10+0.1,st=1":                      "give one of tc=, st= or movetime=, not 2",
		"default,tc=abc":                              "tc=abc",
		"default,st=0":                                "st=0: want seconds",
		"default,movetime=-5":                         "movetime=-5",
		"default,timemargin=10":                       "timemargin= without a clock",
		"default,search=fast":                         `search "fast": want selective or exact`,
		"default,param.lmr-base=80":                   "add search=selective",
		"default,search=selective,param.x=1":          `no search parameter "x"`,
		"default,search=selective,param.lmr-base=2.5": "lmr-base = 2.5",
		"default,param.time-horizon=30":               "need a clock",
		"default,tc=1,param.time-horizon=1000":        "time-horizon 1000: want 5 to 100",
		"default,tc=1,param.time-horizon=3.5":         "time-horizon=3.5: want a whole number",
		"default,depth=2,depth=3":                     "depth given twice",
		"default,param.lmr-base=x":                    "want param.NAME=NUMBER",
	} {
		_, err := BuiltinPlayer(g, "", spec, run)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", spec, err, want)
		} else if !errors.Is(err, ErrSetting) && !errors.Is(err, engine.ErrSearchParam) {
			t.Errorf("%s: %v does not wrap ErrSetting", spec, err)
		}
	}
}

func sameTiming(a, b Timing) bool {
	if (a.TC == nil) != (b.TC == nil) || a.TC != nil && *a.TC != *b.TC {
		return false
	}
	return a.MoveTime == b.MoveTime && a.Margin == b.Margin
}

// TestBuiltinOnClock: built-in players on real short clocks with ample
// time (2 s + 0.5 s for a few moves, and a margin of 10 s that no loaded
// machine reaches): tic-tac-toe is drawn and Othello reaches its ply cap,
// in order, with no loss on time; each side's clock ends below its start
// plus its increments; the PGN tag and the match JSON say the clock.
func TestBuiltinOnClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays on a real clock")
	}
	for _, c := range []struct {
		game, a, b string
		plies      int
	}{
		{"tictactoe", "default,tc=2+0.5,timemargin=10000", "default,depth=9", 0},
		{"othello", "default:patterns,tc=2+0.5,timemargin=10000", "default:full,st=0.2,timemargin=10000", 6},
	} {
		g, _ := all.Find(c.game)
		a, err := BuiltinPlayer(g, "", c.a, engine.Limits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		b, err := BuiltinPlayer(g, "", c.b, engine.Limits{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		pool, err := NewPool(2, 1)
		if err != nil {
			t.Fatal(err)
		}
		specs := MatchSpecs(g, a, b, 1, nil, c.plies, Adjudication{})
		res, err := RunMatch(context.Background(), pool, specs, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Records {
			want, reason := games.Draw, ByRule
			if c.plies > 0 {
				reason = ByPlyCap
			}
			if r.Outcome != want || r.Reason != reason {
				t.Errorf("%s game %d: %v by %s (%s), want a draw by %s", c.game, i, r.Outcome, r.Reason, r.Detail, reason)
			}
			side := games.Side(i % 2) // A's side
			end := r.Clocks[side]
			moves := (r.Plies + 1 - int(side)) / 2
			if end.Start != 2*time.Second || end.Left > end.Start+time.Duration(moves)*500*time.Millisecond {
				t.Errorf("%s game %d: A's clock %+v after %d moves", c.game, i, end, moves)
			}
			if other := r.Clocks[side.Other()]; other != (ClockEnd{}) {
				t.Errorf("%s game %d: B has no time control but a clock %+v", c.game, i, other)
			}
		}
		j := res.JSON(c.game, a.Name, b.Name)
		if j.Clock == nil || j.Clock.ATimeLosses != 0 || j.Clock.AMedianLeft == nil || j.Clock.BMedianLeft != nil {
			t.Errorf("%s: clock JSON %+v", c.game, j.Clock)
		}
		if tag := TimeControlTag([]Player{a, a}); tag != "2+0.5" {
			t.Errorf("%s: TimeControl tag %q", c.game, tag)
		}
	}
}

// TestClockJSON: losses on time and the median clock left by player,
// A first in even games.
func TestClockJSON(t *testing.T) {
	s := time.Second
	recs := []Record{
		{Outcome: games.Draw, Clocks: [2]ClockEnd{{Left: 2 * s, Start: 10 * s}, {Left: 5 * s, Start: 10 * s}}},
		{Outcome: games.FirstWins, Reason: ByTime, Clocks: [2]ClockEnd{{Left: 1 * s, Start: 10 * s}, {Left: -s / 10, Start: 10 * s}}}, // A (second) lost on time
		{Outcome: games.SecondWins, Reason: ByTime, Clocks: [2]ClockEnd{{Left: -s, Start: 10 * s}, {Left: 3 * s, Start: 10 * s}}},     // A (first) lost on time
		{Outcome: games.FirstWins, Clocks: [2]ClockEnd{{Left: 4 * s, Start: 10 * s}, {Left: 6 * s, Start: 10 * s}}},
	}
	c := clockJSON(recs)
	// A: 0.2, -0.01, -0.1, 0.6 -> median (-0.01 + 0.2) / 2; B: 0.5, 0.1, 0.3, 0.4 -> 0.35.
	if c == nil || c.ATimeLosses != 2 || c.BTimeLosses != 0 || c.AMedianLeft == nil || c.BMedianLeft == nil ||
		float64(*c.AMedianLeft) != (-0.01+0.2)/2 || float64(*c.BMedianLeft) != 0.35 {
		t.Fatalf("clock JSON %+v", c)
	}
	if clockJSON([]Record{{Outcome: games.Draw}}) != nil {
		t.Error("no time control: want no clock JSON")
	}
}

// TestBuiltinSelectiveSearcher: a player of the selective search gets a
// searcher of its own, made once and kept, and the exact player the
// worker's.
func TestBuiltinSelectiveSearcher(t *testing.T) {
	g, _ := all.Find("tictactoe")
	s, err := NewSearchers(1)
	if err != nil {
		t.Fatal(err)
	}
	b := newBuiltin(s[0], 1)
	sel, _ := BuiltinPlayer(g, "", "default,search=selective,depth=3", engine.Limits{})
	exact, _ := BuiltinPlayer(g, "", "default,depth=3", engine.Limits{})
	ctx := context.Background()
	for i, pl := range []Player{sel, exact, sel} {
		if err := b.NewGame(ctx, Start{Player: pl, Game: g, Position: g.Start()}); err != nil {
			t.Fatal(err)
		}
		if (b.s == s[0]) != (pl.Search == Search{}) || len(b.others) != 1 {
			t.Errorf("game %d (%s): the worker's searcher %v, %d others", i, pl.Name, b.s == s[0], len(b.others))
		}
		if _, err := b.Move(ctx, Turn{Position: g.Start()}); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzCutSettings: any spec is cut without a panic; the rest is a prefix
// of the spec, and a clock or move time read is positive.
func FuzzCutSettings(f *testing.F) {
	for _, s := range []string{"default", "default:pst,tc=10+0.1", "w.json,st=0.5,timemargin=50", "default,search=selective,param.lmr-base=80",
		"a,b.json,depth=3,nodes=100", "default,tc=40/1:00+1,param.time-horizon=30", "default,movetime=,tc=", "x,param.=1", ",,=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		base, set, err := CutSettings(spec)
		if err != nil {
			return
		}
		if !strings.HasPrefix(spec, base) {
			t.Fatalf("%q: rest %q is not a prefix", spec, base)
		}
		if set.Timing.TC != nil && set.Timing.TC.Base <= 0 || set.Timing.MoveTime < 0 || set.Limits.Check() != nil && set.Limits != (engine.Limits{}) {
			t.Fatalf("%q: settings %+v", spec, set)
		}
	})
}
