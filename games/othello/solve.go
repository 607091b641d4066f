package othello

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gametune/gametune/games"
)

// The exact endgame solver: the final disc difference of a position with
// best play, as strong Othello programs find it for the last 20 to 30
// empty squares. Null-window searches do most of the work; a principal
// variation search drives them from the root. By the number of empty
// squares left:
//
//   - from evalOrderEmpties up: moves sorted by shallow searches with the
//     endgame evaluation (endeval.go) as well as by mobility (solve_order.go);
//   - more than shallowEmpties: moves sorted fastest-first (fewest replies
//     left to the opponent, then corner stability and potential mobility,
//     parity and the square's class), the table's move first, a
//     transposition table of exact bounds, enhanced transposition cutoffs
//     from etcEmpties up, and a stability cutoff (the opponent's stable
//     discs bound the score from above);
//   - five to shallowEmpties: shallow, parity and square-class order, no
//     table, the stability cutoff;
//   - four, three, two and one: solve4 down to solve1, the last by
//     counting the discs the last move turns.
//
// Several workers share the large table and split the nodes far from the
// end (solve_split.go): once a node's first move is searched, idle workers
// search its other moves. The root's moves are searched in order, so that
// the best move found does not depend on the number of workers.

// inf is above every score.
const inf = 65

// ErrSolveStopped is returned when a solve stops at its node limit before
// the score is known.
var ErrSolveStopped = errors.New("othello: the solve reached its node limit")

// Solver finds exact final scores. Its tables carry over from one solve to
// the next (a position's bounds stay true). A Solver runs one solve at a
// time.
type Solver struct {
	table   endTable // shared by the workers, for nodes of nearEmpties and more
	workers []*worker
	mu      sync.Mutex // one solve at a time

	// The solve under way.
	limit    int64        // stop at about this many nodes; 0: none
	searched atomic.Int64 // nodes the workers have published
	stop     atomic.Bool  // the context is done or the node limit reached
	done     <-chan struct{}
	progress *atomic.Int64
	idle     atomic.Int32     // helpers waiting for work
	jobs     chan *splitPoint // split points offered to idle helpers
}

// SolverOptions configure a Solver. The zero value is a single worker with
// a table of DefaultSolveTableMiB.
type SolverOptions struct {
	TableMiB int // the shared table's size; 0: DefaultSolveTableMiB
	// Workers is the number of goroutines that search (0: 1). The score
	// and the move found do not depend on it, the nodes do.
	Workers int
}

// DefaultSolveTableMiB is the shared table's size when
// SolverOptions.TableMiB is 0.
const DefaultSolveTableMiB = 64

// maxWorkers bounds SolverOptions.Workers.
const maxWorkers = 256

// nearEmpties and nearKiB: nodes with fewer than nearEmpties empty
// squares keep their bounds in a table of nearKiB KiB of their worker's
// own, which stays in the processor's cache (its L2: 512 KiB took a
// fifth less time than 4 MiB on FFO #45-#48, for 2% more nodes); the
// others in the large shared table.
var nearEmpties, nearKiB = 11, 512

// NewSolver returns a solver configured by o.
func NewSolver(o SolverOptions) (*Solver, error) {
	if o.TableMiB < 0 || o.TableMiB > 1<<16 {
		return nil, fmt.Errorf("othello: solver table of %d MiB: want 0 (default %d) to 65536", o.TableMiB, DefaultSolveTableMiB)
	}
	if o.Workers < 0 || o.Workers > maxWorkers {
		return nil, fmt.Errorf("othello: %d solver workers: want 0 (one) to %d", o.Workers, maxWorkers)
	}
	if o.TableMiB == 0 {
		o.TableMiB = DefaultSolveTableMiB
	}
	s := &Solver{table: newEndTable(o.TableMiB << 10), jobs: make(chan *splitPoint, maxWorkers)}
	s.table.share()
	for range max(o.Workers, 1) {
		s.workers = append(s.workers, &worker{s: s, near: newEndTable(nearKiB), ev: newEndEval(),
			mid: newMidTable(midTableBits)})
	}
	return s, nil
}

