package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
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
		rec.Duration, rec.Evals = 0, nil // the machine's; move comments stay where the game was played
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

// TestCheckResult: a played game's result passes the replay and gives its
// record back; results that cannot be the job's game are refused, each
// with the reason.
func TestCheckResult(t *testing.T) {
	specs := matchSpecs(t, 1)
	spec := specs[0]
	s, err := tournament.NewSearchers(2)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := tournament.Play(context.Background(), s, spec)
	if err != nil || rec.Reason != tournament.ByRule || rec.Plies < 20 {
		t.Fatalf("the game: %+v, %v", rec, err)
	}
	res := NewResult("k", "w", rec)
	rec.Evals = nil // move comments do not cross the wire
	got, err := CheckResult(spec, res)
	if err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("an honest result: %+v, %v", got, err)
	}
	prefix := func(n int, o games.Outcome, why tournament.Reason) Result {
		r := res
		r.Moves, r.Plies, r.Outcome, r.Reason = res.Moves[:n], n, int(o), string(why)
		return r
	}
	with := func(edit func(*tournament.GameSpec)) tournament.GameSpec {
		s := spec
		edit(&s)
		return s
	}
	swapped := append([]string(nil), res.Moves...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	for name, tc := range map[string]struct {
		spec tournament.GameSpec
		res  Result
		want string // "" for accepted
	}{
		"script": {spec, Result{V: 1, Key: "k", Outcome: 1, Reason: "rule", Opening: res.Opening,
			Moves: []string{"<script>alert(1)</script>"}, Plies: 1}, `move 1 ("<script>alert(1)</script>") is not legal`},
		"after the end": {spec, func() Result {
			r := res
			r.Moves = append(append([]string(nil), r.Moves...), "pass")
			r.Plies++
			return r
		}(), "after the end of the game"},
		"outcome":      {spec, func() Result { r := res; r.Outcome = 3 - r.Outcome; return r }(), "the rules give"},
		"draw claimed": {spec, func() Result { r := res; r.Outcome = int(games.Draw); return r }(), "the rules give"},
		"swapped":      {spec, func() Result { r := res; r.Moves = swapped; return r }(), "is not legal"},
		"upper case": {spec, func() Result {
			r := res
			r.Moves = append([]string{strings.ToUpper(res.Moves[0])}, res.Moves[1:]...)
			return r
		}(), "the game writes"},
		"opening":         {spec, func() Result { r := res; r.Opening = "x"; return r }(), "opening"},
		"unfinished":      {spec, prefix(10, games.FirstWins, tournament.ByRule), "not over"},
		"ply cap":         {with(func(s *tournament.GameSpec) { s.MaxPlies = 10 }), prefix(10, games.Draw, tournament.ByPlyCap), ""},
		"past the cap":    {with(func(s *tournament.GameSpec) { s.MaxPlies = 10 }), prefix(11, games.Draw, tournament.ByPlyCap), "ply cap of 10"},
		"early cap":       {spec, prefix(10, games.Draw, tournament.ByPlyCap), "unfinished game of 400"},
		"no adjudication": {spec, prefix(10, games.Draw, tournament.ByAdjudication), "0: never"},
		"adjudicated": {with(func(s *tournament.GameSpec) { s.Adjudication = tournament.Adjudication{DrawAfter: 2, DrawPlies: 4} }),
			prefix(6, games.Draw, tournament.ByAdjudication), ""},
		"adjudicated early": {with(func(s *tournament.GameSpec) { s.Adjudication = tournament.Adjudication{DrawAfter: 2, DrawPlies: 4} }),
			prefix(5, games.Draw, tournament.ByAdjudication), "after 2+4 plies"},
		"resigned": {with(func(s *tournament.GameSpec) {
			s.Adjudication = tournament.Adjudication{ResignMargin: 100, ResignPlies: 3}
		}),
			prefix(3, games.SecondWins, tournament.ByResignation), ""},
		"resigned to a draw": {with(func(s *tournament.GameSpec) {
			s.Adjudication = tournament.Adjudication{ResignMargin: 100, ResignPlies: 3}
		}),
			prefix(3, games.Draw, tournament.ByResignation), "wins after 3 plies"},
		"an error": {spec, Result{V: 1, Key: "k", Error: "boom"}, "has no game"},
	} {
		got, err := CheckResult(tc.spec, tc.res)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case tc.want == "" && (got.Plies != len(tc.res.Moves) || !reflect.DeepEqual(got.Moves, tc.res.Moves)):
			t.Errorf("%s: record %+v", name, got)
		case tc.want != "" && (!errors.Is(err, ErrForged) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want an error saying %q", name, err, tc.want)
		}
	}

	// An opening given as moves from the start: the record's opening is
	// the position they reach.
	g := tictactoe.Game()
	ev := g.Evaluators()[0]
	p := tournament.Player{Name: "p", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 3}}
	ts := tournament.GameSpec{Game: g, Opening: "moves: b2 a1", First: p, Second: p}
	trec, err := tournament.Play(context.Background(), s, ts)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CheckResult(ts, NewResult("k", "w", trec)); err != nil || got.Opening != trec.Opening || got.Opening == "" {
		t.Errorf("an opening of moves: %+v, %v", got, err)
	}
}

