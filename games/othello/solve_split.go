package othello

import "sync"

// Parallel search: a node far enough from the end whose first move did not
// cut (the young brothers wait for their eldest) offers its other moves to
// the idle workers as a split point; its owner and the helpers that join
// take the moves one by one. A move that cuts marks the split point cut,
// and the workers still searching below it unwind (pollNow). The owner,
// once the moves are all taken, helps at the split points below its own
// until its helpers are done, so that no worker waits while another works.

// splitEmpties is the least number of empty squares at which a node
// offers its moves to idle workers: below, a move's search is too short
// to be worth the hand-over.
var splitEmpties = 16

// splitPoint is a node whose moves several workers search.
type splitPoint struct {
	parent *splitPoint // the split point above, in its owner's search
	p, o   Bitboard
	n      int
	beta   int
	pv     bool
	level  int      // the selectivity level of the search
	list   moveList // a copy: the owner's list stays on its stack

	mu       sync.Mutex
	alpha    int // raised as moves score above it (a PV node)
	next     int // the next move to take
	best     int
	bestSq   int
	cut      bool // a move scored at or above beta: stop
	active   int  // workers in work
	finished bool
	done     chan struct{} // closed when the last worker leaves
}

// cutAbove tells whether sp or a split point above it is cut.
func (sp *splitPoint) cutAbove() bool {
	for x := sp; x != nil; x = x.parent {
		x.mu.Lock()
		cut := x.cut
		x.mu.Unlock()
		if cut {
			return true
		}
	}
	return false
}

// split searches the moves of list after the first (siblings' work) with
// the help of idle workers.
func (w *worker) split(p, o Bitboard, alpha, beta, n int, pv bool, list *moveList, best, bestSq int) (int, int) {
	sp := &splitPoint{parent: w.sp, p: p, o: o, n: n, beta: beta, pv: pv, level: w.level, list: *list,
		alpha: alpha, next: 1, best: best, bestSq: bestSq, active: 1, done: make(chan struct{})}
	for range w.s.idle.Load() {
		select {
		case w.s.jobs <- sp:
		default:
		}
	}
	w.work(sp)
	w.leave(sp)
	// Help below until the helpers are done.
	w.s.idle.Add(1)
	for waiting := true; waiting; {
		select {
		case <-sp.done:
			waiting = false
		case job := <-w.s.jobs:
			w.s.idle.Add(-1)
			w.stopped = false
			w.join(job)
			w.s.idle.Add(1)
		}
	}
	w.s.idle.Add(-1)
	// A worker unwound by sp's own cut leaves sp's score standing; by a
	// stop, or a cut above, its own search unwinds too.
	w.stopped = w.s.stop.Load() || sp.parent.cutAbove()
	return sp.best, sp.bestSq
}

// help is a helper worker's loop: it joins the split points offered until
// quit is closed.
func (w *worker) help(quit <-chan struct{}) {
	for {
		w.s.idle.Add(1)
		select {
		case <-quit:
			w.s.idle.Add(-1)
			return
		case sp := <-w.s.jobs:
			w.s.idle.Add(-1)
			w.stopped = false
			w.join(sp)
		}
	}
}

// join works at sp if it is not finished yet.
func (w *worker) join(sp *splitPoint) {
	sp.mu.Lock()
	if sp.finished || sp.cut || sp.next >= sp.list.n {
		sp.mu.Unlock()
		return
	}
	sp.active++
	sp.mu.Unlock()
	w.work(sp)
	w.leave(sp)
}

// leave marks w out of sp, and sp finished when w was the last one in it.
func (w *worker) leave(sp *splitPoint) {
	sp.mu.Lock()
	if sp.active--; sp.active == 0 {
		sp.finished = true
		close(sp.done)
	}
	sp.mu.Unlock()
}

// work takes sp's moves one by one and searches them until none is left,
// sp is cut, or the search must unwind.
func (w *worker) work(sp *splitPoint) {
	outer, level := w.sp, w.level
	w.sp, w.level = sp, sp.level
	defer func() { w.sp, w.level = outer, level }()
	for {
		sp.mu.Lock()
		if sp.cut || sp.next >= sp.list.n {
			sp.mu.Unlock()
			return
		}
		m := &sp.list.moves[sp.next]
		sp.next++
		alpha := sp.alpha
		sp.mu.Unlock()
		sc := w.sibling(sp.p, sp.o, m, alpha, sp.beta, sp.n, sp.pv)
		if w.stopped {
			return
		}
		sp.mu.Lock()
		if sc > sp.best {
			sp.best, sp.bestSq = sc, int(m.sq)
			if sc >= sp.beta {
				sp.cut = true
			}
			sp.alpha = max(sp.alpha, sc)
		}
		sp.mu.Unlock()
	}
}
