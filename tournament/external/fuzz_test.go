package external

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// discard is an engine's stdin that takes everything.
type discard struct{ io.Writer }

func (discard) Close() error { return nil }

// outputProcess is a process that has exited and whose stdout was
// output: its lines come through the same reader as a real engine's.
func outputProcess(output []byte) *process {
	p := &process{name: "fuzz", stdin: discard{io.Discard}, stderr: newStderrLog(nil, "fuzz"),
		lines: make(chan string, 256), done: make(chan struct{}), quit: make(chan struct{})}
	close(p.done)
	go p.read(bytes.NewReader(output))
	return p
}

// checkReply fails unless err is nil and r.Move legal in p, or err is a
// Fault.
func checkReply(t *testing.T, p games.Position, r tournament.Reply, err error) {
	t.Helper()
	var f *tournament.Fault
	switch {
	case err == nil:
		moves, _ := p.Moves(nil)
		for _, m := range moves {
			if m == r.Move {
				return
			}
		}
		t.Fatalf("move %d accepted, not legal in %s", r.Move, p.String())
	case !errors.As(err, &f):
		t.Fatalf("error %v, want a Fault", err)
	case strings.ContainsAny(f.Detail, "\n\r\x00"):
		t.Fatalf("a fault's detail holds a control character: %q", f.Detail)
	}
}

// FuzzUCIOutput reads what a UCI engine writes: the handshake up to uciok
// (and the options listed), then a search's info lines up to bestmove.
// Nothing panics, a move accepted is legal, any other end is a Fault or
// an ErrSpec error.
func FuzzUCIOutput(f *testing.F) {
	f.Add([]byte("id name x\noption name Hash type spin default 16 min 1 max 64\nuciok\n"), []byte("info depth 3 score cp 20 nodes 300 pv e2e4\nbestmove e2e4 ponder e7e5\n"))
	f.Add([]byte("uciok\n"), []byte("info score mate -3 nodes 9\nbestmove a1a1\n"))
	f.Add([]byte("option name\nuciok"), []byte("info score cp\nbestmove\n"))
	f.Add([]byte(""), []byte("bestmove (none)\n"))
	g, _ := all.Find("chess")
	f.Fuzz(func(t *testing.T, handshake, search []byte) {
		x := &mover{spec: Spec{Name: "fuzz", Protocol: ProtocolUCI, Options: []Option{{"Hash", "8"}}}, proc: outputProcess(handshake)}
		err := x.greetUCI(context.Background())
		var fault *tournament.Fault
		if err != nil && !errors.As(err, &fault) && !errors.Is(err, ErrSpec) {
			t.Fatalf("handshake: %v, want a Fault or ErrSpec", err)
		}
		x.proc = outputProcess(search)
		p := g.Start()
		r, err := x.readBestMove(context.Background(), p, time.Second)
		checkReply(t, p, r, err)
	})
}

// FuzzGTPOutput reads a GTP engine's answer to genmove in Othello's start
// position: a move accepted is legal, any other end is a Fault.
func FuzzGTPOutput(f *testing.F) {
	f.Add([]byte("= d3\n\n"))
	f.Add([]byte("=1 pass\n\n"))
	f.Add([]byte("? illegal move\n\n"))
	f.Add([]byte("= \n= c4\n\n"))
	f.Add([]byte("d3"))
	g, _ := all.Find("othello")
	f.Fuzz(func(t *testing.T, answer []byte) {
		p := g.Start()
		x := &mover{spec: Spec{Name: "fuzz", Protocol: ProtocolGTP}, proc: outputProcess(answer), replay: p.Clone()}
		r, err := x.moveGTP(context.Background(), tournament.Turn{Position: p}, time.Second)
		checkReply(t, p, r, err)
	})
}

// FuzzParseEngines reads engines files: nothing panics, and every engine
// a file lists either fails Parse with ErrSpec or is a spec whose options
// hold no control character and which reads back the same.
func FuzzParseEngines(f *testing.F) {
	f.Add([]byte("- name: sf\n  cmd: /usr/games/stockfish\n  proto: uci\n  options: {Hash: 16, UCI_Elo: 1800}\n  depth: 8\n"))
	f.Add([]byte("- name: r\n  cmd: gtp-rhino\n  proto: gtp\n  args: [-l, 3]\n  tc: 40/60+0.5\n"))
	f.Add([]byte("- name: e\n  cmd: e\n  proto: uci\n  depth: 1\n  options: {pawn: \"1\\nsetoption name Hash value 9\"}\n"))
	f.Add([]byte("- &a {name: x, cmd: y, proto: uci, depth: 1}\n- *a\n"))
	f.Add([]byte(`[{"name":0}]00`)) // YAML: an engine without a cmd
	f.Add([]byte("- {name: c, cmd: \"a,b\", proto: uci, depth: 1, options: {P: \"x,y\"}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		en, err := ParseEngines(data)
		if err != nil {
			return
		}
		for name, s := range en {
			if strings.HasPrefix(s, "cmd=,") {
				t.Fatalf("%s: an engine without a command: %q", name, s)
			}
			e, err := Parse(s)
			if err != nil {
				if !errors.Is(err, ErrSpec) {
					t.Fatalf("%s: %v, want ErrSpec", name, err)
				}
				continue
			}
			for _, o := range e.Options {
				if controlIndex(o.Name) >= 0 || controlIndex(o.Value) >= 0 {
					t.Fatalf("%s: option %q=%q holds a control character", name, o.Name, o.Value)
				}
			}
			back, err := Parse(e.String())
			if err != nil || back.String() != e.String() {
				t.Fatalf("%s: %q read back as %q: %v", name, e.String(), back.String(), err)
			}
		}
	})
}
