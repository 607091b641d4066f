package xboard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/protocoltest"
)

// live serves a chess session over pipes, its searches of depth 2 when
// the GUI gives no limit.
func live(t *testing.T) (*protocoltest.Live, games.Game) {
	t.Helper()
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, MaxTableMiB: 8, Limits: engine.Limits{Depth: 2}})
	if err != nil {
		t.Fatal(err)
	}
	return protocoltest.Start(t, func(ctx context.Context, r io.Reader, w io.Writer) error { return Serve(ctx, r, w, e) }), g
}

// engineMove waits for the engine's move and plays it on p, which it must
// be legal in; it returns the move and the lines before it.
func engineMove(t *testing.T, l *protocoltest.Live, p games.Position) (string, []string) {
	t.Helper()
	line, seen := l.Await("move ", 30*time.Second)
	text := strings.TrimPrefix(line, "move ")
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatalf("the engine played %q in %s: %v", text, p.String(), err)
	}
	p.Play(m)
	return text, seen
}

// TestServeHandshake: protover 2 is answered with the features, done=1
// last, every one of which a GUI (this package's Features) accepts.
func TestServeHandshake(t *testing.T) {
	l, _ := live(t)
	l.Send("xboard", "protover 2")
	_, seen := l.Await("feature done=1", 10*time.Second)
	fs := DefaultFeatures()
	for _, line := range seen {
		o, err := ParseOutput(line)
		if err != nil || o.Kind != FeatureLine {
			t.Fatalf("%q: %+v, %v", line, o, err)
		}
		for _, f := range o.Features {
			if !fs.Set(f) {
				t.Errorf("feature %v rejected", f)
			}
		}
	}
	if !fs.Ping || !fs.SetBoard || !fs.UserMove || !fs.Memory || fs.SigInt || fs.SigTerm || fs.SAN || !fs.PlaysNormal() ||
		!strings.HasPrefix(fs.MyName, "gametune chess ") || len(fs.Options) != 2 || fs.Options[0].Name != "Move Overhead" {
		t.Errorf("features %+v", fs)
	}
}

// TestServeGame: a whole game against the engine on a clock: new, level,
// sd, time and otim before each move, usermove for the GUI's moves and a
// plain move as a version 1 GUI sends it, post's thinking lines, ping
// answered after the engine's move, force and go in the middle, undo,
// remove and playother, and the game to its end, the result claimed by
// the engine or sent by the GUI.
func TestServeGame(t *testing.T) {
	l, g := live(t)
	p := g.Start()
	l.Send("xboard", "protover 2", "new", "level 0 0:05 0", "sd 3", "post", "time 500", "otim 500", "usermove e2e4")
	p.Play(mustMove(t, p, "e2e4"))
	_, seen := engineMove(t, l, p)
	if o, _ := ParseOutput(seen[len(seen)-1]); o.Kind != ThinkingLine || o.Thinking.Depth < 1 || o.Thinking.PV == "" {
		t.Errorf("no thinking line before the move: %q", seen)
	}
	l.Send("ping 1")
	if _, seen := l.Await("pong 1", 10*time.Second); len(seen) > 0 {
		t.Errorf("before pong: %q", seen)
	}
	l.Send("force", "undo", "undo", "usermove d2d4", "d7d5", "go")
	p = g.Start()
	p.Play(mustMove(t, p, "d2d4"))
	p.Play(mustMove(t, p, "d7d5"))
	engineMove(t, l, p)
	for ply := 0; ply < 400; ply++ {
		moves, outcome := p.Moves(nil)
		if outcome != games.Ongoing {
			line, _ := l.Await("", 10*time.Second)
			if r, _ := ParseOutput(line); r.Kind != ResultLine {
				t.Fatalf("the game is over (%s): the engine said %q, not the result", outcome, line)
			}
			return
		}
		m := moves[ply*7%len(moves)]
		text := p.(games.UCIFormatter).UCI(m)
		p.Play(m)
		l.Send("time 300", "otim 300", "usermove "+text)
		if _, outcome := p.Moves(nil); outcome != games.Ongoing {
			l.Send("result * {game over}", "ping 3")
			l.Expect("pong 3", 10*time.Second)
			return
		}
		engineMove(t, l, p)
		if ply == 3 { // take back the GUI's move and the engine's: the engine then plays the other side
			l.Send("force", "remove", "playother")
			p.Undo()
			p.Undo()
		}
	}
	t.Fatal("the game did not end in 400 plies")
}

func mustMove(t *testing.T, p games.Position, s string) games.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestServeSetboardAndInterrupts: setboard then go from black's side of a
// position; st makes a long search that ? cuts short with its move; force
// cuts one short without a move; sd bounds a search.
func TestServeSetboardAndInterrupts(t *testing.T) {
	l, g := live(t)
	const fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	p, _ := g.ParsePosition(fen)
	l.Send("new", "force", "setboard "+fen, "go")
	engineMove(t, l, p)
	l.Send("force", "st 1000", "go")
	time.Sleep(100 * time.Millisecond)
	l.Send("?")
	engineMove(t, l, p)
	l.Send("go")
	time.Sleep(100 * time.Millisecond)
	l.Send("force", "ping 5")
	if _, seen := l.Await("pong 5", 10*time.Second); len(seen) > 0 {
		t.Errorf("force answered %q, want nothing before pong", seen)
	}
	l.Send("sd 1", "post", "go")
	_, seen := l.Await("move ", 30*time.Second)
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "1 ") {
		t.Errorf("sd 1 searched %q", seen)
	}
}

// TestServeErrors: each fault of the input is answered with one line and
// changes nothing: the engine then plays on from where it was.
func TestServeErrors(t *testing.T) {
	l, g := live(t)
	l.Send("new", "force", "frobnicate", "usermove e2e5", "e2e5", "undo", "setboard 8/8/8 w", "level 40", "st x",
		"sd 0", "time x", "memory 0", "option Threads=2", "option Move Overhead=9999", "variant xiangqi", "usermove", "ping 1")
	_, seen := l.Await("pong 1", 10*time.Second)
	want := []string{
		"Error (unknown command): frobnicate",
		"Illegal move (",
		"Illegal move (",
		"Error (no move to take back: 0 played since the game was set up): undo",
		"tellusererror Illegal position: ",
		"Error (illegal position): setboard 8/8/8 w",
		"Error (xboard: level \"40\": want level MOVES BASE INC",
		"Error (xboard: \"x\": want seconds",
		"Error (sd takes a depth from 1 to 1000): sd 0",
		"Error (xboard: clock \"x\"",
		"Error (memory takes a number of MiB, 1 or more): memory 0",
		"Error (no such option (options: Move Overhead, Clear Hash)): option Threads=2",
		"Error (Move Overhead takes whole milliseconds from 0 to 5000): option Move Overhead=9999",
		"Error (unsupported variant: this engine plays normal): variant xiangqi",
		"Error (usermove needs a move): usermove",
	}
	if len(seen) != len(want) {
		t.Fatalf("answers %q, want %d", seen, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(seen[i], w) {
			t.Errorf("answer %d: %q, want %q", i, seen[i], w)
		}
	}
	p := g.Start()
	l.Send("usermove e2e4", "go")
	p.Play(mustMove(t, p, "e2e4"))
	engineMove(t, l, p)
}
