package cluster

import (
	"context"
	"errors"
	"fmt"
	"github.com/nats-io/nats.go"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/games/tictactoe"
	"github.com/gametune/gametune/tournament"
)

const testToken = "s3cret-token"

// startBroker starts an embedded broker on a free loopback port.
func startBroker(t *testing.T) *Broker {
	t.Helper()
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func connect(t *testing.T, url string, o ConnectOptions) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Connect(ctx, url, testToken, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// matchSpecs is a short Othello match at depth 2 from balanced openings.
func matchSpecs(t *testing.T, pairs int) []tournament.GameSpec {
	t.Helper()
	g := othello.Game()
	ev := g.Evaluators()[0]
	a := tournament.Player{Name: "a", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 2}}
	w := ev.Defaults()
	for i := range w {
		w[i] = ev.Features[i].Min
	}
	b := tournament.Player{Name: "b", Evaluator: ev, Weights: w, Limits: engine.Limits{Depth: 2}}
	ops, err := tournament.RandomOpenings(context.Background(), g, "random:6", 3)
	if err != nil {
		t.Fatal(err)
	}
	return tournament.MatchSpecs(g, a, b, pairs, ops, 0, tournament.Adjudication{})
}

func collect(t *testing.T, run tournament.Runner, specs []tournament.GameSpec) []tournament.Record {
	t.Helper()
	return collectWithin(t, run, specs, 60*time.Second)
}

// collectWithin is collect with a deadline of its own, for a broker that
// a busy machine may slow down far more than the embedded one (a
// nats-server process storing to disk beside CI's builds).
func collectWithin(t *testing.T, run tournament.Runner, specs []tournament.GameSpec, within time.Duration) []tournament.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var out []tournament.Record
	err := run.Run(ctx, specs, func(i int, r tournament.Record) error {
		if i != len(out) {
			t.Fatalf("game %d handed over after %d games", i, len(out))
		}
		r.Duration, r.Evals = 0, nil // the machine's; move comments stay where the game was played
		out = append(out, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunnerGivesThePoolsRecords: games played by workers through the
// broker are the games the local pool plays, in the same order, whether
// the coordinator plays some itself or none.
func TestRunnerGivesThePoolsRecords(t *testing.T) {
	b := startBroker(t)
	specs := matchSpecs(t, 4)
	pool, err := tournament.NewPool(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := collect(t, pool, specs)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wc := connect(t, b.URL(), ConnectOptions{Name: "w"})
	w, err := NewWorker(ctx, wc, WorkerOptions{Workers: 2, Name: "remote"})
	if err != nil {
		t.Fatal(err)
	}
	wdone := make(chan error, 1)
	go func() { wdone <- w.Run(ctx) }()

	for _, local := range []int{0, 1} {
		c := connect(t, b.URL(), ConnectOptions{Name: "coordinator"})
		r, err := NewRunner(ctx, c, RunnerOptions{Run: "test-" + string(rune('a'+local)), Workers: local, Name: "local", Ephemeral: true})
		if err != nil {
			t.Fatal(err)
		}
		got := collect(t, r, specs)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("local workers %d: the cluster's records differ from the pool's", local)
		}
		// The same batch again: every result comes back once more.
		if got := collect(t, r, specs[:3]); !reflect.DeepEqual(got, want[:3]) {
			t.Errorf("local workers %d: a second batch differs", local)
		}
		byWorker := r.GamesByWorker()
		if byWorker["remote"] == 0 {
			t.Errorf("local workers %d: the remote worker played nothing: %v", local, byWorker)
		}
		if local == 0 && byWorker["local"] != 0 {
			t.Errorf("no local workers, but %v", byWorker)
		}
		want := fmt.Sprintf("games by worker: remote %d\n", byWorker["remote"])
		if local == 1 && byWorker["local"] > 0 {
			want = fmt.Sprintf("games by worker: local %d remote %d\n", byWorker["local"], byWorker["remote"])
		}
		var line strings.Builder
		if r.WriteGamesByWorker(&line); line.String() != want {
			t.Errorf("local workers %d: %q, want %q", local, line.String(), want)
		}
		r.Close()
	}
	cancel()
	if err := <-wdone; err != nil {
		t.Fatal(err)
	}
}

// TestWrongToken: a refused token says so.
func TestWrongToken(t *testing.T) {
	b := startBroker(t)
	_, err := Connect(context.Background(), b.URL(), "wrong", ConnectOptions{})
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("wrong token: got %v, want ErrUnauthorized", err)
	}
	_, err = Connect(context.Background(), "nats://127.0.0.1:1", testToken, ConnectOptions{})
	if err == nil || !strings.Contains(err.Error(), "cannot reach the broker") {
		t.Fatalf("unreachable broker: got %v", err)
	}
	// A client without credentials gets nowhere: no anonymous access, so
	// it can neither publish a result nor read a job.
	if nc, err := nats.Connect(b.URL(), nats.NoReconnect(), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client without a token was let in")
	}
	_, err = Connect(context.Background(), b.URL(), "", ConnectOptions{})
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("an empty token: got %v, want ErrUnauthorized", err)
	}
}

// TestBadJobsAreReported: a job a worker refuses (a game it does not know)
// is reported after max_deliver deliveries; a job that fails its checks is
// reported at once. The worker goes on playing.
func TestBadJobsAreReported(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 2})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "bad", Workers: 1, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	specs := matchSpecs(t, 1)
	bad := specs[0]
	bad.First.Limits = engine.Limits{} // no limit: refused as bad
	var fe *JobFailedError
	err = r.Run(ctx, []tournament.GameSpec{specs[1], bad}, func(int, tournament.Record) error { return nil })
	if !errors.As(err, &fe) || fe.Index != 1 || !strings.Contains(fe.Reason, "needs a depth or a node limit") || errors.Is(err, ErrMaxDeliver) {
		t.Fatalf("a bad job: got %v", err)
	}

	// A game this worker does not know, published by hand.
	job, err := NewJob(specs[0], 2)
	if err != nil {
		t.Fatal(err)
	}
	job.Game = "go"
	data, _ := job.Encode()
	if _, err := c.JS.Publish(ctx, jobsPrefix+"bad", data); err != nil {
		t.Fatal(err)
	}
	// The runner knows the key through a spec of the same key: play that
	// spec in a batch whose only job is the refused one.
	start := time.Now()
	jobs := map[string]*jobState{job.Key: {key: job.Key, job: data, spec: specs[0]}}
	err = r.newBatch(ctx, jobs, map[string][]int{job.Key: {0}}, 1).run(func(int, tournament.Record) error { return nil })
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) || !strings.Contains(fe.Reason, "unknown game") {
		t.Fatalf("a refused job: got %v", err)
	}
	t.Logf("refused job reported after %v", time.Since(start).Round(time.Millisecond))

	// The worker still plays.
	if got := collect(t, r, specs[:1]); len(got) != 1 {
		t.Fatal("no game after the bad jobs")
	}
}