func TestParseShare(t *testing.T) {
	for in, want := range map[string]float64{"2%": 0.02, "0": 0, "0%": 0, "100%": 1, "0.5": 0.5, " 12.5% ": 0.125} {
		if got, err := ParseShare(in); err != nil || got != want {
			t.Errorf("ParseShare(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "%", "two", "101%", "-1%", "1.5", "NaN", "Inf%"} {
		if _, err := ParseShare(in); err == nil || !strings.Contains(err.Error(), "want a percentage") {
			t.Errorf("ParseShare(%q): %v", in, err)
		}
	}
}

// TestAuditSample: the audited share is the share asked for, the choice
// of a job depends on the seed and the job alone, and another seed
// chooses other jobs.
func TestAuditSample(t *testing.T) {
	a, again, other := newAuditor(DefaultAudit, 7), newAuditor(DefaultAudit, 7), newAuditor(DefaultAudit, 8)
	const n = 100_000
	count, same := 0, 0
	for i := range n {
		key := fmt.Sprintf("%032x", i)
		s := a.sampled(key)
		if s != again.sampled(key) {
			t.Fatalf("job %s: the same seed chose differently", key)
		}
		if s {
			count++
			if other.sampled(key) {
				same++
			}
		}
	}
	// 2% of 100,000: 2,000 with a standard deviation of 44.
	if count < 1800 || count > 2200 || same > count/5 {
		t.Errorf("%d of %d jobs audited (want about 2,000), %d of them by another seed too", count, n, same)
	}
	if newAuditor(-1, 1).sampled("k") || !newAuditor(1, 1).sampled("k") {
		t.Error("a share of 0 audits, or a share of 1 does not")
	}
}

// FuzzDecodeResult: no result message makes the decoder or the replay
// check panic; a result the decoder accepts encodes to a message that
// decodes to it again, and one the replay accepts gives a record of its
// moves.
func FuzzDecodeResult(f *testing.F) {
	rec := tournament.Record{Outcome: games.FirstWins, Reason: tournament.ByRule, Opening: "---------", Moves: []string{"b2", "a1"}, Plies: 2, Nodes: 9}
	data, _ := jsonMarshal(NewResult("k", "w", rec))
	f.Add(data)
	f.Add([]byte(`{"v":1,"key":"k","worker":"evil","outcome":1,"reason":"rule","opening":"---------","moves":["<script>"],"plies":1}`))
	f.Add([]byte(`{"v":1,"key":"k","worker":"w","error":"boom","refused":true}`))
	f.Add([]byte(`{"v":1,"key":"k","outcome":3,"reason":"ply-cap","opening":"---------","moves":["a1","a2","a3"],"plies":3}`))
	f.Add([]byte(`{"v":1,"key":"k","outcome":2,"reason":"resignation","moves":[],"plies":0,"nodes":-1}`))
	f.Add([]byte(`{"v":1} {}`))
	g := tictactoe.Game()
	ev := g.Evaluators()[0]
	p := tournament.Player{Name: "p", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 1}}
	spec := tournament.GameSpec{Game: g, First: p, Second: p, Adjudication: tournament.Adjudication{DrawPlies: 2, ResignPlies: 2}}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := DecodeResult(data)
		if err != nil {
			return
		}
		again, err := jsonMarshal(res)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeResult(again)
		if err != nil || !reflect.DeepEqual(back, res) {
			t.Fatalf("%s decodes to %+v, which encodes to %s, which decodes to %+v, %v", data, res, again, back, err)
		}
		if rec, err := CheckResult(spec, res); err == nil && (rec.Plies != len(res.Moves) || !reflect.DeepEqual(rec.Moves, res.Moves)) {
			t.Fatalf("%s replays to %+v", data, rec)
		}
	})
}

