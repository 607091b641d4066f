package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Worker plays the jobs of every run from the workers' consumer.
type Worker struct {
	conn    *Conn
	cons    jetstream.Consumer
	name    string
	n       int
	ackWait time.Duration
	log     io.Writer
	played  atomic.Int64
	logMu   sync.Mutex
	owned   bool // the connection is the worker's: Close closes it
	limits  JobLimits
	tables  *workerTables
	clock   chan struct{} // the slots of clock games: one per core
	speed   int64         // nodes per second at the benchmark
	// engineLog receives the external engines' stderr (nil: dropped).
	engineLog io.Writer
}

// WorkerOptions configure a worker. Workers is the number of games played
// at once (0 means 1); Name identifies the worker in results (0: "worker");
// Log receives one line per job that failed (nil: none); Limits are the
// largest jobs it plays (zero fields: the defaults). Artifacts (tables)
// are kept in ArtifactDir ("": DefaultArtifactDir), at most ArtifactBytes
// of them (0: DefaultArtifactCache).
type WorkerOptions struct {
	Workers       int
	Name          string
	Log           io.Writer
	Limits        JobLimits
	ArtifactDir   string
	ArtifactBytes int64
	// Engines are the external engines this worker may play, by name, as
	// an engines file lists them (external.ReadEngines), with this
	// machine's paths; a job's engine must have the name and the binary's
	// SHA-256 of one of them. Nil: none. EngineLog receives their stderr
	// (nil: dropped).
	Engines   external.Engines
	EngineLog io.Writer
	// AcceptEngines lets the worker run the binary of an engine that
	// Engines does not allow, fetched from the broker where a coordinator
	// uploaded it (RunnerOptions.UploadEngines), checked against its
	// SHA-256: code from whoever holds the broker's token. Off by default.
	AcceptEngines bool
}

// NewWorker returns a worker on conn.
func NewWorker(ctx context.Context, conn *Conn, o WorkerOptions) (*Worker, error) {
	if err := o.Limits.Check(); err != nil {
		return nil, err
	}
	cons, err := conn.jobs.Consumer(ctx, WorkersConsumer)
	if err != nil {
		return nil, conn.apiError("the workers' consumer", err)
	}
	cache, err := NewArtifactCache(conn, o.ArtifactDir, o.ArtifactBytes)
	if err != nil {
		return nil, err
	}
	allowed, err := allowEngines(o.Engines)
	if err != nil {
		return nil, err
	}
	w := &Worker{conn: conn, cons: cons, name: o.Name, n: max(o.Workers, 1), log: o.Log, limits: o.Limits,
		tables: &workerTables{cache: cache, allowed: allowed, accept: o.AcceptEngines}, clock: newClockSlots(), engineLog: o.EngineLog}
	if w.name == "" {
		w.name = "worker"
	}
	if conn.keyName != "" {
		w.name = conn.keyName // the broker binds it to the key: the only name it may publish under
	}
	w.ackWait = cons.CachedInfo().Config.AckWait
	if w.ackWait <= 0 {
		w.ackWait = DefaultAckWait
	}
	return w, nil
}

// Name is the worker's name in results: for a worker with a key of its
// own, its public key.
func (w *Worker) Name() string { return w.name }

// Close closes the connection OpenWorker opened for the worker; it does
// nothing for a worker NewWorker made on a connection of its caller.
func (w *Worker) Close() {
	if w.owned {
		w.conn.Close()
	}
}

// Played is the number of games this worker played and published.
func (w *Worker) Played() int64 { return w.played.Load() }

// Run pulls and plays jobs until ctx is cancelled. Then it stops the games
// in flight and hands their jobs back (a negative acknowledgement), so that
// another worker takes them at once, and returns nil.
func (w *Worker) Run(ctx context.Context) error {
	if w.speed == 0 {
		w.speed = benchmark(ctx)
	}
	var wg sync.WaitGroup
	errs := make([]error, w.n)
	for i := 0; i < w.n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = w.loop(ctx)
		}(i)
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (w *Worker) loop(ctx context.Context) error {
	seats := map[int]*tournament.Seat{} // by table size
	defer func() {
		for _, seat := range seats {
			seat.Close()
		}
	}()
	for ctx.Err() == nil {
		batch, err := w.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			w.logf("fetching a job: %v", err)
			sleep(ctx, time.Second)
			continue
		}
		for msg := range batch.Messages() {
			w.handle(ctx, seats, msg)
		}
		if err := batch.Error(); err != nil && ctx.Err() == nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) {
			w.logf("fetching a job: %v", err)
			sleep(ctx, time.Second)
		}
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// resultsSubject returns the subject of results for a job's subject.
func resultsSubject(jobSubject string) (string, bool) {
	run, ok := strings.CutPrefix(jobSubject, jobsPrefix)
	if !ok || !validToken(run) {
		return "", false
	}
	return resultsPrefix + run, true
}

