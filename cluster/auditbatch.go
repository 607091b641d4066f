package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gametune/gametune/tournament"
	"github.com/nats-io/nats.go/jetstream"
)

// Coordinator is the worker name of the games a coordinator played itself:
// its audits, and the games of results it refused.
const Coordinator = "(coordinator)"

// maxHeld is the most results a batch keeps unacknowledged until it hands
// them over (below the results consumer's MaxAckPending); a larger batch
// acknowledges each result when it arrives, so that a coordinator that
// crashes loses them.
const maxHeld = 50_000

// batch collects the results of one Run: each job's result is checked
// (CheckResult), a sampled share is played again here and compared, and a
// worker caught sending a game its job does not make is quarantined: none
// of its results of the batch is kept and their games are played again,
// here and by the other workers. The results are handed over, in spec
// order, once every game of the batch has a result that stands; only then
// are their messages acknowledged, so that a coordinator that crashes
// meanwhile finds them again.
type batch struct {
	r        *Runner
	ctx      context.Context
	cancel   context.CancelFunc
	jobs     map[string]*jobState
	byKey    map[string][]int
	n        int
	open     int // jobs whose result does not stand yet
	refusals map[string]string
	// tokenRefused: jobs a token holder's worker refused. A refusal of a
	// worker with a key alone does not fail a job (outOfDeliveries).
	tokenRefused map[string]bool
	deferAck     bool

	tasks   chan localTask
	played  chan localGame
	players sync.WaitGroup
	started bool

	settledMu sync.Mutex
	settled   map[string]bool // jobs whose result stands: players here skip them

	sweep int // where findLost's next look starts
}

// jobState is what a batch knows of one job.
type jobState struct {
	key         string
	job         []byte // its message, to publish again
	spec        tournament.GameSpec
	first       int                // index of its first game
	rec         *tournament.Record // the result that stands, if any
	worker      string             // who played rec
	msg         jetstream.Msg      // rec's message (nil for a game played here)
	verified    bool               // rec is the game played here
	pending     *heldResult        // a worker's result waiting for the game played here
	queued      bool               // to be played here, or playing
	republished bool
	seqs        []uint64 // the stream sequences of its messages in the jobs stream
	lost        bool     // its messages left the jobs stream without a result (findLost)
	requeued    int      // times published again after that
	localFaults int      // audits played here that ended by a fault here (localFault)
}

type heldResult struct {
	rec    tournament.Record
	worker string
	msg    jetstream.Msg
}

type localTask struct {
	key  string
	spec tournament.GameSpec
}

type localGame struct {
	key     string
	rec     tournament.Record
	err     error
	skipped bool // the job's result stood when its turn came
}

func (r *Runner) newBatch(ctx context.Context, jobs map[string]*jobState, byKey map[string][]int, n int) *batch {
	ctx, cancel := context.WithCancel(ctx)
	return &batch{r: r, ctx: ctx, cancel: cancel, jobs: jobs, byKey: byKey, n: n, open: len(jobs),
		refusals: map[string]string{}, tokenRefused: map[string]bool{}, deferAck: len(jobs) <= maxHeld, settled: map[string]bool{},
		tasks: make(chan localTask, len(jobs)), played: make(chan localGame)}
}

// run collects the batch's results and hands them over.
func (b *batch) run(done func(i int, rec tournament.Record) error) error {
	defer func() {
		b.cancel()
		b.players.Wait()
	}()
	tick := time.NewTicker(lostCheck)
	defer tick.Stop()
	for b.open > 0 {
		var err error
		select {
		case <-b.ctx.Done():
			return b.ctx.Err()
		case <-tick.C:
			b.findLost()
		case seq := <-b.r.maxDel:
			err = b.outOfDeliveries(seq)
		case m := <-b.r.results:
			err = b.receive(m)
		case g := <-b.played:
			err = b.playedHere(g)
		}
		if err != nil {
			return err
		}
	}
	return b.handOver(done)
}

