package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/protocol/nboard"
	"github.com/gametune/gametune/protocol/uci"
)

// bestMove waits for a bestmove line and returns its move.
func bestMove(t *testing.T, p *engineProcess, timeout time.Duration) string {
	t.Helper()
	m, _ := bestMoveTimed(t, p, timeout)
	return m
}

// bestMoveTimed also returns the search time the engine reported in its
// last info line (0 if none).
func bestMoveTimed(t *testing.T, p *engineProcess, timeout time.Duration) (string, time.Duration) {
	t.Helper()
	line, before := p.expect("bestmove", timeout)
	c, _ := uci.ParseCommand(line)
	m, err := uci.ParseBestMove(c.Args)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	var took time.Duration
	for _, l := range before {
		f := strings.Fields(l)
		for i := 0; i+1 < len(f); i++ {
			if f[0] == "info" && f[i] == "time" {
				if ms, err := strconv.Atoi(f[i+1]); err == nil {
					took = time.Duration(ms) * time.Millisecond
				}
			}
		}
	}
	return m.Move, took
}

// TestEngineUCIBadInput: every kind of bad input gets one error line, and
// the engine keeps its last legal state and goes on.
func TestEngineUCIBadInput(t *testing.T) {
	p := startTuneEngine(t, false, "chess", "--evaluator", "textbook", "--hash", "4")
	p.send("uci")
	_, hello := p.expect("uciok", 10*time.Second)
	if !strings.HasPrefix(hello[0], "id name gametune chess") || !strings.Contains(strings.Join(hello, "\n"), "option name pawn type spin default 100 min 50 max 200") {
		t.Fatalf("uci answer: %q", hello)
	}
	p.send("go depth 2")
	if l, _ := p.expect("info string error: go before position", 5*time.Second); l == "" {
		t.Fatal("no error for go before position")
	}
	if m := bestMove(t, p, 5*time.Second); m != "0000" {
		t.Fatalf("go before position: bestmove %s", m)
	}
	for _, tt := range []struct{ command, error string }{
		{"frobnicate", `unknown command "frobnicate"`},
		{"position startpos moves e2e4 e7e5 e1e2 a7a5 e2e4", "move 5 (e2e4)"},
		{"position fen 8/8/8 w - - 0 1", "chess"},
		{"setoption name pawn value 20", "from 50 to 200"},
		{"setoption name Hash value 0", "hash 0: want 1 to 65536 MiB"},
		{"setoption name Bogus value 1", `no option "Bogus"`},
		{"go depth x", "want an integer"},
	} {
		if tt.command == "position startpos moves e2e4 e7e5 e1e2 a7a5 e2e4" {
			p.send("position startpos moves e2e4 e7e5")
		}
		p.send(tt.command)
		p.send("isready")
		line, _ := p.expect("info string error:", 5*time.Second)
		if !strings.Contains(line, tt.error) {
			t.Errorf("%s: %q, want %q in it", tt.command, line, tt.error)
		}
		p.expect("readyok", 5*time.Second)
	}
	// The illegal position left the last legal one: after 1. e4 e5, white to move.
	p.send("go depth 3")
	m := bestMove(t, p, 10*time.Second)
	pos := chess.Start()
	for _, s := range []string{"e2e4", "e7e5", m} {
		mv, err := pos.ParseMove(s)
		if err != nil {
			t.Fatalf("after the bad input, bestmove %s is not legal after 1. e4 e5: %v", m, err)
		}
		pos.Play(mv)
	}
	p.closeAndWait(5 * time.Second)
}

