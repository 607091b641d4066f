package uci

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// serve runs one session over input and returns its output lines.
func serve(t *testing.T, game, input string) []string {
	t.Helper()
	g, err := all.Find(game)
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, MaxTableMiB: 64})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Serve(context.Background(), strings.NewReader(input), &out, e); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// TestServe: a session in the UCI dialect of a game without UCI notation
// of its own (tic-tac-toe): the hello with the options, a search of a won
// position reported as a mate, and errors that leave the position alone.
func TestServe(t *testing.T) {
	got := serve(t, "tictactoe", strings.Join([]string{
		"uci", "setoption name Hash value 4", "setoption name Hash value 65", "frobnicate",
		"position startpos moves b2 a1 a2 c1", "position startpos moves b2 b2", "go depth 9", "isready", "quit", "go depth 1",
	}, "\n"))
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"id name gametune tictactoe", "option name Hash type spin default 1 min 1 max 64", "uciok",
		"info string error: hash 65: want 1 to 64 MiB", `info string error: unknown command "frobnicate"`,
		"info string error: move 2 (b2)", "score mate 1", "bestmove c2", "readyok",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Count(text, "bestmove") != 1 {
		t.Errorf("quit did not end the session:\n%s", text)
	}
}

// TestServeGoWithoutPosition: go before position, or in a finished game,
// answers bestmove 0000 after an error line.
func TestServeGoWithoutPosition(t *testing.T) {
	got := serve(t, "tictactoe", "go depth 1\nposition startpos moves a1 b1 a2 b2 a3\ngo depth 1\n")
	want := []string{
		"info string error: go before position: send position startpos or position fen FEN first", "bestmove 0000",
		"info string error: the game is over (1-0)", "bestmove 0000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestThinkLimits: what each go command asks the engine for.
func TestThinkLimits(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		args string
		turn games.Side
		want games.ThinkLimits
	}{
		{"", games.First, games.ThinkLimits{Infinite: true}},
		{"infinite", games.First, games.ThinkLimits{Infinite: true}},
		{"depth 5", games.First, games.ThinkLimits{Depth: 5}},
		{"depth 5 mate 2", games.First, games.ThinkLimits{Depth: 3}},
		{"mate 4 depth 5", games.First, games.ThinkLimits{Depth: 5}},
		{"nodes 1000 movetime 200", games.First, games.ThinkLimits{Nodes: 1000, MoveTime: 200 * ms}},
		{"wtime 1000 btime 2000 winc 10 binc 20 movestogo 7", games.Second,
			games.ThinkLimits{Clock: true, Left: 2000 * ms, Increment: 20 * ms, MovesToGo: 7}},
		{"ponder wtime 1000 btime 2000", games.First, games.ThinkLimits{Clock: true, Left: 1000 * ms, Infinite: true}},
	} {
		g, err := ParseGo(strings.Fields(c.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := thinkLimits(g, c.turn); got != c.want {
			t.Errorf("go %s: %+v, want %+v", c.args, got, c.want)
		}
	}
}
