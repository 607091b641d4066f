package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/learn"
)

// learnArgs is a small learn of Othello's patterns from empty tables, two
// rounds: 100 self-play games, then 200 (some 2 s of CPU).
func learnArgs(dir, name string) []string {
	return []string{"learn", "--game", "othello", "--evaluator", "patterns", "--start", "empty", "--budget-games", "400",
		"--rounds", "2", "--depth", "2", "--seed", "3", "--workers", "2",
		"-o", filepath.Join(dir, name+".gtw"), "--positions", filepath.Join(dir, name+".pos")}
}

// waitForLine waits until the process's standard error holds line.
func waitForLine(t *testing.T, p *started, line string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(p.stderr.String(), line) {
		select {
		case <-p.done:
			t.Fatalf("ended before %q:\n%s", line, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after 2 minutes:\n%s", line, p.stderr)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func storedGames(t *testing.T, path string) []learn.Game {
	t.Helper()
	g, _ := all.Find("othello")
	set, err := learn.ReadPositionsFile(path, g)
	if err != nil {
		t.Fatal(err)
	}
	return set.Games
}

// TestLearnInterruptedGoesOn (issue 57): tune learn interrupted with SIGINT
// in round 1's self-play ends with status 130, keeps the games it finished
// (round 0's and round 1's so far) in --positions and its weights so far in
// FILE.resume, and writes no -o; the same command run again continues
// round 1 and writes the very file an uninterrupted run writes, its
// positions file holding the same games (none played twice). Killed with
// SIGKILL instead, it loses at most the games in flight (and those of its
// last quarter second): run again, it ends the same.
func TestLearnInterruptedGoesOn(t *testing.T) {
	if testing.Short() {
		t.Skip("three learns of some 5 s")
	}
	bin := buildTune(t)
	dir := t.TempDir()
	p := start(t, bin, learnArgs(dir, "whole")...)
	if code := p.exitCode(t, 5*time.Minute); code != 0 {
		t.Fatalf("uninterrupted: exit %d: %s", code, p.stderr)
	}
	whole, err := os.ReadFile(filepath.Join(dir, "whole.gtw"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.stderr.String(), "round 1: 200 self-play games") {
		t.Fatalf("not the rounds planned: %s", p.stderr)
	}
	wholeGames := storedGames(t, filepath.Join(dir, "whole.pos"))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			name := "cut-" + strings.ReplaceAll(sig.String(), " ", "")
			args := learnArgs(dir, name)
			out, resume := filepath.Join(dir, name+".gtw"), filepath.Join(dir, name+".gtw.resume")
			p := start(t, bin, args...)
			waitForLine(t, p, "learn: round 1: self-play 40/200 games")
			if sig == syscall.SIGKILL {
				// Once round 1's first games are in the file.
				for len(storedGames(t, filepath.Join(dir, name+".pos"))) <= 100 {
					time.Sleep(10 * time.Millisecond)
				}
			}
			p.cmd.Process.Signal(sig)
			code := p.exitCode(t, time.Minute)
			kept := storedGames(t, filepath.Join(dir, name+".pos"))
			switch {
			case sig == syscall.SIGINT && (code != exitInterrupted || !strings.Contains(p.stdout.String(), "the othello patterns weights so far are in "+resume)):
				t.Fatalf("SIGINT: exit %d, %s\n%s", code, p.stdout, p.stderr)
			case sig == syscall.SIGINT && len(kept) < 140:
				t.Errorf("SIGINT after 40 of round 1's games: the positions file keeps %d games, want round 0's 100 and at least 40 more", len(kept))
			case len(kept) <= 100 || !reflect.DeepEqual(kept, wholeGames[:len(kept)]):
				t.Errorf("%v: the positions file keeps %d games, want more than round 0's 100, the uninterrupted run's first", sig, len(kept))
			case len(kept) == len(wholeGames):
				t.Logf("%v came after round 1's self-play: its games were all kept", sig)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v: the interrupted run wrote -o", sig)
			}
			if _, err := os.Stat(resume); err != nil {
				t.Errorf("%v: no state kept: %v", sig, err)
			}
			t.Logf("%v in round 1: %d games kept", sig, len(kept))
			again := start(t, bin, args...)
			if code := again.exitCode(t, 5*time.Minute); code != 0 {
				t.Fatalf("run again: exit %d: %s", code, again.stderr)
			}
			if strings.Contains(again.stderr.String(), "learn: round 0:") {
				t.Errorf("run again, it played round 0 again:\n%s", again.stderr)
			}
			got, err := os.ReadFile(out)
			if err != nil || !bytes.Equal(got, whole) {
				t.Errorf("run again: -o differs from the uninterrupted run's (%v)", err)
			}
			if games := storedGames(t, filepath.Join(dir, name+".pos")); !reflect.DeepEqual(games, wholeGames) {
				t.Errorf("run again: the positions file holds %d games, want the uninterrupted run's %d", len(games), len(wholeGames))
			}
			if _, err := os.Stat(resume); err == nil {
				t.Errorf("the state %s is left behind after the result was written", resume)
			}
		})
	}
}

// TestLearnUnwritableOutput (issue 57): -o in a folder that does not exist
// is refused before any game: at once, exit 2, no positions file made,
// no round begun (the budget would take minutes to play).
func TestLearnUnwritableOutput(t *testing.T) {
	bin := buildTune(t)
	dir := t.TempDir()
	store := filepath.Join(dir, "p.pos")
	p := start(t, bin, "learn", "--game", "othello", "--evaluator", "patterns", "--budget-games", "100000", "--depth", "4",
		"-o", "/nonexistent/x.gtw", "--positions", store)
	code := p.exitCode(t, 30*time.Second)
	errOut := p.stderr.String()
	if code != exitUsage || !strings.Contains(errOut, "the folder /nonexistent does not exist (create it first)") || strings.Contains(errOut, "round") {
		t.Errorf("exit %d, %q; want 2, the folder named, no round", code, errOut)
	}
	if _, err := os.Stat(store); err == nil {
		t.Error("a positions file was made")
	}
	// The positions file is checked as well, before any game.
	p = start(t, bin, "learn", "--game", "othello", "--evaluator", "patterns", "--budget-games", "100000", "--depth", "4",
		"-o", filepath.Join(dir, "x.gtw"), "--positions", "/nonexistent/p.pos")
	code = p.exitCode(t, 30*time.Second)
	if errOut := p.stderr.String(); code != exitUsage || !strings.Contains(errOut, "positions file: cannot write /nonexistent/p.pos") || strings.Contains(errOut, "round") {
		t.Errorf("--positions in no folder: exit %d, %q", code, errOut)
	}
}
