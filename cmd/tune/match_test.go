package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gametune/gametune/tournament"
)

// TestMatchInterrupted: a long match sent SIGINT prints the summary of the
// finished games and exits with status 130 within a second.
func TestMatchInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	cmd := exec.Command(bin, "match", "--game", "othello", "--pairs", "500", "--depth", "5", "--quiet")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	elapsed := time.Since(sent)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want status 130\n%s", err, errOut.String())
	}
	if elapsed > 5*time.Second { // 1,000 games at depth 5 take minutes
		t.Fatalf("took %v to stop after SIGINT", elapsed)
	}
	if !strings.Contains(out.String(), "interrupted") || !strings.Contains(out.String(), "W-D-L") {
		t.Fatalf("no summary:\n%s", out.String())
	}
	t.Logf("stopped %v after SIGINT:\n%s", elapsed, out.String())
}

// TestMatchJSONAndRecords: a small match prints its statistics as JSON and
// writes every game to its file, appending to it when it exists (as
// cutechess and fastchess do): what was there stays.
func TestMatchJSONAndRecords(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.txt")
	code, out, errOut := tune(t, "", "match", "--game", "tictactoe", "--pairs", "4", "--depth", "9", "--openings", "random:1", "--games-out", games, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m tournament.MatchJSON
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	// Perfect play on both sides: every game drawn.
	if m.Games != 8 || m.Draws != 8 || m.Score != 0.5 || m.Pentanomial != [5]int{0, 0, 4, 0, 0} {
		t.Fatalf("%+v", m)
	}
	data, _ := os.ReadFile(games)
	if n := strings.Count(string(data), "\n"); n != 8 || !strings.Contains(string(data), "1/2-1/2 | rule") {
		t.Fatalf("%d game records:\n%s", n, data)
	}
	code, _, errOut = tune(t, "", "match", "--game", "tictactoe", "--pairs", "1", "--depth", "9", "--openings", "random:1", "--games-out", games, "--quiet", "--concurrency", "2")
	if code != 0 {
		t.Fatalf("appending: exit %d %s", code, errOut)
	}
	if again, _ := os.ReadFile(games); !strings.HasPrefix(string(again), string(data)) || strings.Count(string(again), "\n") != 10 {
		t.Fatalf("appending 2 games to 8:\n%s", again)
	}
	code, _, errOut = tune(t, "", "match", "--game", "tictactoe", "--pairs", "1", "--games-out", dir)
	if code != exitUsage || !strings.Contains(errOut, "--games-out") {
		t.Fatalf("a folder as --games-out: exit %d %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--game", "tictactoe", "--sprt", "5,0"}, "must be below"},
		{[]string{"match", "--game", "tictactoe", "--a", "nothing.json"}, "no such file"},
		{[]string{"match", "--game", "tictactoe", "--openings", filepath.Join(dir, "none.txt")}, "no such file"},
		{[]string{"match", "--game", "tictactoe", "--pairs", "0"}, "--pairs 0"},
		{[]string{"match", "--a", "default"}, "--game is required"},
		{[]string{"tournament", "--game", "tictactoe", "--format", "swiss", "--players", "default,default"}, "want roundrobin"},
		{[]string{"tournament", "--game", "tictactoe", "--players", "default"}, "at least two"},
	} {
		code, _, errOut := tune(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

func TestTournamentFormats(t *testing.T) {
	for _, format := range []string{"roundrobin", "gauntlet", "knockout"} {
		code, out, errOut := tune(t, "", "tournament", "--game", "kono", "--format", format, "--players", "default,default,default",
			"--pairs", "1", "--depth", "3", "--openings", "start", "--best-of", "2", "--json", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", format, code, errOut)
		}
		var r tournament.TournamentJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		games := 0
		for _, s := range r.Standings {
			games += s.Games
		}
		want := map[string]int{"roundrobin": 2 * 3 * 2, "gauntlet": 2 * 2 * 2}[format]
		if format == "knockout" {
			if r.Winner == "" || len(r.Bracket) != 3 {
				t.Fatalf("knockout: %+v", r)
			}
			continue
		}
		if games != want {
			t.Errorf("%s: %d player-games, want %d", format, games, want)
		}
	}
}

// TestMatchAdjudication: with a wide draw margin every game is adjudicated
// a draw after the given plies, and the records say so.
func TestMatchAdjudication(t *testing.T) {
	games := filepath.Join(t.TempDir(), "games.txt")
	code, out, errOut := tune(t, "", "match", "--game", "othello", "--pairs", "2", "--depth", "2", "--draw-after", "4", "--draw-plies", "2", "--draw-margin", "100000", "--games-out", games, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m tournament.MatchJSON
	json.Unmarshal([]byte(out), &m)
	data, _ := os.ReadFile(games)
	if m.Draws != 4 || strings.Count(string(data), "RE[+0.000]") != 4 || strings.Count(string(data), "(;GM[Othello]") != 4 {
		t.Fatalf("%+v\n%s", m, data)
	}
	if code, _, errOut := tune(t, "", "match", "--game", "othello", "--draw-plies", "-1"); code != exitUsage || !strings.Contains(errOut, "must not be negative") {
		t.Fatalf("negative adjudication: %d %s", code, errOut)
	}
}