// receive reads one result message. Its worker is the one the subject
// names (sender): for a worker with a key, the key the broker let publish
// there, whatever the message says; such a worker's result must carry its
// job's ticket, and its results that serve nothing count against its
// quota (spend).
func (b *batch) receive(m jetstream.Msg) error {
	b.r.seen(m)
	worker, keyed := b.r.sender(m.Subject())
	if keyed && b.r.isQuarantined(worker) {
		b.r.purge(worker, false)
	}
	res, err := DecodeResult(m.Data())
	if !keyed {
		worker = res.Worker // a token holder's: trusted as a coordinator is
	}
	js := b.jobs[res.Key]
	if err != nil {
		_ = m.Ack()
		if keyed && b.r.isQuarantined(worker) {
			return nil
		}
		b.r.logf("a result on %s: %v (ignored)", m.Subject(), err)
		if keyed && res.V != WireVersion && res.V != 0 {
			b.spend(worker, keyed, false) // a worker of another version: not a lie, not a result
			return nil
		}
		if keyed || js != nil && res.V == WireVersion && worker != "" {
			b.quarantine(worker, err.Error())
			b.needGame(res.Key)
		}
		return nil
	}
	if keyed && !b.r.conn.validTicket(b.r.run, res.Key, m.Headers().Get(TicketHeader)) {
		// Not a job it was handed, or one published with another token
		// (a run resumed after the token changed): dropped, and counted.
		_ = m.Ack()
		if !b.r.unhanded[worker] {
			b.r.unhanded[worker] = true
			b.r.logf("worker %q sent a result of job %.64q, which it was never handed (no ticket of this run's job): dropped, as its others will be", worker, res.Key)
		}
		b.spend(worker, keyed, false)
		return nil
	}
	switch {
	case js == nil: // from an earlier batch
		_ = m.Ack()
		b.spend(worker, keyed, false)
		return nil
	case b.r.isQuarantined(worker):
		_ = m.Ack()
		b.needGame(res.Key)
		return nil
	case js.rec != nil || js.pending != nil:
		b.spend(worker, keyed, !b.duplicate(js, m))
		return nil
	case res.Error != "":
		_ = m.Ack()
		if res.Refused {
			b.refusals[res.Key] = fmt.Sprintf("%s: %s", worker, res.Error)
			b.tokenRefused[res.Key] = b.tokenRefused[res.Key] || !keyed
			return nil
		}
		if _, _, err := decodeJob(b.ctx, js.job, b.r.tables); err == nil {
			// A job that checks here: the failure is the worker's (or a
			// lie), not the job's; the game is played again.
			b.r.logf("worker %q failed game %d (job %s), a job that checks here: %s; it is played again", worker, js.first, res.Key, res.Error)
			b.needGame(res.Key)
			return nil
		}
		return &JobFailedError{Index: js.first, Key: res.Key, Worker: worker, Reason: res.Error}
	}
	rec, err := CheckResult(js.spec, res)
	if err != nil {
		_ = m.Ack()
		b.quarantine(worker, fmt.Sprintf("game %d (job %s): %v", js.first, res.Key, err))
		b.needGame(res.Key)
		return nil
	}
	b.r.noteSpeed(worker, res.Speed)
	b.spend(worker, keyed, true)
	if !b.deferAck {
		_ = m.Ack()
	}
	if b.r.audit.sampled(res.Key) && !onClock(js.spec) { // a clock game cannot be played again to its moves
		js.pending = &heldResult{rec: rec, worker: worker, msg: m}
		b.queue(res.Key)
		return nil
	}
	b.accept(res.Key, rec, worker, m, false)
	return nil
}

// duplicate handles another result of a job that has one: the broker's
// redelivery of the message held (kept, to be acknowledged at handover:
// true) or a second result (acknowledged and dropped: false).
func (b *batch) duplicate(js *jobState, m jetstream.Msg) bool {
	held := js.msg
	if js.pending != nil {
		held = js.pending.msg
	}
	if b.deferAck && held != nil && sameMessage(held, m) {
		if js.pending != nil {
			js.pending.msg = m
		} else {
			js.msg = m
		}
		return true
	}
	_ = m.Ack()
	return false
}

// sameMessage reports whether a and b are one message of one stream.
func sameMessage(a, b jetstream.Msg) bool {
	ma, err1 := a.Metadata()
	mb, err2 := b.Metadata()
	return err1 == nil && err2 == nil && ma.Stream == mb.Stream && ma.Sequence.Stream == mb.Sequence.Stream && ma.Sequence.Stream != 0
}

