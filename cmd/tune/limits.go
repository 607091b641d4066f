package main

import (
	"fmt"
	"runtime"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/spf13/pflag"
)

// The rules of the flags several commands share, stated the same way in
// every command's help. The search bounds are the engine's.
const (
	maxWorkers = 1024      // games at once; each worker holds a searcher and its table
	maxPairs   = 1_000_000 // pairs per pairing of a match or tournament; each game's record is kept
)

// searchLimits are the --depth and --nodes flags of a command that
// searches, with the depth used when neither is given.
type searchLimits struct {
	depth, defaultDepth int
	nodes               int64
}

func (l *searchLimits) bind(f *pflag.FlagSet, defaultDepth int) {
	l.defaultDepth = defaultDepth
	f.IntVar(&l.depth, "depth", 0,
		fmt.Sprintf("search depth in plies, 1-%d (default %d when --nodes is not given; 0 with --nodes: no depth limit)",
			engine.MaxDepth, defaultDepth))
	f.Int64Var(&l.nodes, "nodes", 0, fmt.Sprintf("node limit per move, 1-%d (0: none)", int64(engine.MaxNodes)))
}

// limits checks the flags (engine.Limits.Check) and returns their limits.
func (l searchLimits) limits() (engine.Limits, error) {
	lim := engine.Limits{Depth: l.depth, Nodes: l.nodes}
	if lim == (engine.Limits{}) {
		lim.Depth = l.defaultDepth
	}
	if err := lim.Check(); err != nil {
		return lim, usageError{fmt.Errorf("--%w", err)}
	}
	return lim, nil
}

var (
	hashHelp = fmt.Sprintf("transposition table size in MiB, 1-%d and at most a quarter of the machine's memory",
		engine.MaxTableMiB)
	workersHelp = fmt.Sprintf("games played at once, 1-%d (0: one per core); results do not depend on it", maxWorkers)
)

// checkHash refuses a table this machine should not allocate
// (engine.CheckTableMiB).
func checkHash(mib int) error {
	if err := engine.CheckTableMiB(mib, engine.TotalMemory()); err != nil {
		return usageError{fmt.Errorf("--%w", err)}
	}
	return nil
}

// checkWorkers refuses a worker count outside 0-1024; 0 means one per core.
func checkWorkers(n int) (int, error) {
	if n < 0 || n > maxWorkers {
		return 0, usageError{fmt.Errorf("--workers %d: want 1 to %d, or 0 for one per core", n, maxWorkers)}
	}
	if n == 0 {
		n = runtime.NumCPU()
	}
	return n, nil
}

// engineFlags is the flag group of the commands that use the built-in
// engine on one game (perft, search, solve, play, engine): each binds
// those of with, and resolve checks them into an engineSetup.
type engineFlags struct {
	with                         engineFlag
	position, evaluator, weights string
	limits                       searchLimits
	tableMiB                     int
}

type engineFlag int

const (
	withPosition engineFlag = 1 << iota // --position
	withPlayer                          // --evaluator and --weights
	withLimits                          // --depth and --nodes, depth 6 by default
	withHash                            // --hash, 16 MiB by default
)

func (e *engineFlags) bind(f *pflag.FlagSet, with engineFlag) {
	e.with = with
	if with&withPosition != 0 {
		f.StringVar(&e.position, "position", "", "position in the game's notation (default: the start; see 'tune games')")
	}
	if with&withPlayer != 0 {
		f.StringVar(&e.evaluator, "evaluator", "", "evaluator name (default: the game's first; see 'tune games')")
		f.StringVar(&e.weights, "weights", "", "weights file (JSON, as 'tune export' writes)")
	}
	if with&withLimits != 0 {
		e.limits.bind(f, 6)
	}
	if with&withHash != 0 {
		f.IntVar(&e.tableMiB, "hash", 16, hashHelp)
	}
}

// engineSetup is what the flags bound give for one game.
type engineSetup struct {
	game games.Game
	pos  games.Position
	ev   *games.Evaluator // withPlayer
	w    []float64        // withPlayer
	lim  engine.Limits    // withLimits
}

// resolve finds the game and checks the flags bound, as usage errors.
func (e engineFlags) resolve(gameName string) (s engineSetup, err error) {
	if s.game, err = findGame(gameName); err == nil {
		s.pos, err = position(s.game, e.position)
	}
	if err == nil && e.with&withPlayer != 0 {
		s.ev, s.w, err = player(s.game, e.evaluator, e.weights)
	}
	if err == nil && e.with&withLimits != 0 {
		s.lim, err = e.limits.limits()
	}
	if err == nil && e.with&withHash != 0 {
		err = checkHash(e.tableMiB)
	}
	return s, err
}

// position returns the start position, or the one written in notation.
func position(g games.Game, notation string) (games.Position, error) {
	if notation == "" || notation == "start" {
		return g.Start(), nil
	}
	p, err := g.ParsePosition(notation)
	if err != nil {
		return nil, usageError{err}
	}
	return p, nil
}
