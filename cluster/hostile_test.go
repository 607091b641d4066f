package cluster

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// The hostile worker: a worker with a valid key of its own that does what
// its permissions let it, against a run that an honest worker with a key
// plays. Whatever it does, the runs end with the games the local pool
// plays, the honest worker is never quarantined, and the streams stay
// within their limits.

// keyedBroker is a broker that lists two workers' keys: an honest worker's,
// which plays, and a hostile one's.
type keyedBroker struct {
	b               *Broker
	honest, hostile string // public keys
	hostileSeed     []byte
}

func startKeyedBroker(t *testing.T) *keyedBroker {
	t.Helper()
	dir := t.TempDir()
	k := &keyedBroker{}
	var seeds [2][]byte
	for i, name := range []string{"honest.nk", "hostile.nk"} {
		pub, err := NewWorkerKey(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if seeds[i], err = ReadWorkerKey(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			k.honest = pub
		} else {
			k.hostile = pub
		}
	}
	k.hostileSeed = seeds[1]
	var err error
	k.b, err = StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, WorkerKeys: []string{k.honest, k.hostile}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.b.Close)
	ctx, cancel := context.WithCancel(context.Background())
	wc, err := Connect(ctx, k.b.URL(), "", ConnectOptions{Name: "honest", WorkerKey: seeds[0]})
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorker(ctx, wc, WorkerOptions{Workers: 1, Name: "honest"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done; wc.Close() })
	return k
}

// hostileNATS connects as the hostile worker, bare: it sends what it likes.
// Its permission violations go to the channel returned.
func (k *keyedBroker) hostileNATS(t *testing.T) (*nats.Conn, jetstream.JetStream, chan error) {
	t.Helper()
	violations := make(chan error, 64)
	sign := func(nonce []byte) ([]byte, error) { return signWith(k.hostileSeed, nonce) }
	nc, err := nats.Connect(k.b.URL(), nats.Nkey(k.hostile, sign), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case violations <- err:
		default:
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(50_000))
	if err != nil {
		t.Fatal(err)
	}
	return nc, js, violations
}

// signWith signs nonce with the NKey seed.
func signWith(seed, nonce []byte) ([]byte, error) {
	kp, err := nkeys.FromSeed(seed)
	if err != nil {
		return nil, err
	}
	defer kp.Wipe()
	return kp.Sign(nonce)
}

