package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/games/othello"
)

// The engine always answers: a search in flight never stops the command
// reader (issue 30, item 4). Each test drives a real `tune engine` process.

// answerWithin bounds the wait for an answer that needs no thought: long
// enough for a machine under any load (the searches these tests stop
// never end on their own), since what the tests check is the answer and
// its order, not its speed.
const answerWithin = 30 * time.Second

// exitWithin fails unless the engine process exits within timeout.
func (p *engineProcess) exitWithin(timeout time.Duration) {
	p.t.Helper()
	select {
	case err := <-p.exited:
		p.exited <- err
	case <-time.After(timeout):
		p.t.Fatalf("the engine did not exit within %v of quit", timeout)
	}
}

// TestAnswersUCIWhileSearching: during go depth 60, a position command
// the GUI sent before stop waits for the search, but isready is answered
// at once, stop ends the search with its bestmove (and the one the queued
// go starts), and quit ends the process at once; a node-bounded search
// stops too.
func TestAnswersUCIWhileSearching(t *testing.T) {
	p := startTuneEngine(t, false, "chess")
	p.send("uci")
	p.expect("uciok", 5*time.Second)
	p.send("position startpos", "go depth 60", "stop", "isready")
	p.expect("bestmove", answerWithin)
	p.expect("readyok", answerWithin)

	p.send("go depth 60", "position startpos moves e2e4", "go depth 60", "isready")
	if _, seen := p.expect("readyok", answerWithin); len(seen) > 0 && strings.HasPrefix(seen[len(seen)-1], "bestmove") {
		t.Errorf("readyok came after a bestmove: the search did not run: %q", seen)
	}
	p.send("stop")
	p.expect("bestmove", answerWithin) // the first search, stopped
	p.expect("bestmove", answerWithin) // the queued one, stopped by the same stop

	p.send("go nodes 1000000000000", "ucinewgame", "isready")
	p.expect("readyok", answerWithin)
	p.send("stop")
	p.expect("bestmove", answerWithin)

	p.send("position startpos", "go depth 60", "setoption name Hash value 2", "quit")
	p.exitWithin(answerWithin)
}

// TestAnswersNBoardPingWhileSearching: a set game NBoard sends while the
// engine searches at depth 60 waits for the search; the ping after it stops
// the search and is answered after the search's move and status.
func TestAnswersNBoardPingWhileSearching(t *testing.T) {
	p := startTuneEngine(t, false, "othello", "--protocol", "nboard")
	game := "set game (;GM[Othello]BO[8 " + othello.StartGGFBoard + " *];)"
	p.send("nboard 2", "set depth 60", game, "ping 1")
	p.expect("pong 1", 5*time.Second)
	p.send("go", game, "ping 2")
	_, seen := p.expect("pong 2", answerWithin)
	moved := false
	for _, l := range seen {
		moved = moved || strings.HasPrefix(l, "=== ")
	}
	if !moved {
		t.Errorf("pong before the search's move: %q", seen)
	}
	p.send("hint 1", "go", "quit")
	p.exitWithin(answerWithin)
}

// TestAnswersGTPTimeBounds: a huge time_settings is refused, or genmove
// returns within seconds; time_left with NaN, Inf or a negative time is
// refused.
func TestAnswersGTPTimeBounds(t *testing.T) {
	p := startTuneEngine(t, true, "othello")
	for _, c := range []string{"time_settings 1000000000 0 0", "time_settings 999999999999999 0 0", "time_settings 86401 0 0"} {
		r := p.gtp(c, answerWithin)
		if !r.Error {
			t.Errorf("%s: accepted", c)
		}
	}
	for _, c := range []string{"time_left b NaN 0", "time_left b +Inf 0", "time_left w -1 0", "time_left b 1e300 0", "time_left b 10 -1"} {
		if r := p.gtp(c, answerWithin); !r.Error {
			t.Errorf("%s: accepted", c)
		}
	}
	start := time.Now()
	if r := p.gtp("genmove b", 5*time.Second); r.Error {
		t.Errorf("genmove b: %+v", r)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("genmove took %v", took)
	}
	// The largest clock accepted still answers: a day's main time with 1
	// stone of byo-yomi left is a clock for one move.
	if r := p.gtp("time_settings 86400 1 1", answerWithin); r.Error {
		t.Errorf("time_settings 86400 1 1: %+v", r)
	}
	if r := p.gtp("time_left w 1 1", answerWithin); r.Error {
		t.Errorf("time_left w 1 1: %+v", r)
	}
	if r := p.gtp("genmove w", 5*time.Second); r.Error {
		t.Errorf("genmove w: %+v", r)
	}
	if r := p.gtp("version", answerWithin); r.Error || strings.Contains(r.Text, "othello") {
		t.Errorf("version: %+v, want the program's version", r)
	}
	p.closeAndWait(5 * time.Second)
}