// accept makes rec the result of the job key that stands.
func (b *batch) accept(key string, rec tournament.Record, worker string, msg jetstream.Msg, verified bool) {
	js := b.jobs[key]
	js.rec, js.worker, js.msg, js.verified, js.pending = &rec, worker, msg, verified, nil
	b.open--
	b.settledMu.Lock()
	b.settled[key] = true
	b.settledMu.Unlock()
}

// drop removes the result of the job key that stood.
func (b *batch) drop(key string) {
	js := b.jobs[key]
	if js.msg != nil {
		_ = js.msg.Ack()
	}
	js.rec, js.worker, js.msg, js.verified = nil, "", nil, false
	b.open++
	b.settledMu.Lock()
	delete(b.settled, key)
	b.settledMu.Unlock()
}

// quarantine refuses every result of worker from now on in this run, and
// drops those of this batch that were not checked by a game played here.
func (b *batch) quarantine(worker, why string) {
	if !b.r.setQuarantined(worker, why) {
		return
	}
	b.r.purge(worker, true)
	for key, js := range b.jobs {
		if p := js.pending; p != nil && p.worker == worker {
			if p.msg != nil {
				_ = p.msg.Ack()
			}
			js.pending = nil // its game is queued here already
		}
		switch {
		case js.rec == nil || js.worker != worker:
		case js.verified: // the game played here stands, not the worker's
			if js.msg != nil {
				_ = js.msg.Ack()
			}
			js.worker, js.msg = Coordinator, nil
		default:
			b.drop(key)
			b.needGame(key)
		}
	}
}

// needGame has the game of the job key played again when nothing stands
// or waits for it: here, and by the workers (once per batch).
func (b *batch) needGame(key string) {
	js := b.jobs[key]
	if js == nil || js.rec != nil || js.pending != nil {
		return
	}
	b.queue(key)
	if js.republished {
		return
	}
	js.republished = true
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	ack, err := b.r.conn.JS.PublishMsg(ctx, b.r.jobMsg(js))
	if err != nil {
		b.r.logf("publishing job %s again: %v (it is played here)", key, err)
		return
	}
	js.seqs = append(js.seqs, ack.Sequence)
}

// queue has the game of the job key played here.
func (b *batch) queue(key string) {
	js := b.jobs[key]
	if js.queued {
		return
	}
	js.queued = true
	if !b.started {
		b.started = true
		for range b.r.auditWorkers {
			b.players.Add(1)
			go b.playHere()
		}
	}
	b.tasks <- localTask{key: key, spec: js.spec} // never blocks: one task per job at a time
}

// playHere plays the queued games until the batch ends.
func (b *batch) playHere() {
	defer b.players.Done()
	seat, err := b.r.getSeat()
	if err == nil {
		defer b.r.putSeat(seat)
	}
	for {
		var t localTask
		select {
		case <-b.ctx.Done():
			return
		case t = <-b.tasks:
		}
		g := localGame{key: t.key, err: err}
		b.settledMu.Lock()
		g.skipped = b.settled[t.key]
		b.settledMu.Unlock()
		if !g.skipped && err == nil {
			g.rec, g.err = seat.Play(b.ctx, t.spec)
			b.r.playedHere.Add(1)
		}
		select {
		case b.played <- g:
		case <-b.ctx.Done():
			return
		}
	}
}

// playedHere takes a game played here: it settles the job, and checks the
// worker's result of it, if any.
func (b *batch) playedHere(g localGame) error {
	js := b.jobs[g.key]
	js.queued = false
	switch {
	case g.skipped:
		if js.rec == nil {
			b.queue(g.key)
		}
		return nil
	case g.err != nil:
		return fmt.Errorf("cluster: game %d (job %s), played here: %w", js.first, g.key, g.err)
	case localFault(js, g):
		if js.localFaults++; js.localFaults >= maxLocalFaults {
			return fmt.Errorf("cluster: game %d (job %s), played here to audit a worker's, ended %d times by %s here: %s",
				js.first, g.key, js.localFaults, g.rec.Reason, g.rec.Detail)
		}
		b.r.logf("game %d (job %s), played here to audit a worker's, ended by %s here (%s): played again",
			js.first, g.key, g.rec.Reason, g.rec.Detail)
		b.queue(g.key)
		return nil
	case js.pending != nil:
		p := js.pending
		why := sameGame(p.rec, g.rec)
		if why == "" {
			b.accept(g.key, p.rec, p.worker, p.msg, true)
			return nil
		}
		b.quarantine(p.worker, fmt.Sprintf("audit of game %d (job %s): %s", js.first, g.key, why))
	case js.rec != nil && !js.verified:
		if why := sameGame(*js.rec, g.rec); why != "" {
			b.quarantine(js.worker, fmt.Sprintf("audit of game %d (job %s): %s", js.first, g.key, why))
		} else {
			js.verified = true
		}
	}
	if js.rec == nil {
		b.accept(g.key, g.rec, Coordinator, nil, true)
	}
	return nil
}