// TestDial: a runner Dial made with a broker of its own plays games, and
// closes the broker with itself; a Dial that fails closes it at once.
func TestDial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := func() *Broker {
		b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := start()
	r, err := Dial(ctx, DialOptions{Token: testToken, Broker: b, Runner: RunnerOptions{Run: "dial", Workers: 1, Ephemeral: true}})
	if err != nil {
		b.Close()
		t.Fatal(err)
	}
	if got := collect(t, r, matchSpecs(t, 1)); len(got) != 2 {
		t.Fatalf("%d games", len(got))
	}
	url := b.URL()
	r.Close()
	if _, err := nats.Connect(url, nats.Token(testToken), nats.MaxReconnects(0)); err == nil {
		t.Error("the broker still listens after the runner closed")
	}
	b = start()
	url = b.URL()
	if _, err := Dial(ctx, DialOptions{Token: "wrong", Broker: b, Runner: RunnerOptions{Run: "dial"}}); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("a wrong token: got %v", err)
	}
	if _, err := nats.Connect(url, nats.Token(testToken), nats.MaxReconnects(0)); err == nil {
		t.Error("the broker still listens after Dial failed")
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want, err string }{
		{"abc\n", "abc", ""},
		{"  \n", "", "one token"},
		{"a b", "", "one token"},
	} {
		p := filepath.Join(dir, "tok")
		os.WriteFile(p, []byte(tc.content), 0o600)
		got, err := ReadToken(p)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ReadToken(%q) = %q, %v", tc.content, got, err)
		}
	}
	if _, err := ReadToken(""); err == nil {
		t.Error("no token file accepted")
	}
}

// TestMessagingOverhead measures the time a game spends in messages: one
// worker plays tic-tac-toe games at depth 1, which take microseconds, so
// the time per game is the broker's round trips (publish the job, fetch
// it, publish the result, acknowledge it, consume the result).
func TestMessagingOverhead(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "overhead", Workers: 1, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := tictactoe.Game()
	ev := g.Evaluators()[0]
	p := tournament.Player{Name: "p", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	specs := make([]tournament.GameSpec, 200)
	for i := range specs {
		specs[i] = tournament.GameSpec{Game: g, First: p, Second: p, Seed: uint64(i)}
	}
	pool, _ := tournament.NewPool(1, 2)
	startLocal := time.Now()
	collect(t, pool, specs)
	local := time.Since(startLocal)
	start := time.Now()
	collect(t, r, specs)
	remote := time.Since(start)
	t.Logf("%d games of %v each: %.2f ms of messaging per game, one worker", len(specs),
		(local / time.Duration(len(specs))).Round(time.Microsecond), float64((remote-local).Microseconds())/1000/float64(len(specs)))
}