// clear empties the solver's tables.
func (s *Solver) clear() {
	s.table.clear()
	for _, w := range s.workers {
		w.near.clear()
		w.mid.clear()
	}
}

// Solution is an exact solve's result.
type Solution struct {
	// Score is the final disc difference with best play from the side to
	// move's point of view, the empty squares of a game that ends early
	// counted for the winner (the rules of tournaments and of the FFO
	// test suite).
	Score int
	// Move is a best move, PassMove when the side to move must pass,
	// games.NoMove when the game is over.
	Move  games.Move
	Nodes int64 // moves played, passes included, over all workers
}

// SolveOptions bound a solve. The zero value solves without bound.
type SolveOptions struct {
	Nodes int64 // stop after about this many nodes (0: no limit)
	// Progress, when not nil, is kept at the nodes searched so far, so
	// that another goroutine can show it.
	Progress *atomic.Int64
}

// Solve returns the exact score of p and a best move. It stops with
// ctx's error when ctx is done, and with ErrSolveStopped at the node limit;
// the Solution then holds the nodes searched and nothing else.
func (s *Solver) Solve(ctx context.Context, p *Position, o SolveOptions) (Solution, error) {
	if o.Nodes < 0 {
		return Solution{}, fmt.Errorf("othello: solve node limit %d is negative (0 for none)", o.Nodes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit, s.done, s.progress = o.Nodes, ctx.Done(), o.Progress
	s.searched.Store(0)
	s.stop.Store(false)
	for len(s.jobs) > 0 {
		<-s.jobs // split points of an earlier solve, finished
	}
	for _, w := range s.workers {
		w.reset()
	}
	root := s.workers[0]
	var score int
	var move games.Move
	if len(s.workers) == 1 {
		score, move = root.root(p.mine(), p.theirs())
	} else {
		var helpers sync.WaitGroup
		quit := make(chan struct{})
		for _, w := range s.workers[1:] {
			helpers.Go(func() { w.help(quit) })
		}
		score, move = root.root(p.mine(), p.theirs())
		close(quit)
		helpers.Wait()
	}
	for _, w := range s.workers {
		w.publish()
	}
	nodes := s.searched.Load()
	if s.progress != nil {
		s.progress.Store(nodes)
	}
	s.done, s.progress = nil, nil
	if root.stopped {
		if err := ctx.Err(); err != nil {
			return Solution{Nodes: nodes}, err
		}
		return Solution{Nodes: nodes}, ErrSolveStopped
	}
	return Solution{Score: score, Move: move, Nodes: nodes}, nil
}

// SolveEmpties is the most empty squares of a position that SolvesMargin
// takes: the FFO test positions, up to 34, take seconds to minutes; far
// beyond, a solve would take hours or more.
const SolveEmpties = 36

// SolvesMargin tells whether the position is near enough the end for
// SolveMargin ('tune solve' then gives its exact disc difference).
func (p *Position) SolvesMargin() bool { return p.Empties() <= SolveEmpties }

// SolveMargin solves the position with a new Solver (DefaultSolveTableMiB,
// a worker for each processor Go may use: runtime.GOMAXPROCS) and returns its final disc difference for the
// side to move (Solution's Score) and a best move; searched is kept at the
// nodes searched. done is false when the solve stopped at nodes (0: no
// limit) first.
func (p *Position) SolveMargin(ctx context.Context, nodes int64, searched *atomic.Int64) (margin int, move games.Move, done bool, err error) {
	s, err := NewSolver(SolverOptions{Workers: runtime.GOMAXPROCS(0)})
	if err != nil {
		return 0, games.NoMove, false, err
	}
	sol, err := s.Solve(ctx, p, SolveOptions{Nodes: nodes, Progress: searched})
	switch {
	case errors.Is(err, ErrSolveStopped):
		return 0, games.NoMove, false, nil
	case err != nil:
		return 0, games.NoMove, false, err
	}
	return sol.Score, sol.Move, true, nil
}
