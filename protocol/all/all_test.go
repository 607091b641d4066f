package all_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/engine/thinker"
	gamesall "github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/protocol/all"
)

// TestFor: each game's default, the protocols a game speaks, and the
// messages of the rest.
func TestFor(t *testing.T) {
	for _, c := range []struct{ game, name, want, err string }{
		{"othello", "", "gtp", ""},
		{"chess", "", "uci", ""},
		{"othello", "nboard", "nboard", ""},
		{"othello", "uci", "uci", ""},
		{"checkers", "uci", "uci", ""},
		{"chess", "gtp", "", "protocol gtp: the protocol is for Othello; chess speaks uci or xboard"},
		{"checkers", "nboard", "", "protocol nboard: the protocol is for Othello; checkers speaks uci"},
		{"chess", "xboard", "xboard", ""},
		{"othello", "xboard", "", "protocol xboard: the protocol is for chess; othello speaks gtp, nboard or uci"},
		{"othello", "cecp", "", `protocol "cecp": want uci, xboard, gtp or nboard`},
	} {
		g, err := gamesall.Find(c.game)
		if err != nil {
			t.Fatal(err)
		}
		got, err := all.For(g, c.name)
		if got != c.want || c.err == "" && err != nil || c.err != "" && (err == nil || err.Error() != c.err) {
			t.Errorf("For(%s, %q) = %q, %v; want %q, %q", c.game, c.name, got, err, c.want, c.err)
		}
	}
}

// TestServe: each protocol answers its own greeting.
func TestServe(t *testing.T) {
	g, _ := gamesall.Find("othello")
	ev := g.Evaluators()[0]
	e, err := thinker.New(g, ev, ev.Defaults(), thinker.Options{TableMiB: 1, Limits: engine.Limits{Depth: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, input, want string }{
		{"uci", "uci\nquit\n", "uciok"},
		{"gtp", "protocol_version\nquit\n", "= 2"},
		{"nboard", "nboard 2\nping 1\n", "pong 1"},
		{"xboard", "xboard\nprotover 2\nping 3\n", "pong 3"},
	} {
		var out strings.Builder
		if err := all.Serve(context.Background(), c.name, strings.NewReader(c.input), &out, e); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: %q lacks %q", c.name, out.String(), c.want)
		}
	}
	if err := all.Serve(context.Background(), "cecp", strings.NewReader(""), &strings.Builder{}, e); err == nil {
		t.Error("an unknown protocol served")
	}
}
