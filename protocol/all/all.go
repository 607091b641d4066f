// Package all serves an engine in the protocol its GUI speaks: the
// registry of gametune's engine protocols (protocol/uci, xboard, gtp and
// nboard)
// by name, as games/all is the registry of its games.
package all

import (
	"context"
	"fmt"
	"io"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/protocol/gtp"
	"github.com/gametune/gametune/protocol/nboard"
	"github.com/gametune/gametune/protocol/uci"
	"github.com/gametune/gametune/protocol/xboard"
)

// Engine is what every protocol serves (engine/thinker's Thinker is one):
// the union of their Engine interfaces.
type Engine interface {
	uci.Engine
	xboard.Engine
	gtp.Engine
	nboard.Engine
}

// For returns the protocol that serves g: name when it is one g speaks
// ("uci" for every game; "xboard" for chess; "gtp" and "nboard" for
// Othello), or when name is "" g's default (gtp for Othello, uci for the
// others). Its errors start "protocol NAME:" and say what is accepted.
func For(g games.Game, name string) (string, error) {
	othello, chess := g.Name() == "othello", g.Name() == "chess"
	switch {
	case name == "" && othello:
		return "gtp", nil
	case name == "":
		return "uci", nil
	case name != "uci" && name != "xboard" && name != "gtp" && name != "nboard":
		return "", fmt.Errorf("protocol %q: want uci, xboard, gtp or nboard", name)
	case name == "xboard" && !chess:
		return "", fmt.Errorf("protocol xboard: the protocol is for chess; %s speaks %s", g.Name(), spoken(g))
	case (name == "gtp" || name == "nboard") && !othello:
		return "", fmt.Errorf("protocol %s: the protocol is for Othello; %s speaks %s", name, g.Name(), spoken(g))
	}
	return name, nil
}

// spoken lists the protocols of a game, for For's errors.
func spoken(g games.Game) string {
	switch g.Name() {
	case "othello":
		return "gtp, nboard or uci"
	case "chess":
		return "uci or xboard"
	}
	return "uci"
}

// Serve serves e in the protocol named (one of For's) on r and w, until
// the input ends or ctx is cancelled.
func Serve(ctx context.Context, name string, r io.Reader, w io.Writer, e Engine) error {
	switch name {
	case "gtp":
		return gtp.Serve(ctx, r, w, e)
	case "nboard":
		return nboard.Serve(ctx, r, w, e)
	case "uci":
		return uci.Serve(ctx, r, w, e)
	case "xboard":
		return xboard.Serve(ctx, r, w, e)
	}
	return fmt.Errorf("protocol %q: want uci, xboard, gtp or nboard", name)
}