// TestEngineUCIGame plays a whole game through one `tune engine chess`
// process (it plays both sides), then stops a go infinite and ends on the
// end of its input. With -short the game is at depth 1; otherwise it is at
// 1 s + 0.01 s per move, and the engine must never run out of time.
func TestEngineUCIGame(t *testing.T) {
	p := startTuneEngine(t, false, "chess")
	p.send("uci", "ucinewgame", "isready")
	p.expect("readyok", 10*time.Second)
	pos := chess.Start()
	var moves []string
	// Two clocks: the engine's own search time, which its time management
	// answers for and must never run out, and the wall time a GUI sees,
	// which adds the pipes and the operating system's scheduling (the
	// engine keeps 10 ms a move for them; a loaded test machine can take
	// far more), logged.
	clock := [2]time.Duration{time.Second, time.Second}
	wall := clock
	const inc = 10 * time.Millisecond
	var buf []games.Move
	outcome := games.Ongoing
	for ply := 0; ply < 300; ply++ {
		if buf, outcome = pos.Moves(buf[:0]); outcome != games.Ongoing {
			break
		}
		p.send("position startpos moves " + strings.Join(moves, " "))
		side := pos.Turn()
		start := time.Now()
		if testing.Short() {
			p.send("go depth 1")
		} else {
			p.send(fmt.Sprintf("go wtime %d btime %d winc %d binc %d", wall[0].Milliseconds(), wall[1].Milliseconds(), inc.Milliseconds(), inc.Milliseconds()))
		}
		m, took := bestMoveTimed(t, p, 10*time.Second)
		wall[side] -= time.Since(start)
		clock[side] -= took
		if !testing.Short() && clock[side] <= 0 {
			t.Fatalf("ply %d: %s lost on time: its searches used up the clock (%v left)", ply+1, side, clock[side])
		}
		if !testing.Short() && wall[side] <= 0 {
			t.Logf("ply %d: %s's wall clock ran out (%v): the machine held the process back", ply+1, side, wall[side])
			wall[side] = inc
		}
		clock[side] += inc
		wall[side] += inc
		mv, err := pos.ParseMove(m)
		if err != nil {
			t.Fatalf("ply %d: bestmove %s: %v", ply+1, m, err)
		}
		pos.Play(mv)
		moves = append(moves, m)
	}
	t.Logf("game over after %d plies: %s; search clocks left %v / %v, wall clocks %v / %v", len(moves), outcome,
		clock[0].Round(time.Millisecond), clock[1].Round(time.Millisecond), wall[0].Round(time.Millisecond), wall[1].Round(time.Millisecond))

	// go infinite searches until stop; bestmove comes at once (about 1 ms
	// on an idle machine; the bound is generous so that a busy one passes).
	p.send("ucinewgame", "position startpos", "go infinite")
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	p.send("stop")
	m := bestMove(t, p, 5*time.Second)
	took := time.Since(start)
	t.Logf("stop during go infinite: bestmove %s after %v", m, took)
	if took > 2*time.Second {
		t.Errorf("bestmove %v after stop, want it at once (at most 2 s)", took)
	}
	if _, err := chess.Start().ParseMove(m); err != nil {
		t.Errorf("bestmove %s after stop: %v", m, err)
	}
	// An infinite search at the end of the input ends too.
	p.send("go infinite")
	p.closeAndWait(5 * time.Second)
}

// TestEngineGTPGame plays a whole Othello game through `tune engine othello
// --protocol gtp`, both sides, with bad input on the way.
func TestEngineGTPGame(t *testing.T) { playGTPGame(t, "--depth", "2") }

// TestEnginePatterns: tune engine othello --evaluator patterns plays whole
// games over GTP and NBoard with the shipped tables, and over GTP with
// tables read from a compact weights file (--weights).
func TestEnginePatterns(t *testing.T) {
	playGTPGame(t, "--depth", "2", "--evaluator", "patterns")
	playNBoardGame(t, "--evaluator", "patterns")
	file := filepath.Join(t.TempDir(), "patterns.gtw")
	if code, _, errOut := tune(t, "", "export", "--weights", "default:patterns", "--game", "othello", "-o", file); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	playGTPGame(t, "--depth", "2", "--weights", file)
}

