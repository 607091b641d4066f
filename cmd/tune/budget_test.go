package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gamesPlayed reads the games a run played in all (tune show --json), the
// yardstick's and the ladder's included.
func gamesPlayed(t *testing.T, dir string) int {
	t.Helper()
	code, out, errOut := tune(t, "", "show", dir, "--json")
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	var v struct {
		Games int `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.Games
}

// TestBudgetSpent: a run given only a games budget (no generations,
// iterations or rounds) plays that budget within 5%, counting every game
// of the run: the tuner's, the yardstick's and the ladder's. Tic-tac-toe
// from a random start, so that every tuner moves and has a ladder (knockout's
// winners settle after about 250 games: it plays on, with wider draws and
// longer matches).
func TestBudgetSpent(t *testing.T) {
	if testing.Short() {
		t.Skip("five runs of 2,000 games")
	}
	checkBudgetSpent(t, 2000)
}

// checkBudgetSpent runs every tuner on tic-tac-toe at depth 2 from a random
// start with a games budget of budget and nothing else, and checks that
// each plays it within 5%, the yardstick some of it and at most a tenth.
func checkBudgetSpent(t *testing.T, budget int) {
	dir := t.TempDir()
	full := budget
	for _, algo := range []string{"spsa", "genetic", "cmaes", "texel", "knockout", "bayes"} {
		budget := full
		if algo == "bayes" {
			// Bayes is for expensive games: each round of its 8 pairs refits
			// its model, so it spends at most 600 of tic-tac-toe's here.
			budget = min(full, 600)
		}
		run := filepath.Join(dir, algo)
		code, out, errOut := tune(t, "", "--quiet", "run", "--game", "tictactoe", "--start", "random", "--depth", "2",
			"--algo", algo, "--budget-games", itoa(budget), "--out", run)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", algo, code, out, errOut)
		}
		games, yard := gamesPlayed(t, run), yardstickGames(t, run)
		t.Logf("%s: %d games for a budget of %d, %d of them the yardstick's (%.1f%%)", algo, games, budget, yard, 100*float64(yard)/float64(games))
		if 20*games < 19*budget || 20*games > 21*budget {
			t.Errorf("%s: %d games, not within 5%% of its budget of %d", algo, games, budget)
		}
		if yard == 0 || 10*yard > games {
			t.Errorf("%s: the yardstick played %d of %d games: want some, and at most a tenth", algo, yard, games)
		}
	}
}

// TestShortLengthNoted: a length given explicitly (here at its default)
// that ends the run before its budget is said at the start of the run and
// by show; a run the budget sizes says nothing of it.
func TestShortLengthNoted(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--game", "tictactoe", "--depth", "1", "--population", "4", "--games", "1", "--yardstick-pairs", "1",
		"--budget-games", "2000"}
	want := "generations 10 ends the run after about"
	code, out, errOut := tune(t, "", append(args, "--generations", "10", "--out", filepath.Join(dir, "short"))...)
	if code != 0 || !strings.Contains(errOut, "note: "+want) {
		t.Fatalf("exit %d; stderr lacks %q:\n%s", code, want, errOut)
	}
	// Why the run ended, in words (once "10 generations, 1340 games (generations)").
	if !regexp.MustCompile(`(?m)^10 generations, \d+ games \(ended: its 10 generations played\)$`).MatchString(out) {
		t.Errorf("the result does not say in words why the run ended:\n%s", out)
	}
	if _, out, _ := tune(t, "", "show", filepath.Join(dir, "short")); !strings.Contains(out, "note: "+want) {
		t.Errorf("show lacks %q:\n%s", want, out)
	}
	code, _, errOut = tune(t, "", append(args, "--ladder-pairs", "-1", "--budget-games", "60", "--out", filepath.Join(dir, "sized"))...)
	if code != 0 || strings.Contains(errOut, "note:") {
		t.Fatalf("budget-sized run: exit %d\n%s", code, errOut)
	}
}

// yardstickGames counts the games of a run's yardstick (tune show
// --json): every champion's games against the defaults and against the
// previous champion.
func yardstickGames(t *testing.T, dir string) int {
	t.Helper()
	code, out, errOut := tune(t, "", "show", dir, "--json")
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	var v struct {
		Yardstick []struct {
			Wins       int `json:"wins"`
			Draws      int `json:"draws"`
			Losses     int `json:"losses"`
			PrevWins   int `json:"previous_wins"`
			PrevDraws  int `json:"previous_draws"`
			PrevLosses int `json:"previous_losses"`
		} `json:"yardstick"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, y := range v.Yardstick {
		n += y.Wins + y.Draws + y.Losses + y.PrevWins + y.PrevDraws + y.PrevLosses
	}
	return n
}

// TestBudget20000: tune run --budget-games 20000 with every other
// setting at its default plays between 19,000 and 21,000 games for each
// tuner, and the yardstick takes at most a tenth of them (SPSA's took
// 45% when its default was measured every block). Tic-tac-toe at depth 2,
// so that 100,000 games take about a minute.
func TestBudget20000(t *testing.T) {
	long(t, "five runs of 20,000 games")
	checkBudgetSpent(t, 20000)
}
