package main

import (
	"fmt"
	"runtime"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/spf13/pflag"
)

// The rules of the flags several commands share: one rule per flag, checked
// the same way and stated the same way in every command's help. The search
// bounds are the engine's (engine.MaxDepth, MaxNodes, MaxTableMiB).
const (
	maxWorkers = 1024      // games at once; each worker holds a searcher and its table
	maxPairs   = 1_000_000 // pairs per pairing of a match or tournament; each game's record is kept
)

// searchLimits are the --depth and --nodes flags of a command that searches.
type searchLimits struct {
	depth        int
	nodes        int64
	defaultDepth int // the depth used when neither flag is given
}

// bind adds --depth and --nodes to a command's flags.
func (l *searchLimits) bind(f *pflag.FlagSet, defaultDepth int) {
	l.defaultDepth = defaultDepth
	f.IntVar(&l.depth, "depth", 0, fmt.Sprintf("search depth in plies, 1-%d (default %d when --nodes is not given; 0 with --nodes: no depth limit)", engine.MaxDepth, defaultDepth))
	f.Int64Var(&l.nodes, "nodes", 0, fmt.Sprintf("node limit per move, 1-%d (0: none)", int64(engine.MaxNodes)))
}

// limits checks the flags and returns the engine limits they give.
func (l searchLimits) limits() (engine.Limits, error) {
	if l.depth < 0 || l.depth > engine.MaxDepth {
		return engine.Limits{}, usageError{fmt.Errorf("--depth %d: want 1 to %d plies (or 0 with --nodes for no depth limit)", l.depth, engine.MaxDepth)}
	}
	if l.nodes < 0 || l.nodes > engine.MaxNodes {
		return engine.Limits{}, usageError{fmt.Errorf("--nodes %d: want 1 to %d (or 0 for no node limit)", l.nodes, int64(engine.MaxNodes))}
	}
	lim := engine.Limits{Depth: l.depth, Nodes: l.nodes}
	if lim.Depth == 0 && lim.Nodes == 0 {
		lim.Depth = l.defaultDepth
	}
	return lim, nil
}

// hashHelp is the help of every --hash flag.
var hashHelp = fmt.Sprintf("transposition table size in MiB, 1-%d and at most a quarter of the machine's memory", engine.MaxTableMiB)

// checkHash refuses a table size outside 1-65536 MiB or above a quarter of
// the machine's memory: the table is allocated at once, and a table the
// machine cannot hold would end the process with an out-of-memory crash
// instead of an error.
func checkHash(mib int) error {
	if mib < 1 || mib > engine.MaxTableMiB {
		return usageError{fmt.Errorf("--hash %d: want 1 to %d MiB", mib, engine.MaxTableMiB)}
	}
	if total := totalMemory(); total > 0 && uint64(mib)<<20 > total/4 {
		return usageError{fmt.Errorf("--hash %d: more than a quarter of this machine's %d MiB of memory; want at most %d MiB", mib, total>>20, total>>22)}
	}
	return nil
}

// largestHashMiB is the largest table checkHash accepts here (at least 1).
func largestHashMiB() int {
	n := int64(engine.MaxTableMiB)
	if total := totalMemory(); total > 0 {
		n = min(n, int64(total>>22))
	}
	return int(max(n, 1))
}

// workersHelp is the help of every --workers flag.
var workersHelp = fmt.Sprintf("games played at once, 1-%d (0: one per core); results do not depend on it", maxWorkers)

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
// engine on one game (search, solve, play, engine; perft takes the
// position): each binds the flags that apply to it.
type engineFlags struct {
	with      engineFlag
	position  string
	evaluator string
	weights   string
	limits    searchLimits
	tableMiB  int
}

// engineFlag names flags of the group.
type engineFlag int

const (
	withPosition engineFlag = 1 << iota // --position
	withPlayer                          // --evaluator and --weights
	withLimits                          // --depth and --nodes, depth 6 by default
	withHash                            // --hash, 16 MiB by default
)

// bind adds the flags of with to f.
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

// engineSetup is what the flags give for one game: the game, the position,
// the evaluator and its weights, and the limits (each as bound).
type engineSetup struct {
	game games.Game
	pos  games.Position
	ev   *games.Evaluator
	w    []float64
	lim  engine.Limits
}

// resolve finds the game and checks the flags bound, as usage errors.
func (e engineFlags) resolve(gameName string) (engineSetup, error) {
	var s engineSetup
	var err error
	if s.game, err = findGame(gameName); err != nil {
		return s, err
	}
	if s.pos, err = position(s.game, e.position); err != nil {
		return s, err
	}
	if e.with&withPlayer != 0 {
		if s.ev, s.w, err = player(s.game, e.evaluator, e.weights); err != nil {
			return s, err
		}
	}
	if e.with&withLimits != 0 {
		if s.lim, err = e.limits.limits(); err != nil {
			return s, err
		}
	}
	if e.with&withHash != 0 {
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