func playGTPGame(t *testing.T, args ...string) {
	p := startTuneEngine(t, true, append([]string{"othello"}, args...)...)
	for _, c := range []string{"protocol_version", "boardsize 8", "clear_board"} {
		if r := p.gtp(c, 5*time.Second); r.Error {
			t.Fatalf("%s: %+v", c, r)
		}
	}
	pos := othello.Start()
	var buf []games.Move
	for ply := 0; ; ply++ {
		var outcome games.Outcome
		if buf, outcome = pos.Moves(buf[:0]); outcome != games.Ongoing {
			t.Logf("game over after %d plies: %s", ply, outcome)
			break
		}
		colour := gtp.ColorName(pos.Turn() == games.First)
		if ply == 3 {
			for _, bad := range []string{"play " + colour + " a1", "genmove green", "dance", "play", "boardsize 10"} {
				if r := p.gtp(bad, 5*time.Second); !r.Error {
					t.Errorf("%s: %+v, want an error", bad, r)
				}
			}
			if r := p.gtp("undo", 5*time.Second); r.Error {
				t.Fatalf("undo: %+v", r)
			}
			pos.Undo()
			colour = gtp.ColorName(pos.Turn() == games.First)
		}
		r := p.gtp("genmove "+colour, 10*time.Second)
		if r.Error {
			t.Fatalf("ply %d: genmove %s: %+v", ply+1, colour, r)
		}
		mv, err := pos.ParseMove(r.Text)
		if err != nil {
			t.Fatalf("ply %d: genmove %s gave %q: %v", ply+1, colour, r.Text, err)
		}
		pos.Play(mv)
	}
	if r := p.gtp("final_score", 5*time.Second); r.Error || r.Text != gtp.FinalScore(pos) {
		t.Errorf("final_score: %+v, want %s", r, gtp.FinalScore(pos))
	}
	p.closeAndWait(5 * time.Second)
}

// TestEngineNBoardGame plays a whole game as the NBoard GUI does: set game,
// go, then the move it chose, with a ping after each move and bad input.
func TestEngineNBoardGame(t *testing.T) { playNBoardGame(t, "--evaluator", "full") }

func playNBoardGame(t *testing.T, args ...string) {
	p := startTuneEngine(t, false, append([]string{"othello", "--protocol", "nboard"}, args...)...)
	p.send("nboard 2", "set depth 3", "set game (;GM[Othello]BO[8 "+othello.StartGGFBoard+" *];)", "ping 1")
	p.expect("pong 1", 5*time.Second)
	pos := othello.Start()
	var buf []games.Move
	for ply := 0; ; ply++ {
		var outcome games.Outcome
		if buf, outcome = pos.Moves(buf[:0]); outcome != games.Ongoing {
			t.Logf("game over after %d plies: %s", ply, outcome)
			break
		}
		if ply == 10 {
			p.send("move a1", "set game (;GM[Othello]BO[8 "+othello.StartGGFBoard+" *]B[A1];)", "jump", "set depth -3", "ping 2")
			_, seen := p.expect("pong 2", 5*time.Second)
			errors := 0
			for _, l := range seen {
				if strings.HasPrefix(l, "status error:") {
					errors++
				}
			}
			if errors != 4 {
				t.Errorf("bad input: %d error lines, want 4: %q", errors, seen)
			}
		}
		p.send("go")
		line, _ := p.expect("===", 10*time.Second)
		a, err := nboard.ParseAnswer(line)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := pos.ParseMove(nboardSquare(a.Move))
		if err != nil {
			t.Fatalf("ply %d: %q: %v", ply+1, line, err)
		}
		pos.Play(mv)
		p.send("move "+a.Move.String(), fmt.Sprintf("ping %d", ply+100))
		p.expect(fmt.Sprintf("pong %d", ply+100), 5*time.Second)
	}
	p.closeAndWait(5 * time.Second)
}

// nboardSquare is an NBoard move in games/othello's notation.
func nboardSquare(m nboard.Move) string {
	if m.IsPass() {
		return "pass"
	}
	return m.Square
}
