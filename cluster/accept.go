package cluster

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// Who sent a result, and what a worker with a key may cost a run.
//
// A result on gametune.results.RUN is a token holder's (a coordinator's
// own worker, or a worker given the token): it names its worker in the
// message, as a coordinator would. A result on gametune.results.RUN.KEY is
// the worker's of public key KEY, the only subject of that run the broker
// lets it publish on (WorkerPermissions): its name is KEY, whatever the
// message says.

// wastedQuota is the number of results that serve nothing (second results
// of a job, results of jobs settled in earlier batches or never handed to
// it) a worker with a key may send in a run beyond the number of its
// results that served: an honest worker sends such a result only when a
// job it played was handed out again, which is rare (or after the token
// changed); past it, the worker is quarantined.
const wastedQuota = 1000

// purgeEvery is the least time between two purges of a quarantined
// worker's results.
const purgeEvery = time.Second

// sender returns the worker that published on subject, a subject of the
// run's results: the public key of a worker with a key (keyed), or ""
// for a token holder's result, which names its worker itself.
func (r *Runner) sender(subject string) (worker string, keyed bool) {
	key, ok := strings.CutPrefix(subject, resultsPrefix+r.run+".")
	if !ok || !nkeys.IsValidPublicUserKey(key) {
		return "", false
	}
	return key, true
}

// seen notes the consumer sequence of a result message read (allRead):
// the consumer's count of deliveries, which messages removed from the
// stream before their delivery do not advance, where its last delivered
// stream sequence jumps past them (nats-server 2.9 after a purge).
func (r *Runner) seen(m jetstream.Msg) {
	md, err := m.Metadata()
	if err != nil {
		return
	}
	if md.Sequence.Consumer > r.read[md.Stream] {
		r.read[md.Stream] = md.Sequence.Consumer
	}
}

// purge removes the waiting results of worker from the run's stream of
// results of workers with keys: those of a quarantined worker are refused
// anyway, and a worker that floods them is quarantined at its first. At
// most one purge per purgeEvery, unless now.
func (r *Runner) purge(worker string, now bool) {
	if !nkeys.IsValidPublicUserKey(worker) || !now && time.Since(r.purged[worker]) < purgeEvery {
		return
	}
	r.purged[worker] = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.keyed.Purge(ctx, jetstream.WithPurgeSubject(keyedResultsSubject(r.run, worker))); err != nil {
		r.logf("removing the results of quarantined worker %q: %v", worker, err)
	}
}

// spend counts a result of a worker with a key against its quota: one
// that served (a game's result) or not; past wastedQuota, the worker is
// quarantined.
func (b *batch) spend(worker string, keyed, served bool) {
	if !keyed {
		return
	}
	r := b.r
	if served {
		r.useful[worker]++
		return
	}
	r.wasted[worker]++
	if r.wasted[worker] > r.useful[worker]+wastedQuota {
		b.quarantine(worker, fmt.Sprintf("%d results that served nothing (second results of a job, jobs settled earlier) against %d that did", r.wasted[worker], r.useful[worker]))
	}
}
