package main

import (
	"fmt"
	"runtime"

	"github.com/gametune/gametune/engine"
	"github.com/spf13/pflag"
)

// The rules of the flags several commands share: one rule per flag, checked
// the same way and stated the same way in every command's help.
const (
	maxDepth   = engine.MaxPly / 2 // plies of full-width search
	maxNodes   = 1 << 40           // nodes per move: days of search
	maxWorkers = 1024              // games at once; each worker holds a searcher and its table
	maxHashMiB = 1 << 16           // the engine's largest transposition table
	maxPairs   = 1_000_000         // pairs per pairing of a match or tournament; each game's record is kept
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
	f.IntVar(&l.depth, "depth", 0, fmt.Sprintf("search depth in plies, 1-%d (default %d when --nodes is not given; 0 with --nodes: no depth limit)", maxDepth, defaultDepth))
	f.Int64Var(&l.nodes, "nodes", 0, fmt.Sprintf("node limit per move, 1-%d (0: none)", int64(maxNodes)))
}

// limits checks the flags and returns the engine limits they give.
func (l searchLimits) limits() (engine.Limits, error) {
	if l.depth < 0 || l.depth > maxDepth {
		return engine.Limits{}, usageError{fmt.Errorf("--depth %d: want 1 to %d plies (or 0 with --nodes for no depth limit)", l.depth, maxDepth)}
	}
	if l.nodes < 0 || l.nodes > maxNodes {
		return engine.Limits{}, usageError{fmt.Errorf("--nodes %d: want 1 to %d (or 0 for no node limit)", l.nodes, int64(maxNodes))}
	}
	lim := engine.Limits{Depth: l.depth, Nodes: l.nodes}
	if lim.Depth == 0 && lim.Nodes == 0 {
		lim.Depth = l.defaultDepth
	}
	return lim, nil
}

// hashHelp is the help of every --hash flag.
var hashHelp = fmt.Sprintf("transposition table size in MiB, 1-%d and at most a quarter of the machine's memory", maxHashMiB)

// checkHash refuses a table size outside 1-65536 MiB or above a quarter of
// the machine's memory: the table is allocated at once, and a table the
// machine cannot hold would end the process with an out-of-memory crash
// instead of an error.
func checkHash(mib int) error {
	if mib < 1 || mib > maxHashMiB {
		return usageError{fmt.Errorf("--hash %d: want 1 to %d MiB", mib, maxHashMiB)}
	}
	if total := totalMemory(); total > 0 && uint64(mib)<<20 > total/4 {
		return usageError{fmt.Errorf("--hash %d: more than a quarter of this machine's %d MiB of memory; want at most %d MiB", mib, total>>20, total>>22)}
	}
	return nil
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
