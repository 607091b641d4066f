package cluster

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/tictactoe"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/nats-io/nats.go/jetstream"
)

// recorder is a tournament.Runner that keeps every record its runner hands
// over, in order, without their durations.
type recorder struct {
	tournament.Runner
	mu   sync.Mutex
	recs []tournament.Record
}

func (r *recorder) Run(ctx context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	return r.Runner.Run(ctx, specs, func(i int, rec tournament.Record) error {
		rec.Duration = 0
		r.mu.Lock()
		r.recs = append(r.recs, rec)
		r.mu.Unlock()
		return done(i, rec)
	})
}

// tuningRun is what a tuning run gave: every game handed over, the
// generations recorded and the best.
type tuningRun struct {
	games       []tournament.Record
	generations []population.Generation
	best        population.Genome
}

// tune runs a small genetic tuning of tic-tac-toe at depth 2 on run.
func tune(t *testing.T, run tournament.Runner) tuningRun {
	t.Helper()
	cfg := population.Defaults()
	cfg.Game, cfg.Depth, cfg.Openings, cfg.Seed = "tictactoe", 2, "", 7
	cfg.Population, cfg.Generations, cfg.Games, cfg.YardstickPairs, cfg.LadderPairs = 8, 3, 3, 2, -1
	store := population.NewMemoryStore()
	rec := &recorder{Runner: run}
	tu, err := population.NewTuner(cfg, tictactoe.Game(), nil, nil, rec, store)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := tu.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tuningRun{games: rec.recs, generations: store.Generations, best: res.Best}
}

// honestTuning is the tuning run played on the local pool.
func honestTuning(t *testing.T) tuningRun {
	t.Helper()
	pool, err := tournament.NewPool(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	return tune(t, pool)
}

func sameTuning(t *testing.T, got, want tuningRun) {
	t.Helper()
	if len(got.games) != len(want.games) {
		t.Fatalf("%d games handed over, the honest run has %d", len(got.games), len(want.games))
	}
	for i := range got.games {
		if !reflect.DeepEqual(got.games[i], want.games[i]) {
			t.Fatalf("game %d: %+v, the honest run's is %+v", i, got.games[i], want.games[i])
		}
	}
	if !reflect.DeepEqual(got.generations, want.generations) {
		t.Errorf("generations differ from the honest run's:\n%+v\n%+v", got.generations, want.generations)
	}
	if !reflect.DeepEqual(got.best, want.best) {
		t.Errorf("best %+v, the honest run's %+v", got.best, want.best)
	}
}

// rogue is a worker that answers jobs with results it makes up: answer
// gets the job's message as decoded and returns the result to publish.
func rogue(t *testing.T, ctx context.Context, c *Conn, answer func(job Job, spec tournament.GameSpec) Result) *sync.WaitGroup {
	t.Helper()
	cons, err := c.jobs.Consumer(ctx, WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for m := range batch.Messages() {
				job, spec, err := DecodeJob(m.Data())
				subject, ok := resultsSubject(m.Subject())
				if err != nil || !ok {
					_ = m.Term()
					continue
				}
				data, _ := jsonMarshal(answer(job, spec))
				if _, err := c.JS.Publish(ctx, subject, data); err == nil {
					_ = m.Ack()
				}
			}
		}
	}()
	return &wg
}

// forger answers its first job with the tester's record (one move, a
// script) and the others alternately with the same and with a made-up game
// that the rules allow: random legal moves to the end.
func forger(name string) func(Job, tournament.GameSpec) Result {
	var mu sync.Mutex
	n := 0
	return func(job Job, spec tournament.GameSpec) Result {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		p, _ := openingPosition(spec)
		res := Result{V: WireVersion, Key: job.Key, Worker: name, Outcome: int(games.FirstWins), Reason: string(tournament.ByRule),
			Opening: p.String(), Moves: []string{"<script>alert(1)</script>"}, Plies: 1}
		if k%2 == 1 {
			return res
		}
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		res.Moves = nil
		for {
			moves, outcome := p.Moves(nil)
			if outcome != games.Ongoing {
				res.Outcome = int(outcome)
				break
			}
			m := moves[rng.IntN(len(moves))]
			res.Moves = append(res.Moves, p.FormatMove(m))
			p.Play(m)
		}
		res.Plies = len(res.Moves)
		return res
	}
}

