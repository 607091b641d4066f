package terminal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/terminal"
)

// TestServe: a tic-tac-toe game with every command, a save that refuses to
// overwrite, and a load that restores the saved game.
func TestServe(t *testing.T) {
	g, _ := all.Find("tictactoe")
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 9}})
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "game.txt")
	input := strings.Join([]string{"b2", "b2", "moves", "fen", "undo", "a1", "save " + saved, "save " + saved, "load " + saved,
		"load /nonexistent", "help", "quit", "c3"}, "\n")
	var out strings.Builder
	if err := terminal.Serve(context.Background(), strings.NewReader(input), &out, e, terminal.Options{Human: games.First}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"tictactoe: you play first", "engine plays", "is taken", "legal moves:", "saved to " + saved,
		"exists; choose a new name", "cannot load: open /nonexistent", terminal.Help} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	data, err := os.ReadFile(saved)
	if err != nil || !strings.HasPrefix(string(data), "game tictactoe\nstart ---------\na1\n") {
		t.Errorf("saved %q, %v", data, err)
	}
	if strings.Count(text, "> ") < 12 {
		t.Errorf("quit did not come last:\n%s", text)
	}
}

// TestServeSecond: the engine moves first when the person plays second,
// and the end of the input ends the game.
func TestServeSecond(t *testing.T) {
	g, _ := all.Find("nim")
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := terminal.Serve(context.Background(), strings.NewReader(""), &out, e, terminal.Options{Human: games.Second}); err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(out.String(), "engine plays"), strings.Index(out.String(), "> "); i < 0 || j < i {
		t.Errorf("the engine did not move first:\n%s", out.String())
	}
}
