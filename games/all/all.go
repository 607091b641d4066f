// Package all is the registry of gametune's games by name. It cannot live in
// package games, which every game imports.
package all

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/checkers"
	"github.com/gametune/gametune/games/chess"
	"github.com/gametune/gametune/games/kono"
	"github.com/gametune/gametune/games/nim"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/games/tictactoe"
)

// registry lists every game explicitly; add a game here when it lands.
var registry = []games.Game{
	checkers.Game(),
	chess.Game(),
	kono.Game(),
	nim.Game(),
	othello.Game(),
	tictactoe.Game(),
}

// Games returns every registered game, sorted by name.
func Games() []games.Game {
	out := append([]games.Game(nil), registry...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Names returns the registered names, sorted.
func Names() []string {
	var names []string
	for _, g := range Games() {
		names = append(names, g.Name())
	}
	return names
}

// Find returns the game of that name (case-insensitive), or an error that
// lists the names accepted.
func Find(name string) (games.Game, error) {
	for _, g := range registry {
		if strings.EqualFold(g.Name(), name) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", name, strings.Join(Names(), ", "))
}