// hostileConn connects as the hostile worker through Connect, to take
// jobs from the workers' consumer.
func (k *keyedBroker) hostileConn(t *testing.T) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Connect(ctx, k.b.URL(), "", ConnectOptions{Name: "hostile", WorkerKey: k.hostileSeed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// takeJobs has the hostile worker take jobs from the workers' consumer
// until ctx ends, doing with each what do says; it returns the number of
// jobs taken when ctx ends.
func takeJobs(t *testing.T, ctx context.Context, c *Conn, do func(m jetstream.Msg)) func() int {
	t.Helper()
	cons, err := c.jobs.Consumer(ctx, WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	n := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for m := range batch.Messages() {
				n++
				do(m)
			}
		}
	}()
	return func() int { wg.Wait(); return n }
}

// flood publishes n messages of size bytes on subject through JetStream
// and returns how many the broker stored and refused, the first refusal,
// and the rate at which it answered (messages a second).
func flood(t *testing.T, js jetstream.JetStream, subject string, n, size int) (stored, refused int, first error, rate float64) {
	t.Helper()
	data := make([]byte, size)
	start := time.Now()
	futures := make([]jetstream.PubAckFuture, 0, n)
	wait := func() {
		select {
		case <-js.PublishAsyncComplete():
		case <-time.After(5 * time.Minute):
			t.Fatal("the broker did not answer the flood within 5 minutes")
		}
	}
	chunk := max(1, min(20_000, (64<<20)/max(size, 1)))
	for i := range n {
		if i%chunk == chunk-1 {
			wait() // the client holds at most so many answers pending, the broker so many bytes
		}
		f, err := js.PublishAsync(subject, data)
		if err != nil {
			t.Fatalf("publishing the flood: %v", err)
		}
		futures = append(futures, f)
	}
	wait()
	rate = float64(n) / time.Since(start).Seconds()
	for _, f := range futures {
		select {
		case <-f.Ok():
			stored++
		case err := <-f.Err():
			refused++
			if first == nil {
				first = err
			}
		}
	}
	return stored, refused, first, rate
}

// subjectMsgs returns the messages of s on subject.
func subjectMsgs(t *testing.T, ctx context.Context, s jetstream.Stream, subject string) uint64 {
	t.Helper()
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[subject]
}

// honestOnly fails t unless the hostile worker is the only one quarantined
// (wantHostile: it must be).
func (k *keyedBroker) honestOnly(t *testing.T, r *Runner, wantHostile bool) {
	t.Helper()
	q := r.Quarantined()
	if why, ok := q[k.honest]; ok {
		t.Errorf("the honest worker was quarantined: %s", why)
	}
	if _, ok := q[k.hostile]; ok != wantHostile {
		t.Errorf("hostile worker quarantined %v, want %v: %v", ok, wantHostile, q)
	}
	if len(q) > 1 {
		t.Errorf("quarantined: %v", q)
	}
}

func poolRecords(t *testing.T, specs []tournament.GameSpec) []tournament.Record {
	t.Helper()
	pool, err := tournament.NewPool(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	return collect(t, pool, specs)
}

// TestHostileWorkerFloods: the hostile worker floods results. On a run
// whose coordinator stopped (its stream stays, for a resume) the broker
// stores at most the run's quota of one worker and refuses the rest; on a
// run that does not exist it stores nothing; on the token's subject or the
// honest worker's it may not publish. Another run plays on meanwhile, and
// the flooded run, resumed under a flood that goes on, gives the pool's
// games with the flooder quarantined and the honest worker not.
func TestHostileWorkerFloods(t *testing.T) {
	floodRuns(t, 5_000, 1_000)
}

// TestHostileWorkerFloodsLong is TestHostileWorkerFloods with the flood of
// the issue that found it: 1,000,000 one-byte messages, the run's quota of
// one worker at its default (RunResultsPerWorker).
func TestHostileWorkerFloodsLong(t *testing.T) {
	long(t, "a flood of 1,000,000 messages")
	floodRuns(t, 1_000_000, 0)
	floodBytes(t)
}

// floodBytes floods a stopped run with results of 1 MiB, past the bytes of
// its stream: the broker refuses what does not fit, and the run resumed
// plays its games, the flood purged once read.
func floodBytes(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "heavy"})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	_, js, _ := k.hostileNATS(t)
	n := int(RunResultsMaxBytes/(MaxMessage-1024)) + 100
	stored, refused, first, rate := flood(t, js, keyedResultsSubject("heavy", k.hostile), n, MaxMessage-1024)
	t.Logf("a flood of %d results of 1 MiB on a stopped run: %d stored, %d refused (%v), %.0f messages/s answered", n, stored, refused, first, rate)
	if refused == 0 || !streamFull(first) {
		t.Errorf("%d stored, %d refused (%v): want the stream's bytes to refuse the rest", stored, refused, first)
	}
	keyed, err := c.JS.Stream(ctx, runResultsStream("heavy"))
	if err != nil {
		t.Fatal(err)
	}
	if info, err := keyed.Info(ctx); err != nil || info.State.Bytes > RunResultsMaxBytes {
		t.Errorf("the run's stream: %+v, %v", info.State, err)
	}
	resumed, err := NewRunner(ctx, c, RunnerOptions{Run: "heavy", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	specs := matchSpecs(t, 2)
	start := time.Now()
	if got := collect(t, resumed, specs); !reflect.DeepEqual(got, poolRecords(t, specs)) {
		t.Error("the games differ from the pool's")
	}
	k.honestOnly(t, resumed, true)
	t.Logf("resumed with its stream full: %d games in %v", len(specs), time.Since(start).Round(time.Millisecond))
}

func floodRuns(t *testing.T, n int, perWorker int64) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	quota := perWorker
	if quota == 0 {
		quota = RunResultsPerWorker
	}
	c := connect(t, k.b.URL(), ConnectOptions{})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "flooded", resultsPerWorker: perWorker})
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // stopped, to be resumed: its stream stays, read by nobody

	nc, js, violations := k.hostileNATS(t)
	stored, refused, first, rate := flood(t, js, keyedResultsSubject("flooded", k.hostile), n, 1)
	t.Logf("a flood of %d one-byte results on a stopped run: %d stored, %d refused (%v), %.0f messages/s answered", n, stored, refused, first, rate)
	if int64(stored) != quota || refused != n-int(quota) || first == nil || !strings.Contains(first.Error(), "maximum messages per subject") {
		t.Errorf("on the run's stream: %d stored, %d refused (%v); want %d stored", stored, refused, first, quota)
	}
	stored, refused, first, rate = flood(t, js, keyedResultsSubject("no-such-run", k.hostile), min(n, 10_000), 1)
	t.Logf("on a run that does not exist: %d stored, %d refused (%v), %.0f messages/s answered", stored, refused, first, rate)
	if stored != 0 || !errors.Is(first, jetstream.ErrNoStreamResponse) {
		t.Errorf("on a run that does not exist: %d stored (%v)", stored, first)
	}
	for _, subject := range []string{resultsPrefix + "flooded", keyedResultsSubject("flooded", k.honest)} {
		nc.Publish(subject, []byte("x"))
		nc.Flush()
		select {
		case err := <-violations:
			if !errors.Is(err, nats.ErrPermissionViolation) {
				t.Errorf("publishing on %s: %v", subject, err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("publishing on %s: no permissions violation", subject)
		}
	}
	keyed, err := c.JS.Stream(ctx, runResultsStream("flooded"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := keyed.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != uint64(quota) || subjectMsgs(t, ctx, keyed, keyedResultsSubject("flooded", k.honest)) != 0 || subjectMsgs(t, ctx, c.results, resultsPrefix+"flooded") != 0 {
		t.Errorf("the flooded run's results: %d messages, want the %d of the flood", info.State.Msgs, quota)
	}
	for name := range c.JS.StreamNames(ctx).Name() {
		if strings.Contains(name, "no-such-run") {
			t.Errorf("a stream %s for a run that does not exist", name)
		}
	}

	// Another run plays on.
	specs := matchSpecs(t, 2)
	want := poolRecords(t, specs)
	other, err := NewRunner(ctx, c, RunnerOptions{Run: "other", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, other, specs); !reflect.DeepEqual(got, want) {
		t.Error("another run beside the flooded one: its games differ from the pool's")
	}
	k.honestOnly(t, other, false)
	other.Close()

	// The flooded run resumed, under a flood that goes on.
	var log syncBuffer
	resumed, err := NewRunner(ctx, c, RunnerOptions{Run: "flooded", resultsPerWorker: perWorker, Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	fctx, stop := context.WithCancel(ctx)
	var most uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		subject := keyedResultsSubject("flooded", k.hostile)
		for i := 0; fctx.Err() == nil && i < n; i++ {
			nc.Publish(subject, []byte("x"))
			if i%1000 == 999 {
				nc.Flush()
				if m := subjectMsgs(t, ctx, keyed, subject); m > most {
					most = m
				}
			}
		}
	}()
	start := time.Now()
	got := collect(t, resumed, specs)
	took := time.Since(start)
	stop()
	wg.Wait()
	if !reflect.DeepEqual(got, want) {
		t.Error("the flooded run's games differ from the pool's")
	}
	k.honestOnly(t, resumed, true)
	if most > uint64(quota) {
		t.Errorf("%d results of the flooder waiting, above its quota %d", most, quota)
	}
	if info, err := keyed.Info(ctx); err != nil || info.State.Msgs > RunResultsMaxMsgs || info.State.Bytes > RunResultsMaxBytes {
		t.Errorf("the run's stream: %+v, %v", info.State, err)
	}
	t.Logf("resumed under the flood: %d games in %v, at most %d of the flooder's results waiting; games by worker %v", len(specs), took.Round(time.Millisecond), most, resumed.GamesByWorker())
}

// TestHostileWorkerWritesToRunsItHoldsNoJobOf: the hostile worker, which
// holds no job, publishes for a run whose jobs it can compute (a match's
// are public): a failure, a refusal and a made-up game for every job, with
// a ticket it made up, then more than its quota of such results; and
// results for a run that does not exist. None is taken: the run gives the
// pool's games, no game is played again here, and past its quota the
// writer is quarantined.
func TestHostileWorkerWritesToRunsItHoldsNoJobOf(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "target", Audit: -1, Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs := matchSpecs(t, 2)
	want := poolRecords(t, specs)

	_, js, _ := k.hostileNATS(t)
	publish := func(run string, res Result) error {
		data, _ := jsonMarshal(res)
		m := &nats.Msg{Subject: keyedResultsSubject(run, k.hostile), Data: data, Header: nats.Header{}}
		m.Header.Set(TicketHeader, "0123456789abcdef0123456789abcdef")
		_, err := js.PublishMsg(ctx, m, jetstream.WithRetryAttempts(0))
		return err
	}
	for _, s := range specs {
		job, err := NewJob(s, 2)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := openingPosition(s)
		for _, res := range []Result{
			{V: WireVersion, Key: job.Key, Worker: k.honest, Error: "out of memory"},
			{V: WireVersion, Key: job.Key, Worker: k.honest, Error: "beyond my limits", Refused: true},
			{V: WireVersion, Key: job.Key, Worker: k.honest, Outcome: int(games.Draw), Reason: string(tournament.ByPlyCap), Opening: p.String()},
		} {
			if err := publish("target", res); err != nil {
				t.Fatal(err)
			}
			if err := publish("no-such-run", res); !errors.Is(err, jetstream.ErrNoStreamResponse) {
				t.Errorf("a result for a run that does not exist: %v", err)
			}
		}
	}
	if got := collect(t, r, specs); !reflect.DeepEqual(got, want) {
		t.Error("the games differ from the pool's")
	}
	if r.PlayedHere() != 0 {
		t.Errorf("%d games played again here for the results of a worker that held none of their jobs", r.PlayedHere())
	}
	k.honestOnly(t, r, false)
	if !strings.Contains(log.String(), "never handed") {
		t.Errorf("the log:\n%s", log.String())
	}
	if r.GamesByWorker()[k.honest] != len(specs) {
		t.Errorf("games by worker %v, want the honest worker's %d", r.GamesByWorker(), len(specs))
	}

	// Past its quota of results that serve nothing, it is quarantined.
	for range wastedQuota {
		if err := publish("target", Result{V: WireVersion, Key: "made-up", Error: "out of memory"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := collect(t, r, specs[:1]); !reflect.DeepEqual(got, want[:1]) {
		t.Error("a second batch differs")
	}
	k.honestOnly(t, r, true)
	if why := r.Quarantined()[k.hostile]; !strings.Contains(why, "served nothing") {
		t.Errorf("the hostile worker quarantined for %q", why)
	}
}

// TestHostileWorkerNamesAnother: the hostile worker takes jobs and answers
// them with made-up games that name the honest worker in the message; it
// may not publish under the honest worker's key nor on the token's
// subject. It is the one quarantined, by its key, and the run gives the
// pool's games.
func TestHostileWorkerNamesAnother(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "named", Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs := matchSpecs(t, 2)
	want := poolRecords(t, specs)

	hc := k.hostileConn(t)
	nc, _, violations := k.hostileNATS(t)
	forge := forger(k.honest)
	hctx, stop := context.WithCancel(ctx)
	taken := takeJobs(t, hctx, hc, func(m jetstream.Msg) {
		job, spec, err := DecodeJob(m.Data())
		if err != nil {
			_ = m.Term()
			return
		}
		data, _ := jsonMarshal(forge(job, spec))
		for _, subject := range []string{keyedResultsSubject("named", k.honest), resultsPrefix + "named", keyedResultsSubject("named", k.hostile)} {
			msg := &nats.Msg{Subject: subject, Data: data, Header: m.Headers()}
			nc.PublishMsg(msg)
		}
		nc.Flush()
		_ = m.Ack()
	})
	got := collect(t, r, specs)
	stop()
	n := taken()
	if !reflect.DeepEqual(got, want) {
		t.Error("the games differ from the pool's")
	}
	if n == 0 {
		t.Fatal("the hostile worker took no job")
	}
	k.honestOnly(t, r, true)
	select {
	case err := <-violations:
		if !errors.Is(err, nats.ErrPermissionViolation) {
			t.Errorf("publishing under another name: %v", err)
		}
	default:
		t.Error("publishing under another name: no permissions violation")
	}
	t.Logf("%d jobs taken by the hostile worker; quarantined %v; games by worker %v", n, r.Quarantined(), r.GamesByWorker())
}

// TestHostileWorkerAcksWithoutResults: the hostile worker takes jobs of a
// 10-pair match and acknowledges, terminates or hands back each without a
// result. The coordinator finds the jobs that left the queue, publishes
// them again (or plays them here), and the match gives the pool's games;
// a job handed out max_deliver times without a refusal does not stop it.
func TestHostileWorkerAcksWithoutResults(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{MaxDeliver: 3})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "dropped", Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs := matchSpecs(t, 10)
	want := poolRecords(t, specs)

	hctx, stop := context.WithCancel(ctx)
	i := 0
	taken := takeJobs(t, hctx, k.hostileConn(t), func(m jetstream.Msg) {
		switch i++; i % 3 {
		case 0:
			_ = m.Ack()
		case 1:
			_ = m.Term()
		default:
			_ = m.Nak()
		}
	})
	start := time.Now()
	got := collect(t, r, specs)
	took := time.Since(start)
	stop()
	n := taken()
	if !reflect.DeepEqual(got, want) {
		t.Error("the games differ from the pool's")
	}
	k.honestOnly(t, r, false)
	if n == 0 || !strings.Contains(log.String(), "left the queue without a result") {
		t.Errorf("%d jobs taken by the hostile worker; log:\n%s", n, log.String())
	}
	t.Logf("%d jobs taken and dropped by the hostile worker; the match took %v; %d games played here; games by worker %v",
		n, took.Round(time.Millisecond), r.PlayedHere(), r.GamesByWorker())
}

// TestHostileWorkerRefusesEverything: the hostile worker takes jobs and
// refuses each, with the job's ticket, handing it back at once, so that
// jobs run out of deliveries. A refusal of a worker with a key does not
// fail a job: the job is published again and, refused still, played here;
// the match gives the pool's games.
func TestHostileWorkerRefusesEverything(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{MaxDeliver: 2})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "refused", Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs := matchSpecs(t, 3)
	want := poolRecords(t, specs)

	hc := k.hostileConn(t)
	nc, _, _ := k.hostileNATS(t)
	hctx, stop := context.WithCancel(ctx)
	taken := takeJobs(t, hctx, hc, func(m jetstream.Msg) {
		job, _, _ := DecodeJob(m.Data())
		data, _ := jsonMarshal(Result{V: WireVersion, Key: job.Key, Worker: k.hostile, Error: "cluster: job refused: beyond this worker's limits: depth 2 (--max-depth 1)", Refused: true})
		nc.PublishMsg(&nats.Msg{Subject: keyedResultsSubject("refused", k.hostile), Data: data, Header: m.Headers()})
		nc.Flush()
		_ = m.Nak()
	})
	got := collect(t, r, specs)
	stop()
	n := taken()
	if !reflect.DeepEqual(got, want) {
		t.Error("the games differ from the pool's")
	}
	k.honestOnly(t, r, false)
	t.Logf("%d jobs taken and refused by the hostile worker; %d games played here; games by worker %v", n, r.PlayedHere(), r.GamesByWorker())
}

// TestKeyWorkersRefusalFailsAJobBeyondTheDefaults: a job beyond a
// worker's default limits, refused by the only worker, one with a key, is
// published again and then fails its run, naming the refusal.
func TestKeyWorkersRefusalFailsAJobBeyondTheDefaults(t *testing.T) {
	k := startKeyedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, k.b.URL(), ConnectOptions{MaxDeliver: 1})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "beyond", Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spec := matchSpecs(t, 1)[0]
	spec.First.Limits = engine.Limits{Depth: 64}
	spec.Second.Limits = engine.Limits{Depth: 64}
	err = r.Run(ctx, []tournament.GameSpec{spec}, func(int, tournament.Record) error { return nil })
	var fe *JobFailedError
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) || !strings.Contains(fe.Reason, k.honest+": cluster: job refused: beyond this worker's limits: depth 64") {
		t.Fatalf("got %v", err)
	}
	if n := strings.Count(log.String(), "by workers with keys only"); n != requeueHere-1 || r.PlayedHere() != 0 {
		t.Errorf("published again %d times, %d played here; log:\n%s", n, r.PlayedHere(), log.String())
	}
}

// TestHostileOnDebianNATSServer: the bounds the streams set hold on
// Debian's nats-server (2.9), where installed: a flood of one worker's
// results on a stopped run is stored up to the run's quota, on a run that
// does not exist not at all, and jobs taken and dropped without results
// are handed out again. The server's configuration cannot hold both a
// token and workers' keys, so the flooder and the dropper here hold the
// token, publishing where a worker with a key would.
func TestHostileOnDebianNATSServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a broker as a process")
	}
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server is not installed")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "-a", "127.0.0.1", "-p", port, "--auth", testToken, "-js", "-sd", t.TempDir())
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	url := "nats://127.0.0.1:" + port
	var c *Conn
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err = Connect(ctx, url, testToken, ConnectOptions{MaxDeliver: 3}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server did not start: %v", err)
		}
	}
	t.Cleanup(c.Close)
	pub, err := NewWorkerKey(filepath.Join(t.TempDir(), "flooder.nk"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "flooded", resultsPerWorker: 500})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	js, _ := jetstream.New(c.NC)
	if stored, refused, first, _ := flood(t, js, keyedResultsSubject("flooded", pub), 2000, 1); stored != 500 || refused != 1500 {
		t.Errorf("a flood on a stopped run: %d stored, %d refused (%v); want 500 stored", stored, refused, first)
	}
	if stored, _, first, _ := flood(t, js, keyedResultsSubject("no-such-run", pub), 200, 1); stored != 0 {
		t.Errorf("a flood on a run that does not exist: %d stored (%v)", stored, first)
	}

	// The honest worker starts once the dropper has dropped a job.
	honest, err := NewWorker(ctx, connect(t, url, ConnectOptions{}), WorkerOptions{Name: "honest"})
	if err != nil {
		t.Fatal(err)
	}
	hctx, stop := context.WithCancel(ctx)
	dropped, honestDone := make(chan struct{}), make(chan struct{})
	var once sync.Once
	taken := takeJobs(t, hctx, connect(t, url, ConnectOptions{}), func(m jetstream.Msg) {
		_ = m.Ack()
		once.Do(func() { close(dropped) })
	})
	go func() {
		defer close(honestDone)
		select {
		case <-dropped:
			honest.Run(hctx)
		case <-hctx.Done():
		}
	}()
	var log syncBuffer // read when the games do not come (they waited for ever behind a purge: TestAllReadAfterAPurge)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the coordinator's log:\n%s", log.String())
		}
	})
	resumed, err := NewRunner(ctx, c, RunnerOptions{Run: "flooded", resultsPerWorker: 500, Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	specs := matchSpecs(t, 2)
	got := collectWithin(t, resumed, specs, 4*time.Minute)
	stop()
	n := taken()
	<-honestDone
	if n == 0 {
		t.Error("the dropper took no job")
	}
	if !reflect.DeepEqual(got, poolRecords(t, specs)) {
		t.Error("the games differ from the pool's")
	}
	q := resumed.Quarantined()
	if _, ok := q["honest"]; ok || len(q) != 1 || q[pub] == "" {
		t.Errorf("quarantined %v: want the flooder alone", q)
	}
	t.Logf("%d jobs dropped; games by worker %v", n, resumed.GamesByWorker())
}

// TestStaleRunStreamsRemoved: the stream of a run that ended is removed
// by a later coordinator once stale; one that holds results, or that a
// coordinator reads, stays.
func TestStaleRunStreamsRemoved(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	for _, run := range []string{"ended", "holding", "read"} {
		r, err := NewRunner(ctx, c, RunnerOptions{Run: run})
		if err != nil {
			t.Fatal(err)
		}
		if run == "read" {
			defer r.Close()
			continue
		}
		r.Close()
	}
	if _, err := c.JS.Publish(ctx, keyedResultsSubject("holding", "UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	removeStaleRunStreams(ctx, c.JS, 0)
	var names []string
	for name := range c.JS.StreamNames(ctx).Name() {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{JobsStream, ResultsStream, runResultsStream("holding"), runResultsStream("read")}; !slices.Equal(names, want) {
		t.Errorf("streams %v, want %v", names, want)
	}
}

// TestWorkerWaitsOutAFullStream: a worker whose result a full stream
// refuses keeps its job and tries again, rather than hand the job back
// (which would spend its deliveries): once there is room, the result is
// stored, and no job is published again or played here.
func TestWorkerWaitsOutAFullStream(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{MaxDeliver: 2})
	var log syncBuffer
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "waits", Audit: -1, Ephemeral: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Room for the match's two results (held until both are in), taken.
	cfg := c.results.CachedInfo().Config
	cfg.MaxMsgs = 2
	if _, err := c.JS.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.JS.Publish(ctx, resultsPrefix+"another-run", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.JS.Publish(ctx, resultsPrefix+"another-run", []byte("x"))
	if !streamFull(err) {
		t.Fatalf("a full stream: %v", err)
	}
	if _, err := c.JS.Publish(ctx, resultsPrefix+"no-such-run.nobody", []byte("x"), jetstream.WithRetryAttempts(0)); err == nil || streamFull(err) {
		t.Fatalf("no stream: %v", err)
	}
	var wlog syncBuffer
	runWorker(t, b.URL(), WorkerOptions{Name: "patient", Log: &wlog})
	go func() {
		for ctx.Err() == nil && !strings.Contains(wlog.String(), "maximum messages") {
			time.Sleep(50 * time.Millisecond)
		}
		sleep(ctx, 2*time.Second) // the worker tries again meanwhile
		c.results.Purge(ctx, jetstream.WithPurgeSubject(resultsPrefix+"another-run"))
	}()
	specs := matchSpecs(t, 1)
	if got := collect(t, r, specs); !reflect.DeepEqual(got, poolRecords(t, specs)) {
		t.Error("the games differ from the pool's")
	}
	if r.PlayedHere() != 0 || strings.Contains(log.String(), "left the queue") || r.GamesByWorker()["patient"] != len(specs) {
		t.Errorf("%d played here, by worker %v; log:\n%s", r.PlayedHere(), r.GamesByWorker(), log.String())
	}
	if n := strings.Count(wlog.String(), "trying again"); n == 0 {
		t.Errorf("the worker's log:\n%s", wlog.String())
	}
}
