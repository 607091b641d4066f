package gtp

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/lines"
)

// session runs input through Serve on Othello and returns the responses.
func session(t *testing.T, input string) []Response {
	t.Helper()
	g, _ := all.Find("othello")
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Serve(context.Background(), strings.NewReader(input), &out, e); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(strings.NewReader(out.String()))
	var got []Response
	for {
		resp, err := ReadResponse(r)
		if err != nil {
			return got
		}
		got = append(got, resp)
	}
}

// TestServe: each command's answer, the errors that change nothing, and
// quit ending the session.
func TestServe(t *testing.T) {
	got := session(t, strings.Join([]string{
		"1 protocol_version", "name", "version", "known_command genmove", "known_command dance", "boardsize 10",
		"play black d3", "play black c4", "undo", "undo", "undo", "play", "genmove white", "time_left white 30 0",
		"time_settings 3 0 0", "genmove black", "final_score", "# a comment", "dance", "quit", "name",
	}, "\n"))
	want := []struct {
		err  bool
		text string
	}{
		{false, "2"}, {false, "gametune"}, {false, lines.ProgramVersion()}, {false, "true"}, {false, "false"},
		{true, "unacceptable size"}, {false, ""}, {true, "illegal move: it is white's turn"}, {false, ""},
		{true, "cannot undo"}, {true, "cannot undo"}, {true, "syntax error: play needs 2 arguments"},
		{true, "it is black's turn"}, {false, ""}, {false, ""}, {false, "?"}, {false, "?"}, {true, "unknown command"}, {false, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d responses, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Error != w.err || w.text != "?" && !strings.Contains(g.Text, w.text) {
			t.Errorf("response %d: %+v, want error %v with %q", i+1, g, w.err, w.text)
		}
	}
	if !got[0].HasID || got[0].ID != 1 {
		t.Errorf("the id is not answered: %+v", got[0])
	}
	if len(got[15].Text) != 2 {
		t.Errorf("genmove black: %q, want a square", got[15].Text)
	}
}

// TestPassUntil: a controller that leaves a forced pass out has it played;
// any other turn mismatch is an error.
func TestPassUntil(t *testing.T) {
	g, _ := all.Find("othello")
	p := g.Start()
	if _, err := passUntil(p, games.Second); err == nil || !strings.Contains(err.Error(), "black's turn") {
		t.Errorf("white at the start: %v", err)
	}
	if q, err := passUntil(p, games.First); err != nil || q != p {
		t.Errorf("black at the start: %v, %v", q, err)
	}
	// Black has no move after these: a forced pass.
	for _, s := range []string{"f5", "f6", "f7", "g7", "d3", "f8", "h8", "h6"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if _, ok := p.(games.Passer).ForcedPass(); !ok || p.Turn() != games.First {
		t.Fatal("no forced pass of black at the end of the line")
	}
	q, err := playFor(p, games.Second, mustMove(t, p))
	if err != nil || q == p || p.Turn() != games.First || q.Turn() != games.First || q.Ply() != p.Ply()+2 {
		t.Errorf("a move for white after black's forced pass: %v (the position must stay)", err)
	}
}

// mustMove is a legal move of the side to move after the forced pass in p.
func mustMove(t *testing.T, p games.Position) string {
	t.Helper()
	q := p.Clone()
	pass, _ := q.(games.Passer).ForcedPass()
	q.Play(pass)
	ms, _ := q.Moves(nil)
	return q.FormatMove(ms[0])
}
