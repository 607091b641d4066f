package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Runner is a tournament.Runner that has the games played by workers
// through the broker: the games of a batch are published as jobs under the
// run's subject, and their results handed over in spec order, each once.
type Runner struct {
	conn     *Conn
	run      string
	tableMiB int
	log      io.Writer
	results  chan jetstream.Msg
	maxDel   chan uint64
	consume  jetstream.ConsumeContext
	keyed    jetstream.Stream         // the results of workers with keys (runResultsStream)
	keyedCon jetstream.ConsumeContext // of keyed
	perWork  int64                    // keyed's limit of one worker's results
	advisory *nats.Subscription
	local    *Worker
	stopLoc  context.CancelFunc
	locDone  chan struct{}
	ephem    bool
	closed   chan struct{}
	owned    func() // closes what Dial opened for the runner; nil for none
	tables   *tableArtifacts
	scores   bool // jobs ask for the movers' scores

	audit        auditor
	auditWorkers int
	seats        chan *tournament.Seat // the players of the games played here, for reuse
	playedHere   atomic.Int64

	mu          sync.Mutex
	workers     map[string]int    // games handed over, by worker name
	speeds      map[string]int64  // nodes per second at their benchmark, by worker name
	quarantined map[string]string // workers whose results are refused, and why

	// Of the workers with keys, by public key: results that served nothing
	// (duplicates, jobs of earlier batches) and results that did, the
	// quota of the run (wastedQuota); when their results were last purged.
	wasted, useful map[string]int
	purged         map[string]time.Time
	unhanded       map[string]bool   // those that sent a result of a job they were not handed
	read           map[string]uint64 // the last consumer sequence of a result read, by stream (allRead)
	sharedCons     jetstream.Consumer
	keyedCons      jetstream.Consumer
}

// RunnerOptions configure a runner.
type RunnerOptions struct {
	// Run names the run: its jobs and results travel under it. A resumed
	// run must use the same name to find the results its workers finished
	// meanwhile. Letters, digits, '-' and '_', at most 64.
	Run string
	// TableMiB is the transposition table of the searchers that play the
	// games (it travels with each job; 0 means 2, the local pool's size).
	TableMiB int
	// Workers is the number of games played in this process too (0: none).
	Workers int
	// Name of this process's worker in results.
	Name string
	// Ephemeral runs (a match) remove their jobs and results at Close.
	Ephemeral bool
	// Log receives notes: results that did not parse, refusals, workers
	// quarantined (nil: none).
	Log io.Writer
	// Audit is the share of games played again here in full, their moves
	// compared with the worker's (every result's moves are replayed with
	// the game's rules in any case: CheckResult). A worker whose game
	// differs is quarantined for the rest of the run. 0 means
	// DefaultAudit; a negative share audits nothing; 1 audits every game.
	Audit float64
	// AuditSeed chooses which games are audited, with each job's key (0: a
	// secret drawn at random, so that no worker can tell).
	AuditSeed uint64
	// AuditWorkers is the number of games played here at once to audit
	// results or replace refused ones (0 means 1).
	AuditWorkers int
	// Scores has the records carry the movers' scores (Record.Evals,
	// without their times), as the local pool's do: learn's self-play
	// labels positions with them. Its jobs are of ArtifactsWireVersion.
	Scores bool
	// UploadEngines puts the binary of each external engine a job names on
	// the broker, as an artifact named by its SHA-256, for workers that
	// accept engines they were not given (WorkerOptions.AcceptEngines).
	UploadEngines bool

	resultsPerWorker int64 // the run's stream's limit of one key worker's results (0: RunResultsPerWorker)
}

