package cluster

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/tournament"
)

// TestArtifactCache: an artifact put once is fetched once, checked against
// its name, kept on disk (a second cache on the same folder fetches
// nothing), fetched again when its file is damaged, and the cache stays
// within its bytes, the least recently used going first. An artifact the
// broker does not hold is an error naming it.
func TestArtifactCache(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{})
	var names []string
	for i := range 3 {
		content := bytes.Repeat([]byte{byte('a' + i)}, 1000)
		name, err := c.PutArtifact(ctx, content)
		if err != nil {
			t.Fatal(err)
		}
		if name != ArtifactName(content) {
			t.Fatalf("put as %s, want its SHA-256 %s", name, ArtifactName(content))
		}
		if again, err := c.PutArtifact(ctx, content); err != nil || again != name {
			t.Fatalf("put again: %s, %v", again, err)
		}
		names = append(names, name)
	}
	dir := t.TempDir()
	cache, err := NewArtifactCache(connect(t, b.URL(), ConnectOptions{}), dir, 2500)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		data, err := cache.Get(ctx, names[0])
		if err != nil || !bytes.Equal(data, bytes.Repeat([]byte{'a'}, 1000)) {
			t.Fatalf("get: %q, %v", data, err)
		}
	}
	if cache.Fetched() != 1 {
		t.Errorf("fetched %d times, want once", cache.Fetched())
	}
	other, _ := NewArtifactCache(connect(t, b.URL(), ConnectOptions{}), dir, 2500)
	if _, err := other.Get(ctx, names[0]); err != nil || other.Fetched() != 0 {
		t.Errorf("a cache on the same folder fetched %d (%v), want 0: the disk holds it", other.Fetched(), err)
	}
	os.WriteFile(filepath.Join(dir, names[0]), []byte("damaged"), 0o600)
	if data, err := other.Get(ctx, names[0]); err != nil || len(data) != 1000 || other.Fetched() != 1 {
		t.Errorf("a damaged file: %d bytes, %v, fetched %d", len(data), err, other.Fetched())
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, names[0]), old, old)
	for _, name := range names[1:] {
		if _, err := cache.Get(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var kept []string
	for _, e := range entries {
		kept = append(kept, e.Name())
	}
	if !reflect.DeepEqual(kept, sortedStrings(names[1:])) {
		t.Errorf("the cache of 2500 bytes keeps %v, want the two used last %v", kept, names[1:])
	}
	missing := ArtifactName([]byte("nobody put this"))
	_, err = cache.Get(ctx, missing)
	if !errors.Is(err, ErrArtifact) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing artifact: %v", err)
	}
	if _, err := cache.Get(ctx, "../../etc/passwd"); !errors.Is(err, ErrArtifact) {
		t.Errorf("a name that is no hash: %v", err)
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// fittedPlayers are two Othello patterns players, one with the shipped
// tables and one with others (as a learn round fits), at depth 2.
func fittedPlayers(t *testing.T) (shipped, fitted tournament.Player) {
	t.Helper()
	g := othello.Game()
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	data := append([]float32(nil), ev.Data...)
	for i := range data {
		data[i] *= -0.5
	}
	other, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	lim := engine.Limits{Depth: 2}
	return tournament.Player{Name: "shipped", Evaluator: ev, Weights: ev.Defaults(), Limits: lim},
		tournament.Player{Name: "fitted", Evaluator: other, Weights: ev.Defaults(), Limits: lim}
}

func tablesSpecs(t *testing.T, pairs int) []tournament.GameSpec {
	t.Helper()
	g := othello.Game()
	shipped, fitted := fittedPlayers(t)
	ops, err := tournament.RandomOpenings(context.Background(), g, "random:6", 5)
	if err != nil {
		t.Fatal(err)
	}
	return tournament.MatchSpecs(g, fitted, shipped, pairs, ops, 0, tournament.Adjudication{})
}

// TestTablesTravelAsArtifacts: games of a player with tables of its own
// (fitted, not the game's) are played by workers, one with a key of its
// own, as the local pool plays them; the tables are put on the broker
// once, each worker fetches them once whatever the number of batches, and
// the jobs carry their name, not the tables. A worker with a key may
// not put artifacts.
func TestTablesTravelAsArtifacts(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 24 Othello games on workers")
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "worker.nk")
	pub, err := NewWorkerKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := ReadWorkerKey(keyFile)
	b, err := StartBroker(BrokerOptions{Listen: "127.0.0.1:0", Store: t.TempDir(), Token: testToken, WorkerKeys: []string{pub}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	specs := tablesSpecs(t, 6)
	pool, err := tournament.NewPool(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	want := collect(t, pool, specs)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	keyed, err := Connect(ctx, b.URL(), "", ConnectOptions{Name: "keyed", WorkerKey: seed})
	if err != nil {
		t.Fatal(err)
	}
	defer keyed.Close()
	var workers []*Worker
	for i, conn := range []*Conn{keyed, connect(t, b.URL(), ConnectOptions{})} {
		w, err := NewWorker(ctx, conn, WorkerOptions{Name: []string{"keyed", "token"}[i], ArtifactDir: filepath.Join(dir, "cache", string(rune('a'+i)))})
		if err != nil {
			t.Fatal(err)
		}
		wctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); w.Run(wctx) }()
		t.Cleanup(func() { stop(); <-done })
		workers = append(workers, w)
	}
	r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), RunnerOptions{Run: "tables", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := collect(t, r, specs[:6])
	got = append(got, collect(t, r, specs[6:])...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the workers' games with fitted tables differ from the pool's")
	}
	by := r.GamesByWorker()
	for i, w := range workers {
		fetched := w.tables.cache.Fetched()
		if w.Played() == 0 || fetched != 1 {
			t.Errorf("worker %s played %d games and fetched the tables %d times, want once", w.Name(), w.Played(), fetched)
		}
		t.Logf("worker %d (%s): %d games, %d fetches", i, w.Name(), by[w.Name()], fetched)
	}
	job, err := newJob(specs[0], 2, jobOptions{tables: func(g games.Game, ev *games.Evaluator) (string, error) { return r.tables.name(ctx, g, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := job.Encode()
	if job.V != ArtifactsWireVersion || !validArtifactName(job.First.Tables) || job.Second.Tables != "" || len(data) > 4096 {
		t.Errorf("a job with fitted tables: version %d, tables %q and %q, %d bytes", job.V, job.First.Tables, job.Second.Tables, len(data))
	}
	pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
	defer pcancel()
	if _, err := keyed.PutArtifact(pctx, []byte("a worker's own tables")); err == nil {
		t.Error("a worker with a key of its own put an artifact")
	}
	obs, err := artifactBucket(ctx, r.conn.JS, false)
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if err != nil || len(list) != 1 || list[0].Name != job.First.Tables {
		t.Errorf("the bucket holds %d artifacts (%v), want the fitted tables alone", len(list), err)
	}
}

// TestJobWithoutItsArtifactIsRefused: a worker that cannot get a job's
// tables refuses the job naming the artifact, and the run fails with that
// reason after max_deliver refusals; a worker older than artifacts (wire
// version 1 only) would refuse the job's version the same way.
func TestJobWithoutItsArtifactIsRefused(t *testing.T) {
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 2})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "lost", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	specs := tablesSpecs(t, 1)
	name, err := r.tables.name(ctx, specs[0].Game, specs[0].First.Evaluator)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := artifactBucket(ctx, c.JS, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := obs.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	w := runWorker(t, b.URL(), WorkerOptions{Name: "w", Log: &log, ArtifactDir: t.TempDir()})
	err = r.Run(ctx, specs[:1], func(int, tournament.Record) error { return nil })
	var fe *JobFailedError
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) || !strings.Contains(fe.Reason, "artifact "+name) {
		t.Fatalf("a job whose tables are gone: %v", err)
	}
	if w.Played() != 0 {
		t.Errorf("played %d", w.Played())
	}
	t.Logf("reason: %s", fe.Reason)
}

// TestScoresTravel: a runner whose jobs ask for the movers' scores hands
// over records with the local pool's scores and depths (their times are
// the machine's), every game audited with its scores compared.
func TestScoresTravel(t *testing.T) {
	b := startBroker(t)
	specs := matchSpecs(t, 2)
	withScores := func(run tournament.Runner) []tournament.Record {
		t.Helper()
		var out []tournament.Record
		err := run.Run(context.Background(), specs, func(i int, r tournament.Record) error {
			r.Duration = 0
			for j := range r.Evals {
				r.Evals[j].Time = 0
			}
			out = append(out, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	pool, err := tournament.NewPool(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	want := withScores(pool)
	runWorker(t, b.URL(), WorkerOptions{Name: "w", ArtifactDir: t.TempDir()})
	ctx := context.Background()
	r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), RunnerOptions{Run: "scores", Ephemeral: true, Scores: true, Audit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := withScores(r)
	if len(want[0].Evals) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("records with scores differ from the pool's:\n%+v\nwant\n%+v", got[0].Evals, want[0].Evals)
	}
	if q := r.Quarantined(); len(q) != 0 || r.GamesByWorker()["w"] != len(specs) {
		t.Errorf("quarantined %v, by worker %v", q, r.GamesByWorker())
	}
}
