package cluster

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// TestAuditLocalFault: a coordinator whose own game of an audit ends by a
// fault of its own (here its first Stockfish never answers the handshake,
// as on a machine too busy to start an engine in time) plays the game
// again instead of quarantining the worker, whose game was right.
func TestAuditLocalFault(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Stockfish on a worker")
	}
	want := poolRecords(t, engineSpecs(t, 1, "depth=3"))
	// The engine, for the job and the worker alike, is a script that runs
	// Stockfish, except on the coordinator's first start (no "worker"
	// argument, the flag file still there), where it sleeps.
	dir := t.TempDir()
	flag, script := filepath.Join(dir, "stall-once"), filepath.Join(dir, "sf.sh")
	text := "#!/bin/sh\nif [ \"$1\" != worker ] && rm \"" + flag + "\" 2>/dev/null; then exec sleep 60; fi\nexec " + stockfish + "\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	specs := engineSpecs(t, 1, "depth=3")
	sf, err := external.Parse("cmd=" + script + ",proto=uci,name=sf,option.Threads=1,option.Hash=16,depth=3,stall=3000")
	if err != nil {
		t.Fatal(err)
	}
	for i := range specs {
		for _, p := range []*tournament.Player{&specs[i].First, &specs[i].Second} {
			if p.Engine != nil {
				p.Engine = sf
			}
		}
	}

	b := startBroker(t)
	runWorker(t, b.URL(), WorkerOptions{Name: "honest", ArtifactDir: t.TempDir(),
		Engines: external.Engines{"sf": "cmd=" + script + ",arg=worker,proto=uci,name=sf,depth=1"}})
	c := connect(t, b.URL(), ConnectOptions{AckWait: time.Second, MaxDeliver: 100})
	var log syncBuffer
	r, err := NewRunner(context.Background(), c, RunnerOptions{Run: "local-fault", Ephemeral: true, Audit: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := collect(t, r, specs)
	for i := range got {
		got[i].Detail, want[i].Detail = "", ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the games differ from the pool's")
	}
	if q := r.Quarantined(); len(q) != 0 {
		t.Errorf("quarantined %v: the fault was the coordinator's", q)
	}
	if _, err := os.Stat(flag); err == nil {
		t.Error("the coordinator never started its stalling engine: the test tested nothing")
	}
	if !strings.Contains(log.String(), "played again") {
		t.Errorf("no note of the game played again:\n%s", log.String())
	}
}