// NewRunner returns a runner of the run named in o. Jobs of the run left
// by an earlier coordinator are removed (the tuner publishes again the
// games not recorded); their results that workers published meanwhile stay
// and are used.
func NewRunner(ctx context.Context, conn *Conn, o RunnerOptions) (*Runner, error) {
	if !validToken(o.Run) {
		return nil, fmt.Errorf("cluster: run name %q: want 1 to 64 letters, digits, '-' or '_'", o.Run)
	}
	if o.TableMiB == 0 {
		o.TableMiB = 2
	}
	if o.Audit == 0 {
		o.Audit = DefaultAudit
	}
	if math.IsNaN(o.Audit) || o.Audit > 1 {
		return nil, fmt.Errorf("cluster: audit share %v: want 0 to 1", o.Audit)
	}
	r := &Runner{conn: conn, run: o.Run, tableMiB: o.TableMiB, log: o.Log, ephem: o.Ephemeral,
		results: make(chan jetstream.Msg, 1024), closed: make(chan struct{}), maxDel: make(chan uint64, 64), workers: map[string]int{},
		audit: newAuditor(o.Audit, o.AuditSeed), auditWorkers: max(o.AuditWorkers, 1), quarantined: map[string]string{},
		tables: newTableArtifacts(conn, o.UploadEngines), scores: o.Scores,
		perWork: o.resultsPerWorker, wasted: map[string]int{}, useful: map[string]int{}, purged: map[string]time.Time{},
		unhanded: map[string]bool{}, read: map[string]uint64{}}
	r.seats = make(chan *tournament.Seat, r.auditWorkers)
	cons, keyedCons, err := r.resultsConsumer(ctx)
	if err != nil {
		return nil, err
	}
	r.sharedCons, r.keyedCons = cons, keyedCons
	r.advisory, err = conn.NC.Subscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+JobsStream+"."+WorkersConsumer, func(m *nats.Msg) {
		var a struct {
			StreamSeq uint64 `json:"stream_seq"`
		}
		if json.Unmarshal(m.Data, &a) == nil {
			select {
			case r.maxDel <- a.StreamSeq:
			default:
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	take := func(m jetstream.Msg) {
		select {
		case r.results <- m:
		case <-r.closed:
		}
	}
	if r.consume, err = cons.Consume(take); err == nil {
		if r.keyedCon, err = keyedCons.Consume(take); err != nil {
			r.consume.Stop()
		}
	}
	if err != nil {
		r.advisory.Unsubscribe()
		return nil, conn.apiError("consuming results", err)
	}
	if o.Workers > 0 {
		if err := r.startLocal(ctx, o); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// resultsAckWait is how long the coordinator may hold a result before the
// broker hands it over again: it holds a batch's results until the batch
// is handed over.
const resultsAckWait = 30 * time.Minute

// resultsConsumer removes the run's old jobs and makes its consumers of
// results afresh: of the results stream, and of the run's stream of
// results from workers with keys, which it makes if need be.
func (r *Runner) resultsConsumer(ctx context.Context) (shared, keyed jetstream.Consumer, err error) {
	var made [2]jetstream.Consumer
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := r.conn.jobs.Purge(ctx, jetstream.WithPurgeSubject(jobsPrefix+r.run)); err != nil {
		return nil, nil, r.conn.apiError("removing the run's old jobs", err)
	}
	removeStaleRunStreams(ctx, r.conn.JS, staleRunStream)
	if r.keyed, err = ensureRunStream(ctx, r.conn.JS, r.run, r.perWork); err != nil {
		return nil, nil, err
	}
	name := "run-" + r.run
	for i, s := range []jetstream.Stream{r.conn.results, r.keyed} {
		if err := s.DeleteConsumer(ctx, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return nil, nil, r.conn.apiError("the run's results consumer", err)
		}
		filter := resultsPrefix + r.run
		if i == 1 {
			filter += ".*"
		}
		cons, err := s.CreateConsumer(ctx, jetstream.ConsumerConfig{
			Durable: name, AckPolicy: jetstream.AckExplicitPolicy, AckWait: resultsAckWait,
			MaxAckPending: 100_000, FilterSubject: filter, DeliverPolicy: jetstream.DeliverAllPolicy,
			InactiveThreshold: RunConsumerInactive,
		})
		if err != nil {
			return nil, nil, r.conn.apiError("the run's results consumer", err)
		}
		made[i] = cons
	}
	return made[0], made[1], nil
}

// staleRunStream is the age after which a run's stream of results from
// workers with keys, empty and read by nobody, is removed by the next
// coordinator that starts: its run ended, or its coordinator died more
// than RunConsumerInactive ago and every result it left expired.
const staleRunStream = 2 * RunConsumerInactive

// removeStaleRunStreams removes the streams of runs' results from workers
// with keys that are empty, read by nobody and older than age; it does
// what it can and reports nothing.
func removeStaleRunStreams(ctx context.Context, js jetstream.JetStream, age time.Duration) {
	list := js.ListStreams(ctx, jetstream.WithStreamListSubject(resultsPrefix+"*.*"))
	var stale []string
	for info := range list.Info() {
		if strings.HasPrefix(info.Config.Name, ResultsStream+"_") && info.State.Msgs == 0 && info.State.Consumers == 0 && time.Since(info.Created) > age {
			stale = append(stale, info.Config.Name)
		}
	}
	for _, name := range stale {
		_ = js.DeleteStream(ctx, name)
	}
}

// startLocal starts the worker of this process, playing o.Workers games at
// once until Close.
func (r *Runner) startLocal(ctx context.Context, o RunnerOptions) error {
	var err error
	if r.local, err = NewWorker(ctx, r.conn, WorkerOptions{Workers: o.Workers, Name: o.Name, Log: o.Log}); err != nil {
		return err
	}
	lctx, stop := context.WithCancel(context.Background())
	r.stopLoc, r.locDone = stop, make(chan struct{})
	go func() {
		defer close(r.locDone)
		r.local.Run(lctx)
	}()
	return nil
}

// DialOptions configure Dial. The zero value of each field means its
// default.
type DialOptions struct {
	URL   string // the broker's, nats://HOST:PORT; "" for Broker's
	Token string
	// Broker is a broker this process started for the run, or nil: the
	// runner closes it when it closes.
	Broker  *Broker
	Connect ConnectOptions
	Runner  RunnerOptions
}

// Dial connects to the broker and returns the runner of the run o.Runner
// names (NewRunner). The runner owns the connection and o.Broker: Close
// closes them after itself. When Dial fails, it closes them at once.
func Dial(ctx context.Context, o DialOptions) (*Runner, error) {
	closeBroker := func() {
		if o.Broker != nil {
			o.Broker.Close()
		}
	}
	url := o.URL
	if url == "" && o.Broker != nil {
		url = o.Broker.URL()
	}
	conn, err := Connect(ctx, url, o.Token, o.Connect)
	if err != nil {
		closeBroker()
		return nil, err
	}
	r, err := NewRunner(ctx, conn, o.Runner)
	if err != nil {
		conn.Close()
		closeBroker()
		return nil, err
	}
	r.owned = func() {
		conn.Close()
		closeBroker()
	}
	return r, nil
}

// Close stops the local worker (its games in flight go back to the queue)
// and the consumption of results, and closes what Dial opened. Jobs stay
// for the workers unless the run is ephemeral.
func (r *Runner) Close() error {
	if r.stopLoc != nil {
		r.stopLoc()
		<-r.locDone
	}
	close(r.closed)
	for len(r.seats) > 0 {
		(<-r.seats).Close()
	}
	if r.consume != nil {
		r.consume.Stop()
	}
	if r.keyedCon != nil {
		r.keyedCon.Stop()
	}
	if r.advisory != nil {
		r.advisory.Unsubscribe()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.conn.results.DeleteConsumer(ctx, "run-"+r.run) // made afresh by the next runner of the run
	_ = r.keyed.DeleteConsumer(ctx, "run-"+r.run)
	if r.ephem {
		_ = r.conn.jobs.Purge(ctx, jetstream.WithPurgeSubject(jobsPrefix+r.run))
		_ = r.conn.results.Purge(ctx, jetstream.WithPurgeSubject(resultsPrefix+r.run))
		_ = r.conn.JS.DeleteStream(ctx, runResultsStream(r.run)) // no worker may publish for the run now
	}
	if r.owned != nil {
		r.owned()
	}
	return nil
}

// GamesByWorker returns how many games each worker played for this runner
// (handed over, duplicates not counted).
func (r *Runner) GamesByWorker() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.workers))
	for k, v := range r.workers {
		out[k] = v
	}
	return out
}

// WriteGamesByWorker writes one line of the games each worker played for
// this runner, by name: "games by worker: a 12 b 30" ("none" for none).
func (r *Runner) WriteGamesByWorker(w io.Writer) {
	by := r.GamesByWorker()
	parts := []string{}
	for _, name := range slices.Sorted(maps.Keys(by)) {
		parts = append(parts, fmt.Sprintf("%s %d", name, by[name]))
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	fmt.Fprintf(w, "games by worker: %s\n", strings.Join(parts, " "))
	r.mu.Lock()
	speeds := maps.Clone(r.speeds)
	r.mu.Unlock()
	if len(speeds) > 0 {
		parts = parts[:0]
		for _, name := range slices.Sorted(maps.Keys(speeds)) {
			parts = append(parts, fmt.Sprintf("%s %.2fM", name, float64(speeds[name])/1e6))
		}
		fmt.Fprintf(w, "worker speeds (nodes/s, Othello at depth 6): %s\n", strings.Join(parts, " "))
	}
	q := r.Quarantined()
	for _, name := range slices.Sorted(maps.Keys(q)) {
		fmt.Fprintf(w, "worker %q quarantined: %s\n", name, q[name])
	}
}

// ErrMaxDeliver is wrapped by the error of a job the broker handed out the
// workers' consumer's MaxDeliver times without a result: workers crashed
// on it or refused it, and their logs say why.
var ErrMaxDeliver = errors.New("cluster: a job was handed out max_deliver times without a result")

// JobFailedError is the error of a game whose job a worker could not play,
// or that was handed out MaxDeliver times without a result.
type JobFailedError struct {
	Index  int    // the game's index in the batch
	Key    string // its job's key
	Worker string // the worker that failed it ("" when it ran out of deliveries)
	Reason string
	Err    error // ErrMaxDeliver when the job ran out of deliveries, else nil
}

// Unwrap returns ErrMaxDeliver for a job that ran out of deliveries.
func (e *JobFailedError) Unwrap() error { return e.Err }

func (e *JobFailedError) Error() string {
	if e.Worker != "" {
		return fmt.Sprintf("cluster: game %d (job %s) failed on worker %s: %s", e.Index, e.Key, e.Worker, e.Reason)
	}
	return fmt.Sprintf("cluster: game %d (job %s) %s", e.Index, e.Key, e.Reason)
}

// Run publishes every spec as a job and calls done for each game in spec
// order once every game of the batch has a result that stands: its moves
// replay with the game's rules (CheckResult), its game, when audited,
// is the game played here, and its worker is not quarantined. A result
// that arrives twice (a redelivered job) is handed over once. A job that
// fails, or runs out of deliveries, ends Run with a *JobFailedError.
func (r *Runner) Run(ctx context.Context, specs []tournament.GameSpec, done func(i int, rec tournament.Record) error) error {
	if len(specs) == 0 {
		return ctx.Err()
	}
	jobs := map[string]*jobState{}
	byKey := map[string][]int{}
	var futures []jetstream.PubAckFuture
	o := jobOptions{tables: func(g games.Game, ev *games.Evaluator) (string, error) { return r.tables.name(ctx, g, ev) },
		engine: r.tables.wireEngine, scores: r.scores}
	var published, again []*jobState // again: published again once the batch is made
	for i, s := range specs {
		job, err := newJob(s, r.tableMiB, o)
		if err != nil {
			return err
		}
		byKey[job.Key] = append(byKey[job.Key], i)
		if jobs[job.Key] != nil {
			continue // the same game: one result serves both
		}
		data, err := job.Encode()
		if err != nil {
			return err
		}
		js := &jobState{key: job.Key, job: data, spec: s, first: i}
		jobs[job.Key] = js
		f, err := r.conn.JS.PublishMsgAsync(r.jobMsg(js))
		if disconnected(err) {
			again = append(again, js)
			continue
		}
		if err != nil {
			return r.conn.apiError("publishing a job", err)
		}
		futures = append(futures, f)
		published = append(published, js)
	}
	select {
	case <-r.conn.JS.PublishAsyncComplete():
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Minute):
		return fmt.Errorf("cluster: the broker at %s did not take the jobs within a minute", r.conn.url)
	}
	for i, f := range futures {
		select {
		case err := <-f.Err():
			if !disconnected(err) {
				return r.conn.apiError("publishing a job", err)
			}
			again = append(again, published[i])
		case ack := <-f.Ok():
			published[i].seqs = append(published[i].seqs, ack.Sequence)
		}
	}
	b := r.newBatch(ctx, jobs, byKey, len(specs))
	for _, js := range again {
		r.logf("publishing job %s: the connection to the broker dropped before its acknowledgement: published again", js.key)
		b.publishAgain(ctx, js)
	}
	return b.run(done)
}

// disconnected tells whether a publication failed because the connection
// to the broker dropped (it reconnects by itself): the job is published
// again, or played here when that fails too, rather than failing the run
// (a loaded broker may drop a client that reads too slowly).
func disconnected(err error) bool {
	return errors.Is(err, nats.ErrDisconnected) || errors.Is(err, nats.ErrConnectionReconnecting)
}

// jobMsg is the message of the job js, with its ticket.
func (r *Runner) jobMsg(js *jobState) *nats.Msg {
	m := &nats.Msg{Subject: jobsPrefix + r.run, Data: js.job, Header: nats.Header{}}
	m.Header.Set(TicketHeader, r.conn.ticket(r.run, js.key))
	return m
}

// Quarantined returns the workers whose results this runner refuses, each
// with the reason: a result whose moves do not replay, or an audited game
// that differs from the game played here.
func (r *Runner) Quarantined() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.quarantined)
}

func (r *Runner) isQuarantined(worker string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.quarantined[worker]
	return ok
}

// setQuarantined quarantines worker and says so in the log; false when it
// was already.
func (r *Runner) setQuarantined(worker, why string) bool {
	r.mu.Lock()
	_, was := r.quarantined[worker]
	if !was {
		r.quarantined[worker] = why
	}
	before := r.workers[worker]
	r.mu.Unlock()
	if !was {
		r.logf("worker %q quarantined: %s; its results of this batch are dropped and their games played again, the rest of its results refused (%d of its games were handed over in earlier batches)", worker, why, before)
	}
	return !was
}

// noteSpeed keeps the speed a worker reported (0: none).
func (r *Runner) noteSpeed(worker string, nps int64) {
	if nps <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.speeds == nil {
		r.speeds = map[string]int64{}
	}
	r.speeds[worker] = nps
}

// PlayedHere is the number of games this runner played itself: audits,
// and games whose results it refused.
func (r *Runner) PlayedHere() int64 { return r.playedHere.Load() }

// getSeat returns a seat to play games here: one played on before, or a
// new one.
func (r *Runner) getSeat() (*tournament.Seat, error) {
	select {
	case s := <-r.seats:
		return s, nil
	default:
		s, err := tournament.NewSearchers(r.tableMiB)
		if err != nil {
			return nil, err
		}
		return tournament.NewSeat(s, r.tableMiB, nil), nil
	}
}

// putSeat keeps a seat for the next games played here, or closes it.
func (r *Runner) putSeat(s *tournament.Seat) {
	select {
	case r.seats <- s:
	default:
		s.Close()
	}
}

func (r *Runner) logf(format string, args ...any) {
	if r.log != nil {
		fmt.Fprintf(r.log, "cluster: %s\n", fmt.Sprintf(format, args...))
	}
}