// TestAuditCost measures what the audit costs: the games played again per
// 1,000, the wall time of a batch of Othello games at depth 4 played by
// one remote worker, with no audit, the default one and a full one, and
// the time the replay of every result takes.
func TestAuditCost(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a few hundred Othello games three times")
	}
	b := startBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := NewWorker(ctx, connect(t, b.URL(), ConnectOptions{}), WorkerOptions{Workers: 1, Name: "remote"})
	if err != nil {
		t.Fatal(err)
	}
	go w.Run(ctx)
	specs := matchSpecs(t, 100)
	for i := range specs {
		specs[i].Seed = uint64(i) // distinct jobs
		specs[i].First.Limits.Depth, specs[i].Second.Limits.Depth = 4, 4
	}
	var base time.Duration
	var recs []tournament.Record
	for i, share := range []float64{-1, DefaultAudit, 1, -1, DefaultAudit} {
		r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), RunnerOptions{Run: fmt.Sprintf("cost-%d", i), Audit: share, AuditSeed: 1, Ephemeral: true})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		recs = collect(t, r, specs)
		took := time.Since(start)
		if share < 0 {
			base = took
		}
		t.Logf("audit %v: %d of %d games played again (%.1f per 1,000), %v, %+.1f%% wall time", max(share, 0), r.PlayedHere(), len(specs),
			1000*float64(r.PlayedHere())/float64(len(specs)), took.Round(time.Millisecond), 100*(took.Seconds()/base.Seconds()-1))
		if want := int64(len(specs)); share == 1 && r.PlayedHere() != want {
			t.Errorf("a full audit played %d games again, want %d", r.PlayedHere(), want)
		}
		r.Close()
	}
	start := time.Now()
	for i, rec := range recs {
		if _, err := CheckResult(specs[i], NewResult("k", "w", rec)); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("the replay of a result: %v (a game takes %v here)", (time.Since(start) / time.Duration(len(recs))).Round(time.Microsecond),
		(base / time.Duration(len(recs))).Round(time.Microsecond))
	// The share over many jobs, as a run draws them.
	a, n := newAuditor(DefaultAudit, 1), 0
	for i := range 100_000 {
		job, err := NewJob(tournament.GameSpec{Game: specs[0].Game, First: specs[0].First, Second: specs[0].Second, Seed: uint64(i)}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if a.sampled(job.Key) {
			n++
		}
	}
	t.Logf("default audit: %.1f games played again per 1,000 (over 100,000 jobs)", float64(n)/100)
}

// TestFailingWorkerCannotEndTheRun: a worker that answers every job with
// a failure cannot end the run: the jobs check at the coordinator, so
// their games are played again, and the run ends as the honest one.
func TestFailingWorkerCannotEndTheRun(t *testing.T) {
	want := honestTuning(t)
	got, log, _, _ := clusterTuning(t, RunnerOptions{}, "liar", func(job Job, _ tournament.GameSpec) Result {
		return Result{V: WireVersion, Key: job.Key, Worker: "liar", Error: "game failed"}
	})
	sameTuning(t, got, want)
	if !strings.Contains(log, `worker "liar" failed game`) {
		t.Errorf("the log does not say which worker failed:\n%s", log)
	}
}
