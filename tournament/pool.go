package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// Pool plays games on a fixed number of workers, each with its own
// searcher. Results never depend on the number of workers: every game
// depends on its spec alone, and results are handed over in spec order.
//
// A worker owns its movers: the movers of engines (external engine
// processes) are made at their first game, kept between games, and all
// closed by Close.
type Pool struct {
	workers int
	held    []*worker
}

// NewPool returns a pool of workers goroutines (0 means one per core), each
// with two tableMiB transposition tables, one per side of a game (0 means
// 16).
func NewPool(workers, tableMiB int) (*Pool, error) {
	if workers < 0 {
		return nil, fmt.Errorf("tournament: %d workers (want 1 or more, or 0 for one per core)", workers)
	}
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	p := &Pool{workers: workers}
	for i := 0; i < workers; i++ {
		s, err := NewSearchers(tableMiB)
		if err != nil {
			return nil, err
		}
		p.held = append(p.held, newWorker(s, tableMiB))
	}
	return p, nil
}

// SetEngineLog sends the diagnostics of the engines' movers made from now
// on (an external engine's stderr, each line prefixed by the engine's
// name) to w. Without it they are dropped.
func (p *Pool) SetEngineLog(w io.Writer) {
	for _, wk := range p.held {
		wk.log = w
	}
}

// Close closes the engines' movers of every worker (external engine
// processes end). It must not be called while Run runs; Run may be
// called again afterwards.
func (p *Pool) Close() error {
	for _, wk := range p.held {
		wk.close()
	}
	return nil
}

// Workers is the number of workers.
func (p *Pool) Workers() int { return p.workers }

// Run plays every spec and calls done for each finished game in spec order
// (done(i, r) after done(i-1, ...)), from one goroutine at a time. Games
// finished out of order wait in memory until their turn. When ctx is
// cancelled, Run stops the games in flight, still delivers every game that
// finished before them in order, and returns ctx's error. An error from done
// stops the run and is returned.
func (p *Pool) Run(ctx context.Context, specs []GameSpec, done func(i int, r Record) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan poolResult)
	var wg sync.WaitGroup
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func(wk *worker) {
			defer wg.Done()
			for i := range jobs {
				movers, release := wk.movers(specs[i])
				rec, err := PlayMovers(ctx, specs[i], movers)
				release()
				results <- poolResult{i, rec, err}
			}
		}(p.held[w])
	}
	go func() {
		defer close(jobs)
		for i := range specs {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	if err := deliver(results, done, cancel); err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return err
	}
	return ctx.Err()
}

// poolResult is a finished game i of a Run.
type poolResult struct {
	i   int
	rec Record
	err error
}

// deliver hands the results over to done in order, from 0 on, keeping the
// ones that come early until their turn. At the first error (a game's, or
// done's) it cancels the run, drains the results and returns the error.
func deliver(results <-chan poolResult, done func(i int, r Record) error, cancel func()) error {
	pending := make(map[int]poolResult)
	next := 0
	var firstErr error
	for r := range results {
		if firstErr != nil {
			continue // drain
		}
		pending[r.i] = r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if r.err != nil {
				firstErr = r.err
				cancel()
				break
			}
			if err := done(next, r.rec); err != nil {
				firstErr = err
				cancel()
				break
			}
			next++
		}
	}
	return firstErr
}
