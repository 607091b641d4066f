package external

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// blackToMove is an opening position with black on move, castling rights
// and an en-passant square: setboard carries it, edit must play a2a3
// first for black to be on move.
const blackToMove = "rnbqkbnr/pppp1ppp/8/8/3pP3/5N2/PPP2PPP/RNBQKB1R b KQkq e3 0 3"

// playXboard plays pairs of games of the xboard test engine, started
// with flags and the spec's extra keys, against the built-in player at
// depth 1 from openings, and returns the records and the commands the
// engine received (its log).
func playXboard(t *testing.T, bin, keys string, pairs int, openings []string) ([]tournament.Record, string) {
	t.Helper()
	g, _ := all.Find("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	log := filepath.Join(t.TempDir(), "commands.log")
	ext := enginePlayer(t, "cmd="+bin+",proto=xboard,name=xb,arg=-log,arg="+quoteValue(log)+","+keys)
	pool, err := tournament.NewPool(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var recs []tournament.Record
	err = pool.Run(context.Background(), tournament.MatchSpecs(g, builtin, ext, pairs, openings, 40, tournament.Adjudication{}),
		func(_ int, r tournament.Record) error {
			recs = append(recs, r)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	pool.Close()
	commands, _ := os.ReadFile(log)
	return recs, string(commands)
}

// TestXboardDialects: engines of every dialect the protocol allows play
// whole games without a fault: version 1 (no features: edit, no ping,
// plain moves), features after done=0, no ping, no setboard (edit, with
// black on move after a2a3), SAN both ways, usermove, the old move
// format, reuse=0 (a process a game), an old engine that takes commands
// for moves; and the commands sent say so.
func TestXboardDialects(t *testing.T) {
	bin := buildTestEngine(t)
	defer func(d time.Duration) { protover1Wait = d }(protover1Wait)
	protover1Wait = 500 * time.Millisecond // the test engine's done=0 waits 2.5 s, within the handshake's 10 s
	markProcesses(t)
	cases := []struct {
		words     string
		want, not []string
		processes int
	}{
		{"v2", []string{"accepted ping", "accepted usermove", "rejected egt", "rejected frobnicate", "accepted done", "new\nforce\nsetboard " + blackToMove + "\n", "ping 1\n", "post\neasy\n", "\ngo\n"}, []string{"edit"}, 1},
		{"v1", []string{"a2a3\nedit\n#\nPe4\nNf3\nPa2\n", "\nRh1\nc\nRa8\nNb8\n", "Pd4\n.\n"}, []string{"accepted", "ping", "setboard", "usermove"}, 1},
		{"donezero", []string{"accepted done\naccepted myname", "setboard"}, nil, 1},
		{"noping,nosetboard", []string{"a2a3\nedit\n#", "accepted ping"}, []string{"ping 1", "\nsetboard "}, 1},
		{"san,usermove", []string{"usermove e5", "usermove Nf6"}, []string{"usermove e7e5"}, 1},
		{"oldmoves", []string{"go"}, nil, 1},
		{"v1,grumpy", []string{"post\neasy\n"}, nil, 1}, // "Illegal move: post" is about no move told
		{"noreuse", []string{"accepted reuse"}, nil, 2},
	}
	for _, c := range cases {
		t.Run(c.words, func(t *testing.T) {
			openings := []string{blackToMove}
			if strings.Contains(c.words, "san") {
				openings = []string{"moves: e4 e5 Nf3 Nf6"}
			}
			recs, log := playXboard(t, bin, "arg=-xboard,arg="+quoteValue(c.words)+",depth=1", 1, openings)
			for i, r := range recs {
				if r.Reason != tournament.ByRule && r.Reason != tournament.ByPlyCap {
					t.Errorf("game %d: %s (%s): %s", i, r.Outcome, r.Reason, r.Detail)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(log, w) {
					t.Errorf("the engine was not sent %q:\n%s", w, log)
				}
			}
			for _, n := range c.not {
				if strings.Contains(log, n) {
					t.Errorf("the engine was sent %q:\n%s", n, log)
				}
			}
			if got := strings.Count(log, "protover 2"); got != c.processes {
				t.Errorf("%d processes started for 2 games, want %d", got, c.processes)
			}
		})
	}
}

// TestXboardFaults: what an xboard engine does wrong loses its game as
// cutechess judges it: exiting, stalling and an illegal move as with UCI;
// resign a resignation; a claim of a result the board does not bear out
// (a win, *, a draw before a move that does not draw) and "Illegal move"
// of a legal move (a crash). A resignation and a false claim keep the
// process for the next game.
func TestXboardFaults(t *testing.T) {
	bin := buildTestEngine(t)
	markProcesses(t)
	cases := []struct {
		flags     string
		reason    tournament.Reason
		detail    string
		processes int
	}{
		{"arg=-crash-at,arg=6", tournament.ByCrash, "exited", 2},
		{"arg=-stall-at,arg=6,stall=300", tournament.ByStall, "no answer", 2},
		{"arg=-illegal-at,arg=6", tournament.ByIllegal, "a1a1", 2},
		{"arg=-resign-at,arg=6", tournament.ByResignation, "resigned", 1},
		{"arg=-claim-at,arg=6,arg=-claim,arg=*", tournament.ByIllegal, "claimed * {testengine claims} in a game that goes on", 1},
		{"arg=-claim-at,arg=6,arg=-claim,arg=1/2-1/2", tournament.ByIllegal, "which does not end the game drawn", 1},
		{"arg=-refuse-at,arg=6", tournament.ByCrash, `said "Illegal move: `, 2},
	}
	for _, c := range cases {
		t.Run(c.flags, func(t *testing.T) {
			recs, log := playXboard(t, bin, "arg=-xboard,arg=v2,depth=1,"+c.flags, 1, nil)
			for i, r := range recs {
				extSide := games.Second
				if i%2 == 1 {
					extSide = games.First
				}
				if w, _ := r.Outcome.Winner(); r.Reason != c.reason || r.Outcome == games.Draw || w == extSide {
					t.Errorf("game %d: %s (%s: %s); want a loss of the engine's by %s", i, r.Outcome, r.Reason, r.Detail, c.reason)
				}
				if !strings.HasPrefix(r.Detail, "xb: ") || !strings.Contains(r.Detail, c.detail) {
					t.Errorf("game %d: detail %q, want the engine's name and %q", i, r.Detail, c.detail)
				}
			}
			if got := strings.Count(log, "protover 2"); got != c.processes {
				t.Errorf("%d processes started for 2 games, want %d", got, c.processes)
			}
		})
	}
}

// TestXboardOfferDraw: draw offers are passed over, as cutechess does
// (no one accepts): the games go on to their end.
func TestXboardOfferDraw(t *testing.T) {
	bin := buildTestEngine(t)
	recs, _ := playXboard(t, bin, "arg=-xboard,arg=v2,arg=-offer-draw,depth=1", 1, nil)
	for i, r := range recs {
		if r.Reason != tournament.ByRule && r.Reason != tournament.ByPlyCap {
			t.Errorf("game %d: %s (%s): %s", i, r.Outcome, r.Reason, r.Detail)
		}
	}
}

// TestXboardLimitsAndOptions: a clock is level with time and otim before
// each move, a move time st, a depth sd with a day on the clock; options
// are option NAME=VALUE (a check's true as 1), memory N; the features
// answered accepted or rejected.
func TestXboardLimitsAndOptions(t *testing.T) {
	bin := buildTestEngine(t)
	cases := []struct {
		keys string
		want []string
	}{
		{"tc=10+0.1,option.Skill=7,option.Fast=true,option.memory=64", []string{"option Skill=7\n", "option Fast=1\n", "memory 64\n", "level 0 0:10 0.1\n", "time 10", "otim 10"}},
		{"tc=40/90+0", []string{"level 40 1:30 0\n"}},
		{"movetime=2000", []string{"st 2\n"}},
		{"depth=3", []string{"sd 3\n", "time 8640000\notim 8640000\n"}},
	}
	for _, c := range cases {
		_, log := playXboard(t, bin, "arg=-xboard,arg=v2,"+c.keys, 1, nil)
		for _, w := range c.want {
			if !strings.Contains(log, w) {
				t.Errorf("%s: the engine was not sent %q:\n%s", c.keys, w, log)
			}
		}
	}
}

// TestXboardCheck: a spec is checked against the engine's features before
// any game: its options, a node limit without nps.
func TestXboardCheck(t *testing.T) {
	bin := buildTestEngine(t)
	chess, _ := all.Find("chess")
	othello, _ := all.Find("othello")
	for _, c := range []struct {
		game games.Game
		spec string
		want string
	}{
		{chess, "cmd=" + bin + ",arg=-xboard,arg=v2,proto=xboard,depth=1,option.Threads=2", `lists no option "Threads" (it lists: Fast, Skill, memory)`},
		{chess, "cmd=" + bin + ",arg=-xboard,arg=v2,proto=xboard,nodes=1000", "takes no node limit"},
		{othello, "cmd=" + bin + ",arg=-xboard,arg=v2,proto=xboard,depth=1", "plays chess, not othello"},
		{chess, "cmd=" + bin + ",arg=-xboard,arg=v2,proto=xboard,depth=1,option.skill=3", ""},
	} {
		err := Check(context.Background(), c.game, mustSpec(t, c.spec), nil)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.spec, err, c.want)
		}
	}
}
