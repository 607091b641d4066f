package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

const stockfish = "/usr/games/stockfish"

// engineSpecs is a chess match of Stockfish at depth 3 against the
// built-in searcher at depth 2, on random openings.
func engineSpecs(t *testing.T, pairs int, limit string) []tournament.GameSpec {
	t.Helper()
	if _, err := os.Stat(stockfish); err != nil {
		t.Skip("needs Debian's stockfish package")
	}
	g, err := all.Find("chess")
	if err != nil {
		t.Fatal(err)
	}
	sf, err := external.Parse("cmd=" + stockfish + ",proto=uci,name=sf,option.Threads=1,option.Hash=16," + limit)
	if err != nil {
		t.Fatal(err)
	}
	ev := g.Evaluators()[0]
	builtin := tournament.Player{Name: "builtin", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 2}}
	ops, err := tournament.RandomOpenings(context.Background(), g, "random:6", 7)
	if err != nil {
		t.Fatal(err)
	}
	return tournament.MatchSpecs(g, tournament.Player{Name: "sf", Engine: sf}, builtin, pairs, ops, 200, tournament.Adjudication{})
}

// TestEnginesOnWorkers: an external engine plays on the worker whose
// operator allowed it (by name, with the same binary), as on the local
// pool, every game audited; a worker that did not allow it, or runs
// another binary under its name, refuses its jobs saying why, and they
// are played elsewhere. With no worker allowing it, the run fails with the
// reason.
func TestEnginesOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Stockfish on workers")
	}
	specs := engineSpecs(t, 1, "depth=3")
	pool, err := tournament.NewPool(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := collect(t, pool, specs)
	pool.Close()

	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 2})
	var refusals syncBuffer
	runWorker(t, b.URL(), WorkerOptions{Name: "none", Log: &refusals, ArtifactDir: t.TempDir()})
	runWorker(t, b.URL(), WorkerOptions{Name: "other", Log: &refusals, ArtifactDir: t.TempDir(),
		Engines: external.Engines{"sf": "cmd=/bin/sh,proto=uci,name=sf,depth=1"}})
	var none, other = "not one this worker's operator allowed", "this worker's binary has SHA-256"

	// No worker allows it: the run fails, naming why.
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "refused", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(ctx, specs[:1], func(int, tournament.Record) error { return nil })
	var fe *JobFailedError
	if !errors.As(err, &fe) || !errors.Is(err, ErrMaxDeliver) || !(strings.Contains(fe.Reason, none) || strings.Contains(fe.Reason, other)) {
		t.Fatalf("an engine no worker allows: %v", err)
	}
	r.Close()

	runWorker(t, b.URL(), WorkerOptions{Name: "allowed", ArtifactDir: t.TempDir(),
		Engines: external.Engines{"sf": "cmd=" + stockfish + ",proto=uci,name=sf,depth=1"}})
	// Refused jobs go back to the queue until the worker that allows them
	// takes them.
	c = connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 100})
	r, err = NewRunner(ctx, c, RunnerOptions{Run: "engines", Ephemeral: true, Audit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := collect(t, r, specs)
	for i := range got {
		got[i].Detail, want[i].Detail = "", ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Stockfish's games on a worker differ from the pool's")
	}
	if by := r.GamesByWorker(); by["allowed"] != len(specs) || len(r.Quarantined()) != 0 {
		t.Errorf("by worker %v, quarantined %v", by, r.Quarantined())
	}
	for _, why := range []string{none, other} {
		if !strings.Contains(refusals.String(), why) {
			t.Errorf("no refusal saying %q:\n%s", why, refusals.String())
		}
	}
	var line strings.Builder
	r.WriteGamesByWorker(&line)
	if !strings.Contains(line.String(), "worker speeds (nodes/s, Othello at depth 6): allowed ") {
		t.Errorf("no speed reported: %q", line.String())
	}
	t.Log(strings.TrimSpace(line.String()))
}

// TestClockGamesOnWorkers: Stockfish on a clock (1 s + 10 ms) plays on a
// worker that allows it; the coordinator, auditing every game, cannot play
// a clock game again to its moves, so it checks their legality and the
// outcome and quarantines nobody.
func TestClockGamesOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Stockfish on a clock")
	}
	specs := engineSpecs(t, 1, "tc=1+0.01")
	if !onClock(specs[0]) {
		t.Fatal("not a clock game")
	}
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := runWorker(t, b.URL(), WorkerOptions{Name: "allowed", Workers: 4, ArtifactDir: t.TempDir(),
		Engines: external.Engines{"sf": "cmd=" + stockfish + ",proto=uci,name=sf,depth=1"}})
	r, err := NewRunner(ctx, connect(t, b.URL(), ConnectOptions{}), RunnerOptions{Run: "clock", Ephemeral: true, Audit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := collect(t, r, specs)
	if len(got) != 2 || r.GamesByWorker()["allowed"] != 2 || len(r.Quarantined()) != 0 || r.PlayedHere() != 0 {
		t.Errorf("%d games, by worker %v, quarantined %v, played here %d", len(got), r.GamesByWorker(), r.Quarantined(), r.PlayedHere())
	}
	if cap(w.clock) > runtime.NumCPU() {
		t.Errorf("%d clock slots on %d cores", cap(w.clock), runtime.NumCPU())
	}
	for _, rec := range got {
		t.Logf("%s after %d plies (%s)", rec.Reason, rec.Plies, rec.Detail)
	}
}

// TestCheckResultFaults: a game lost by a fault or on time stands only
// when the loser is a player that can fault (an external engine, or a
// player on a clock); a built-in searcher without a clock cannot, and a
// fault never draws.
func TestCheckResultFaults(t *testing.T) {
	spec := engineSpecs(t, 1, "depth=1")[0] // sf plays first
	builtinOnly := matchSpecs(t, 1)[0]
	cases := []struct {
		spec    tournament.GameSpec
		outcome games.Outcome
		ok      bool
	}{
		{spec, games.SecondWins, true}, // the engine, first, lost
		{spec, games.FirstWins, false}, // the built-in searcher lost by a crash
		{spec, games.Draw, false},      // a fault that draws
		{builtinOnly, games.FirstWins, false},
	}
	for i, c := range cases {
		p, err := openingPosition(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		res := Result{V: WireVersion, Key: "k", Worker: "w", Outcome: int(c.outcome), Reason: string(tournament.ByCrash), Detail: "sf: crashed", Opening: p.String()}
		rec, err := CheckResult(c.spec, res)
		if (err == nil) != c.ok || c.ok && rec.Detail != "sf: crashed" {
			t.Errorf("case %d: %v (detail %q)", i, err, rec.Detail)
		}
	}
}

// refusingSource is a worker's jobSource with no artifact and no engine.
type refusingSource struct{}

func (refusingSource) tables(context.Context, games.Game, string, string) (*games.Evaluator, error) {
	return nil, fmt.Errorf("%w: no artifacts here", ErrRefused)
}

func (refusingSource) engine(g games.Game, we *WireEngine) (tournament.Engine, error) {
	return playEngine(nil, g, we)
}

// FuzzDecodeJobOfVersion2: no job naming tables or an engine makes a
// worker's decoder panic; what it cannot get it refuses.
func FuzzDecodeJobOfVersion2(f *testing.F) {
	name := ArtifactName([]byte("tables"))
	f.Add([]byte(`{"v":2,"key":"k","game":"othello","table_mib":2,"first":{"name":"a","evaluator":"patterns","tables":"` + name + `"},"second":{"name":"b","evaluator":"patterns","tables":"` + name + `"}}`))
	f.Add([]byte(`{"v":2,"key":"k","game":"chess","table_mib":2,"opening":"moves: e2e4","first":{"name":"sf","engine":{"spec":"cmd=/usr/games/stockfish,proto=uci,name=sf,depth=3","sha256":"` + name + `"}},"second":{"name":"sf","engine":{"spec":"x","sha256":""}}}`))
	f.Add([]byte(`{"v":2,"key":"k","game":"chess","table_mib":2,"scores":true,"first":{"name":"a","evaluator":"textbook","tables":"../x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, spec, err := decodeJob(context.Background(), data, refusingSource{})
		if err == nil && (spec.First.Engine != nil || spec.Second.Engine != nil) {
			t.Fatal("played an engine no operator allowed")
		}
	})
}

// TestUploadedEngines: a coordinator that uploads its engines' binaries
// has them played by a worker that accepts them (and was given none),
// which runs the binary it fetched once, checked against its hash; a
// worker that does not accept them refuses the jobs.
func TestUploadedEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Stockfish on a worker")
	}
	specs := engineSpecs(t, 1, "depth=3")
	b := startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var refusals syncBuffer
	runWorker(t, b.URL(), WorkerOptions{Name: "careful", Log: &refusals, ArtifactDir: t.TempDir()})
	w := runWorker(t, b.URL(), WorkerOptions{Name: "accepting", ArtifactDir: t.TempDir(), AcceptEngines: true})
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 100})
	r, err := NewRunner(ctx, c, RunnerOptions{Run: "uploaded", Ephemeral: true, Audit: 1, UploadEngines: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := collect(t, r, specs)
	if len(got) != 2 || r.GamesByWorker()["accepting"] != 2 || len(r.Quarantined()) != 0 {
		t.Errorf("%d games, by worker %v, quarantined %v", len(got), r.GamesByWorker(), r.Quarantined())
	}
	if n := w.tables.cache.Fetched(); n != 1 {
		t.Errorf("the binary was fetched %d times, want once", n)
	}
	if strings.Contains(refusals.String(), "accepting") || !strings.Contains(refusals.String(), "or --accept-engines") && refusals.String() != "" {
		t.Errorf("refusals: %s", refusals.String())
	}
}
