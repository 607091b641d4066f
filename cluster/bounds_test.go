package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/tournament"
	"github.com/nats-io/nats.go/jetstream"
)

// runWorker runs a worker with default limits on its own connection until
// the test ends.
func runWorker(t *testing.T, url string, o WorkerOptions) *Worker {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := NewWorker(ctx, connect(t, url, ConnectOptions{}), o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return w
}

// TestWorkerRefusesJobsBeyondItsLimits: the job that held a worker for
// ever (depth 64, a table of 1024 MiB, 100,000 plies) is refused by a
// worker with the default limits before it allocates anything, and the
// run fails after max_deliver refusals, naming every limit.
func TestWorkerRefusesJobsBeyondItsLimits(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 2})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "huge", TableMiB: 1024, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var log syncBuffer
	w := runWorker(t, b.URL(), WorkerOptions{Workers: 1, Name: "default", Log: &log})

	spec := matchSpecs(t, 1)[0]
	spec.First.Limits = engine.Limits{Depth: 64}
	spec.Second.Limits = engine.Limits{Depth: 64}
	spec.MaxPlies = 100_000
	start := time.Now()
	err = r.Run(ctx, []tournament.GameSpec{spec}, func(int, tournament.Record) error { return nil })
	took := time.Since(start)
	var fe *JobFailedError
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) {
		t.Fatalf("the huge job: got %v after %v, want a failed job", err, took)
	}
	for _, want := range []string{"default: cluster: job refused: beyond this worker's limits", "depth 64 (--max-depth 20)",
		"table_mib 1024 (--max-hash 256)", "max_plies 100000 (--max-plies 1000)"} {
		if !strings.Contains(fe.Reason, want) {
			t.Errorf("the reason %q does not say %q", fe.Reason, want)
		}
	}
	if w.Played() != 0 || strings.Count(log.String(), "beyond this worker's limits") != 2 {
		t.Errorf("played %d; log:\n%s", w.Played(), log.String())
	}
	t.Logf("refused twice, the run failed after %v", took.Round(time.Millisecond))
}

// TestWorkerLimits: limits a worker is given are checked, and bound it.
func TestWorkerLimits(t *testing.T) {
	job, _ := NewJob(matchSpecs(t, 1)[0], 2) // depth 2, the default 400 plies
	for _, c := range []struct {
		l    JobLimits
		want string
	}{
		{JobLimits{}, ""},
		{JobLimits{Depth: 2, TableMiB: 2, Plies: 400}, ""},
		{JobLimits{Depth: 1}, "depth 2 (--max-depth 1)"},
		{JobLimits{TableMiB: 1}, "table_mib 2 (--max-hash 1)"},
		{JobLimits{Plies: 399}, "max_plies 400 (--max-plies 399)"},
	} {
		err := c.l.allow(job)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrBeyondLimits) || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.l, err, c.want)
		}
	}
	for _, l := range []JobLimits{{Depth: -1}, {TableMiB: maxTableMiB + 1}, {Plies: maxPlies + 1}} {
		if err := l.Check(); err == nil {
			t.Errorf("%+v accepted", l)
		}
	}
}

// TestJobPastItsDeadline: a game that outlasts its job's deadline is
// given up by the worker and goes back to the queue; after max_deliver
// attempts the run fails, saying why.
func TestJobPastItsDeadline(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 2})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "slow", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var log syncBuffer
	w := runWorker(t, b.URL(), WorkerOptions{Workers: 1, Name: "w", Log: &log})

	spec := matchSpecs(t, 1)[0]
	spec.First.Limits = engine.Limits{Depth: 14} // seconds a move
	spec.Second.Limits = engine.Limits{Depth: 14}
	job, err := NewJob(spec, 2)
	if err != nil {
		t.Fatal(err)
	}
	if job.DeadlineMS != DefaultJobDeadline.Milliseconds() {
		t.Errorf("a new job's deadline: %d ms", job.DeadlineMS)
	}
	job.DeadlineMS = 200
	data, _ := job.Encode()
	if _, err := c.JS.Publish(ctx, jobsPrefix+"slow", data); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	jobs := map[string]*jobState{job.Key: {key: job.Key, job: data, spec: spec}}
	err = r.newBatch(ctx, jobs, map[string][]int{job.Key: {0}}, 1).run(func(int, tournament.Record) error { return nil })
	var fe *JobFailedError
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) || !strings.Contains(fe.Reason, "past its deadline of 200ms") {
		t.Fatalf("a job past its deadline: %v", err)
	}
	if n := strings.Count(log.String(), "past its deadline"); n != 2 || w.Played() != 0 {
		t.Errorf("%d attempts given up (want 2, one per delivery), %d played; log:\n%s", n, w.Played(), log.String())
	}
	t.Logf("given up twice, failed after %v", time.Since(start).Round(time.Millisecond))
}

// TestRunConsumersRemoved: a run's consumer of results is gone once its
// runner closes, ephemeral or not, and one left by a coordinator that died
// goes after RunConsumerInactive.
func TestRunConsumersRemoved(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	for _, ephemeral := range []bool{false, true} {
		r, err := NewRunner(ctx, c, RunnerOptions{Run: "kept", Workers: 1, Ephemeral: ephemeral})
		if err != nil {
			t.Fatal(err)
		}
		collect(t, r, matchSpecs(t, 1))
		info, err := c.results.Consumer(ctx, "run-kept")
		if err != nil {
			t.Fatal(err)
		}
		if got := info.CachedInfo().Config.InactiveThreshold; got != RunConsumerInactive {
			t.Errorf("inactive threshold %v, want %v", got, RunConsumerInactive)
		}
		r.Close()
		var names []string
		for name := range c.results.ConsumerNames(ctx).Name() {
			names = append(names, name)
		}
		if len(names) != 0 {
			t.Errorf("ephemeral %v: consumers %v left after the run", ephemeral, names)
		}
	}
}

// TestStreamLimits: the streams have limits, and streams an older version
// made without them get them.
func TestStreamLimits(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	check := func(when string) {
		t.Helper()
		for _, s := range []jetstream.Stream{c.jobs, c.results} {
			info, err := s.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			cfg := info.Config
			if cfg.MaxBytes != StreamMaxBytes || cfg.MaxMsgs != StreamMaxMsgs || cfg.MaxAge != StreamMaxAge || cfg.Discard != jetstream.DiscardNew {
				t.Errorf("%s: stream %s: max bytes %d, msgs %d, age %v, discard %v", when, cfg.Name, cfg.MaxBytes, cfg.MaxMsgs, cfg.MaxAge, cfg.Discard)
			}
		}
	}
	check("new")
	cfg := c.jobs.CachedInfo().Config
	cfg.MaxBytes, cfg.MaxMsgs, cfg.MaxAge = -1, -1, 0
	if _, err := c.JS.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	c = connect(t, b.URL(), ConnectOptions{})
	check("an old stream")
}