// maxLocalFaults is how many times an audit's game may end by a fault here
// before the batch fails.
const maxLocalFaults = 3

// localFault tells whether g, the game played here to audit a worker's
// game of js, ended by a fault here (an engine that crashed, stalled or
// lost on time on this machine, as a coordinator too busy to start an
// engine within its handshake time makes it) while the worker's game is
// another: the audit then proves nothing against the worker, and the game
// is played here again rather than the worker quarantined.
func localFault(js *jobState, g localGame) bool {
	var got *tournament.Record
	switch {
	case js.pending != nil:
		got = &js.pending.rec
	case js.rec != nil && !js.verified:
		got = js.rec
	default:
		return false
	}
	return isFault(g.rec.Reason) && sameGame(*got, g.rec) != ""
}

// handOver calls done for every game in spec order, and acknowledges each
// result once its games are handed over.
func (b *batch) handOver(done func(i int, rec tournament.Record) error) error {
	recs := make([]*jobState, b.n)
	for key, js := range b.jobs {
		for _, i := range b.byKey[key] {
			recs[i] = js
		}
	}
	for i, js := range recs {
		if err := done(i, *js.rec); err != nil {
			return err
		}
		if idx := b.byKey[js.key]; idx[len(idx)-1] == i {
			if js.msg != nil && b.deferAck {
				_ = js.msg.Ack()
			}
			b.r.mu.Lock()
			b.r.workers[js.worker]++
			b.r.mu.Unlock()
		}
	}
	return nil
}

// outOfDeliveries handles a job of this batch that the server stopped
// handing out, and removes it from the stream. Refused by nobody, it was
// taken and given back without a word (a worker interrupted, or one with a
// key that takes jobs to drop them): it is published again, as a lost job
// is, rather than stop the run. Refused by a token holder's worker (its
// limits, a game it does not know), it fails the run with the reason.
// Refused by workers with keys only, which may lie, it is published again
// requeueHere-1 times; then played here if it is within a worker's default
// limits and checks here, else it fails the run with the reason.
func (b *batch) outOfDeliveries(seq uint64) error {
	cctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	m, err := b.r.conn.jobs.GetMsg(cctx, seq)
	if err != nil || m.Subject != jobsPrefix+b.r.run {
		return nil // gone already, or another run's
	}
	var job struct {
		Key string `json:"key"`
	}
	_ = json.Unmarshal(m.Data, &job)
	js := b.jobs[job.Key]
	if js == nil || js.rec != nil || js.pending != nil || js.queued {
		return nil
	}
	_ = b.r.conn.jobs.DeleteMsg(cctx, seq)
	last := b.refusals[job.Key]
	switch {
	case last == "":
		b.requeue(cctx, js)
		return nil
	case !b.tokenRefused[job.Key] && js.requeued < requeueHere-1:
		js.requeued++
		b.r.logf("game %d (job %s) was refused max_deliver times by workers with keys only (last: %s): published again (%d)", js.first, js.key, last, js.requeued)
		b.publishAgain(cctx, js)
		return nil
	case !b.tokenRefused[job.Key] && withinDefaults(js.job):
		b.r.logf("game %d (job %s) was refused by workers with keys only (last: %s), and is within a worker's default limits: played here", js.first, js.key, last)
		b.queue(js.key)
		return nil
	}
	reason := "was handed out the consumer's max_deliver times without a result (workers refused it); last refusal: " + last
	return &JobFailedError{Index: js.first, Key: job.Key, Reason: reason, Err: ErrMaxDeliver}
}

// withinDefaults reports whether the job message data checks here and is
// within a worker's default limits.
func withinDefaults(data []byte) bool {
	job, _, err := DecodeJob(data)
	return err == nil && JobLimits{}.allow(job) == nil
}
