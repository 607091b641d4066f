package cluster

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Jobs that leave the queue without a result. A worker acknowledges a job
// after it published the result, so a job whose message left the jobs
// stream while no result of it came was acknowledged (or terminated) by a
// worker that sent none: a worker with a key may do that, and nothing else
// would hand the job out again. The coordinator looks for such jobs every
// lostCheck and publishes each again, once every result stored before it
// was found gone has been read; one published again requeueHere times is
// also played here.

// lostCheck is the time between two looks for lost jobs.
const lostCheck = time.Second

// sweepMax bounds the jobs whose messages one look checks one by one (one
// request each); the look counts the run's messages first, and checks
// jobs only when there are fewer than the jobs waiting for a result.
const sweepMax = 200

// requeueHere is the number of times a lost job is published again before
// it is also played here: a worker that drops every job it takes costs the
// run that many rounds of lostCheck, then the coordinator's time.
const requeueHere = 3

// findLost looks for the batch's lost jobs and publishes them again once
// every result stored before they were found gone has been read.
func (b *batch) findLost() {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	var waiting []*jobState
	for _, js := range b.jobs {
		if js.rec != nil || js.pending != nil || js.queued {
			js.lost = false
		} else if !js.lost {
			waiting = append(waiting, js)
		}
	}
	subject := jobsPrefix + b.r.run
	if len(waiting) > 0 {
		info, err := b.r.conn.jobs.Info(ctx, jetstream.WithSubjectFilter(subject))
		if err == nil && int(info.State.Subjects[subject]) < len(waiting) {
			slices.SortFunc(waiting, func(x, y *jobState) int { return x.first - y.first })
			for i := range min(len(waiting), sweepMax) {
				js := waiting[(b.sweep+i)%len(waiting)]
				js.lost = !b.anyQueued(ctx, js)
			}
			b.sweep += sweepMax
		}
	}
	var lost []*jobState
	for _, js := range b.jobs {
		if js.lost {
			lost = append(lost, js)
		}
	}
	if len(lost) == 0 || !b.r.allRead(ctx) {
		return
	}
	slices.SortFunc(lost, func(x, y *jobState) int { return x.first - y.first })
	for _, js := range lost {
		b.requeue(ctx, js)
	}
}

// anyQueued reports whether a message of js is still in the jobs stream
// (true when it cannot tell).
func (b *batch) anyQueued(ctx context.Context, js *jobState) bool {
	for _, seq := range js.seqs {
		_, err := b.r.conn.jobs.GetMsg(ctx, seq)
		if !errors.Is(err, jetstream.ErrMsgNotFound) {
			return true
		}
	}
	return len(js.seqs) == 0
}

// allRead reports whether every result stored so far has been read: both
// consumers of results have handed over every message, and this runner
// has read the last they delivered (by the consumer's sequence: a purge
// of a quarantined worker's results moves the consumer's last delivered
// stream sequence past messages never delivered, which would wait here
// for ever).
func (r *Runner) allRead(ctx context.Context) bool {
	for _, c := range []jetstream.Consumer{r.sharedCons, r.keyedCons} {
		info, err := c.Info(ctx)
		if err != nil || info.NumPending > 0 || info.Delivered.Consumer > r.read[info.Stream] {
			return false
		}
	}
	return true
}

// requeue publishes the lost job js again.
func (b *batch) requeue(ctx context.Context, js *jobState) {
	js.lost = false
	js.requeued++
	b.r.logf("game %d (job %s) left the queue without a result (a worker acknowledged it, or handed it back max_deliver times, and sent none): published again (%d)", js.first, js.key, js.requeued)
	if js.requeued >= requeueHere {
		b.queue(js.key)
	}
	b.publishAgain(ctx, js)
}

// publishAgain publishes the job js again; when it cannot, the job is
// played here.
func (b *batch) publishAgain(ctx context.Context, js *jobState) {
	ack, err := b.r.conn.JS.PublishMsg(ctx, b.r.jobMsg(js))
	if err != nil {
		b.r.logf("publishing job %s again: %v (it is played here)", js.key, err)
		b.queue(js.key)
		return
	}
	js.seqs = append(js.seqs, ack.Sequence)
}
