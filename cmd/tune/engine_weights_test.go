package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/tournament"
)

// writeTunedWeights writes a weights file of evaluator ev whose weights
// differ from the defaults (each moved by a few steps within its range), as
// 'tune export --format json' writes one.
func writeTunedWeights(t *testing.T, g games.Game, ev *games.Evaluator) (string, []float64) {
	t.Helper()
	w := ev.Defaults()
	for i, f := range ev.Features {
		step := f.Step
		if step == 0 {
			step = 0.01
		}
		moved := w[i] + float64(i%3-1)*3*step
		if moved >= f.Min && moved <= f.Max {
			w[i] = moved
		}
	}
	path := filepath.Join(t.TempDir(), "tuned.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := games.WriteWeights(f, g, ev, w, map[string]any{"test": "engine"}); err != nil {
		t.Fatal(err)
	}
	return path, w
}

// builtinGame plays a game of the built-in player against itself with the
// weights of path at a fixed depth: the reference moves. One engine process
// plays both sides here, with one table, so the reference searches both
// sides with one searcher too.
func builtinGame(t *testing.T, g games.Game, path string, depth, plies int) []string {
	t.Helper()
	ev, w, err := games.ReadWeights(path, g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.NewSearchers(16)
	if err != nil {
		t.Fatal(err)
	}
	s[1] = s[0]
	pl := tournament.Player{Name: "tuned", Evaluator: ev, Weights: w, Limits: engine.Limits{Depth: depth}}
	rec, err := tournament.Play(context.Background(), s, tournament.GameSpec{Game: g, First: pl, Second: pl, MaxPlies: plies})
	if err != nil {
		t.Fatal(err)
	}
	return rec.Moves
}

// TestEngineWeightsFile: `tune engine` with a weights file plays the moves of
// the built-in player with those weights at the same fixed depth, through
// GTP (Othello) and UCI (chess), both with the exact search the built-in
// player searches with.
func TestEngineWeightsFile(t *testing.T) {
	t.Run("othello-gtp", func(t *testing.T) {
		g := othello.Game()
		ev, _ := games.FindEvaluator(g, "full")
		path, _ := writeTunedWeights(t, g, ev)
		want := builtinGame(t, g, path, 4, 0)
		p := startTuneEngine(t, true, "othello", "--weights", path, "--depth", "4", "--hash", "16", "--search", "exact")
		p.gtp("clear_board", 5*time.Second)
		pos := othello.Start()
		for i, w := range want {
			r := p.gtp("genmove "+gtp.ColorName(pos.Turn() == games.First), 10*time.Second)
			if got := strings.ToLower(r.Text); r.Error || got != w {
				t.Fatalf("ply %d: tune engine plays %q, the built-in player %s (so far %v)", i+1, r.Text, w, want[:i])
			}
			m, _ := pos.ParseMove(w)
			pos.Play(m)
		}
		t.Logf("%d plies, the same moves", len(want))
	})
	t.Run("chess-uci", func(t *testing.T) {
		g := chess.Game()
		ev, _ := games.FindEvaluator(g, "textbook")
		path, _ := writeTunedWeights(t, g, ev)
		plies := 60
		if testing.Short() {
			plies = 16
		}
		want := builtinGame(t, g, path, 3, plies)
		p := startTuneEngine(t, false, "chess", "--weights", path, "--search", "exact")
		p.send("uci", "ucinewgame", "isready")
		p.expect("readyok", 5*time.Second)
		pos := chess.Start()
		var moves []string
		for i, w := range want {
			p.send("position startpos moves "+strings.Join(moves, " "), "go depth 3")
			got := bestMove(t, p, 10*time.Second)
			m, err := pos.ParseMove(got)
			if err != nil || pos.FormatMove(m) != w {
				t.Fatalf("ply %d: tune engine plays %s, the built-in player %s", i+1, got, w)
			}
			pos.Play(m)
			moves = append(moves, got)
		}
		t.Logf("%d plies, the same moves", len(want))
	})
}
