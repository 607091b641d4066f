package tournament

import "io"

// worker is what a pool worker holds between games: the built-in movers
// of its two searchers (one per side of a game, see Searchers), and the
// movers it made for engines, kept by their engines' keys: an engine's
// process serves every later game of an engine with the same key.
type worker struct {
	builtin [2]Mover
	log     io.Writer // the engines' diagnostics; nil: dropped
	idle    map[string][]Mover
}

func newWorker(s Searchers, tableMiB int) *worker {
	return &worker{builtin: s.movers(tableMiB), idle: map[string][]Mover{}}
}

// movers returns the movers of spec's two players and the function that
// hands them back after the game.
func (w *worker) movers(spec GameSpec) ([2]Mover, func()) {
	out := w.builtin
	type taken struct {
		key string
		m   Mover
	}
	var engines []taken
	for i, pl := range [2]Player{spec.First, spec.Second} {
		if pl.Engine == nil {
			continue
		}
		key := pl.Engine.Key()
		if idle := w.idle[key]; len(idle) > 0 {
			out[i] = idle[len(idle)-1]
			w.idle[key] = idle[:len(idle)-1]
		} else {
			out[i] = pl.Engine.NewMover(w.log)
		}
		engines = append(engines, taken{key, out[i]})
	}
	return out, func() {
		for _, t := range engines {
			w.idle[t.key] = append(w.idle[t.key], t.m)
		}
	}
}

// close ends the movers of the worker's engines.
func (w *worker) close() {
	for key, ms := range w.idle {
		for _, m := range ms {
			m.Close()
		}
		delete(w.idle, key)
	}
}
