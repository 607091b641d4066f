package tournament

import (
	"io"
	"strings"
)

// roster is the players a pool worker owns: its two searchers (one per
// side of a game, see Searchers) for the built-in players, and the
// external engine processes it started, kept
// between games by the process they run (command, arguments, directory,
// protocol), whatever options each game's player sets.
type roster struct {
	searchers Searchers
	log       io.Writer
	idle      map[string][]*external
}

func newRoster(s Searchers, log io.Writer) *roster {
	return &roster{searchers: s, log: log, idle: map[string][]*external{}}
}

// processKey names the process an engine spec runs.
func processKey(e *EngineSpec) string {
	return strings.Join(append([]string{e.Protocol, e.Dir, e.Command}, e.Args...), "\x00")
}

// movers returns the movers of spec's two players and the function that
// hands them back after the game.
func (r *roster) movers(spec GameSpec) ([2]Mover, func()) {
	var out [2]Mover
	var taken []*external
	for i, pl := range [2]Player{spec.First, spec.Second} {
		if pl.Engine == nil {
			out[i] = &builtin{r.searchers[i], pl}
			continue
		}
		key := processKey(pl.Engine)
		var x *external
		if idle := r.idle[key]; len(idle) > 0 {
			x = idle[len(idle)-1]
			r.idle[key] = idle[:len(idle)-1]
			x.spec = *pl.Engine
		} else {
			x = newExternal(pl.Engine, r.log)
		}
		taken = append(taken, x)
		out[i] = x
	}
	return out, func() {
		for _, x := range taken {
			key := processKey(&x.spec)
			r.idle[key] = append(r.idle[key], x)
		}
	}
}

// close ends every engine process of the roster.
func (r *roster) close() {
	for key, xs := range r.idle {
		for _, x := range xs {
			x.Close()
		}
		delete(r.idle, key)
	}
}