// weakened plays its jobs one ply shallower than they ask: legal games, but
// not the job's.
func weakened(name string) func(Job, tournament.GameSpec) Result {
	s, err := tournament.NewSearchers(2)
	var mu sync.Mutex
	return func(job Job, spec tournament.GameSpec) Result {
		if err != nil {
			return Result{V: WireVersion, Key: job.Key, Worker: name, Error: err.Error()}
		}
		spec.First.Limits.Depth = max(1, spec.First.Limits.Depth-1)
		spec.Second.Limits.Depth = max(1, spec.Second.Limits.Depth-1)
		mu.Lock()
		defer mu.Unlock()
		rec, err := tournament.Play(context.Background(), s, spec)
		if err != nil {
			return Result{V: WireVersion, Key: job.Key, Worker: name, Error: err.Error()}
		}
		return NewResult(job.Key, name, rec)
	}
}

// syncBuffer is a log written by several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// clusterTuning runs the tuning through a broker with an honest worker and
// a rogue one, and returns what it gave with the runner's log and its
// report of games by worker.
func clusterTuning(t *testing.T, o RunnerOptions, rogueName string, answer func(Job, tournament.GameSpec) Result) (tuningRun, string, string, map[string]int) {
	t.Helper()
	b := startBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := NewWorker(ctx, connect(t, b.URL(), ConnectOptions{}), WorkerOptions{Workers: 1, Name: "honest"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx) }()
	rg := rogue(t, ctx, connect(t, b.URL(), ConnectOptions{}), answer)
	var log syncBuffer
	o.Run, o.Log = "audit", &log
	r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), o)
	if err != nil {
		t.Fatal(err)
	}
	got := tune(t, r)
	var report strings.Builder
	r.WriteGamesByWorker(&report)
	by := r.GamesByWorker()
	r.Close()
	cancel()
	wg.Wait()
	rg.Wait()
	return got, log.String(), report.String(), by
}

// TestForgingWorkerIsRefused (issue 30): a client holding the token reads
// jobs and publishes made-up results (the tester's one-move record with a
// script, and random legal games). The run ends with the result of the
// honest run, names the forger, and keeps nothing it sent.
func TestForgingWorkerIsRefused(t *testing.T) {
	want := honestTuning(t)
	got, log, report, by := clusterTuning(t, RunnerOptions{}, "evil", forger("evil"))
	sameTuning(t, got, want)
	if !strings.Contains(log, `worker "evil" quarantined`) || !strings.Contains(log, "not legal") {
		t.Errorf("the log does not name the forger:\n%s", log)
	}
	if !strings.Contains(report, `worker "evil" quarantined`) {
		t.Errorf("the report does not name the forger: %q", report)
	}
	if by["evil"] != 0 {
		t.Errorf("%d games of the forger were kept: %q", by["evil"], report)
	}
	for _, rec := range got.games {
		for _, m := range rec.Moves {
			if strings.ContainsAny(m, "<>") {
				t.Fatalf("a forged move was kept: %q", m)
			}
		}
	}
	t.Logf("%s", strings.TrimSpace(report))
}

// TestWeakenedWorkerIsCaughtByTheAudit: a worker that plays legal games,
// but one ply shallower than its jobs ask, passes the replay of its moves;
// the audit (every game, here) catches it, quarantines it, and the run
// ends with the honest run's result.
func TestWeakenedWorkerIsCaughtByTheAudit(t *testing.T) {
	want := honestTuning(t)
	got, log, report, _ := clusterTuning(t, RunnerOptions{Audit: 1}, "weak", weakened("weak"))
	sameTuning(t, got, want)
	if !strings.Contains(log, `worker "weak" quarantined: audit of game`) {
		t.Errorf("the audit did not catch the weakened worker:\n%s", log)
	}
	t.Logf("%s", strings.TrimSpace(report))
}