// handle plays one job. It never panics on a bad job: a job that does not
// parse or does not check is answered with an error result and terminated;
// one this worker cannot play but another may is handed back.
func (w *Worker) handle(ctx context.Context, seats map[int]*tournament.Seat, msg jetstream.Msg) {
	subject, ok := resultsSubject(msg.Subject())
	if !ok {
		w.logf("job on subject %q: not a run's subject; dropped", msg.Subject())
		_ = msg.Term()
		return
	}
	if w.conn.keyName != "" {
		subject += "." + w.conn.keyName
	}
	out := outbox{subject: subject, job: msg}
	if h := msg.Headers(); h != nil {
		out.ticket = h.Get(TicketHeader)
	}
	job, spec, err := decodeJob(ctx, msg.Data(), w.tables)
	if err == nil {
		err = w.limits.allow(job)
	}
	if err != nil {
		refused := errors.Is(err, ErrRefused)
		w.logf("job %s: %v", job.Key, err)
		if job.Key != "" && len(job.Key) <= 64 {
			w.publish(ctx, out, Result{V: WireVersion, Key: job.Key, Worker: w.name, Error: err.Error(), Refused: refused})
		}
		if refused {
			_ = msg.NakWithDelay(time.Second)
		} else {
			_ = msg.TermWithReason("bad job")
		}
		return
	}
	seat, ok := seats[job.TableMiB]
	if !ok {
		s, err := tournament.NewSearchers(job.TableMiB)
		if err != nil {
			w.logf("job %s: %v", job.Key, err)
			_ = msg.NakWithDelay(time.Second)
			return
		}
		for size, old := range seats { // one table at a time: they can be large
			old.Close()
			delete(seats, size)
		}
		seat = tournament.NewSeat(s, job.TableMiB, w.engineLog)
		seats[job.TableMiB] = seat
	}
	if onClock(spec) {
		if !w.takeClockSlot(ctx, msg) {
			_ = msg.Nak() // interrupted: another worker takes it now
			return
		}
		defer func() { <-w.clock }()
	}
	rec, err := w.play(ctx, seat, spec, msg, deadline(job))
	if err != nil {
		if ctx.Err() != nil {
			_ = msg.Nak() // interrupted: another worker takes it now
			return
		}
		if errors.Is(err, context.DeadlineExceeded) {
			// Given up: back to the queue, where the consumer's MaxDeliver
			// bounds the attempts and then fails the run, naming this.
			err = fmt.Errorf("gave the game up past its deadline of %v (the job's deadline_ms)", deadline(job))
			w.logf("job %s: %v", job.Key, err)
			w.publish(ctx, out, Result{V: WireVersion, Key: job.Key, Worker: w.name, Error: err.Error(), Refused: true})
			_ = msg.NakWithDelay(time.Second)
			return
		}
		w.logf("job %s: %v", job.Key, err)
		w.publish(ctx, out, Result{V: WireVersion, Key: job.Key, Worker: w.name, Error: err.Error()})
		_ = msg.TermWithReason("game failed")
		return
	}
	res := NewResult(job.Key, w.name, rec)
	if job.Scores {
		res = withEvals(res, rec)
	}
	if job.V >= ArtifactsWireVersion {
		res.Speed, res.Detail = w.speed, rec.Detail
	}
	if err := w.publish(ctx, out, res); err != nil {
		_ = msg.Nak()
		return
	}
	w.played.Add(1)
	_ = msg.Ack()
}

// takeClockSlot waits for one of the worker's slots of clock games (one
// per core), telling the server meanwhile that the job is in progress;
// false when ctx ends first.
func (w *Worker) takeClockSlot(ctx context.Context, msg jetstream.Msg) bool {
	t := time.NewTicker(max(w.ackWait/3, 100*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case w.clock <- struct{}{}:
			return true
		case <-ctx.Done():
			return false
		case <-t.C:
			_ = msg.InProgress()
		}
	}
}

// play plays a game within its deadline (past it: an error wrapping
// context.DeadlineExceeded), telling the server the job is in progress
// every third of the ack wait so that it is not handed to another worker
// meanwhile; past the deadline it stops telling, so that a game that does
// not stop goes to another worker after the ack wait.
func (w *Worker) play(ctx context.Context, seat *tournament.Seat, spec tournament.GameSpec, msg jetstream.Msg, limit time.Duration) (tournament.Record, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(max(w.ackWait/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	defer func() { close(stop); <-done }()
	return seat.Play(ctx, spec)
}

// outbox is where the result of a job goes: its subject, the job's ticket
// (sent back as the header TicketHeader) and the job's message.
type outbox struct {
	subject string
	ticket  string
	job     jetstream.Msg
}

// publish publishes a result and waits for the stream to have it. A stream
// that is full (another worker filled it) is tried again every second,
// the job kept in progress, until ctx ends or the stream has room for
// fullRetry: a full stream is nobody's fault here, and handing the job
// back would count a delivery against its run.
func (w *Worker) publish(ctx context.Context, out outbox, r Result) error {
	data, err := jsonMarshal(r)
	msg := &nats.Msg{Subject: out.subject, Data: data, Header: nats.Header{}}
	if out.ticket != "" {
		msg.Header.Set(TicketHeader, out.ticket)
	}
	for start := time.Now(); err == nil; {
		pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = w.conn.JS.PublishMsg(pctx, msg)
		cancel()
		if !streamFull(err) || ctx.Err() != nil || time.Since(start) > fullRetry {
			break
		}
		if start.Add(time.Second).After(time.Now()) {
			w.logf("publishing the result of %s: %v: trying again every second", r.Key, err)
		}
		_ = out.job.InProgress()
		sleep(ctx, time.Second)
		err = nil
	}
	if err != nil {
		w.logf("publishing the result of %s: %v", r.Key, err)
	}
	return err
}

// fullRetry is how long a worker tries to publish a result to a full
// stream before it hands the job back.
const fullRetry = 10 * time.Minute

// streamFull reports whether err is a stream's refusal of a message for
// its limits of messages or bytes, or for more messages at once than it
// takes ("too many requests": a flood that the broker throttles).
func streamFull(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "maximum messages") || strings.Contains(msg, "maximum bytes") || strings.Contains(msg, "too many requests")
}

func (w *Worker) logf(format string, args ...any) {
	if w.log == nil {
		return
	}
	w.logMu.Lock()
	defer w.logMu.Unlock()
	fmt.Fprintf(w.log, "worker %s: %s\n", w.name, fmt.Sprintf(format, args...))
}
