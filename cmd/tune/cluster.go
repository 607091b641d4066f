package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/spf13/pflag"
)

// clusterOptions are the flags of the commands whose games may be played by
// workers through a NATS broker.
type clusterOptions struct {
	NATS         string `json:"nats,omitempty"`
	TokenFile    string `json:"token_file,omitempty"`
	BrokerListen string `json:"broker_listen,omitempty"`
	// For tests and impatient users: the workers' consumer's settings when
	// this process creates it.
	AckWait    time.Duration `json:"-"`
	MaxDeliver int           `json:"-"`
}

func (o *clusterOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&o.NATS, "nats", "", "have the games played by workers through the NATS broker at this URL (nats://HOST:PORT); --workers then counts the games played here too (0: none)")
	f.StringVar(&o.TokenFile, "token-file", "", "file holding the broker's token (with --nats or --broker-listen)")
	f.StringVar(&o.BrokerListen, "broker-listen", "", "start a broker in this process, listening on HOST:PORT (implies --nats to it)")
	f.DurationVar(&o.AckWait, "ack-wait", 0, "time a job may go without a sign of life before it is handed to another worker (when the workers' consumer is created; 0: 30s)")
	f.IntVar(&o.MaxDeliver, "max-deliver", 0, "times a job is handed out before it is reported failed (when the workers' consumer is created; 0: 5)")
	f.MarkHidden("ack-wait")
	f.MarkHidden("max-deliver")
}

func (o clusterOptions) enabled() bool { return o.NATS != "" || o.BrokerListen != "" }

func (o clusterOptions) connectOptions(name string) cluster.ConnectOptions {
	return cluster.ConnectOptions{Name: name, AckWait: o.AckWait, MaxDeliver: o.MaxDeliver}
}

// gameRunner plays batches of games: the local pool, or the cluster.
type gameRunner struct {
	tournament.Runner
	close   func()
	cluster *cluster.Runner  // nil for the local pool
	pool    *tournament.Pool // nil for the cluster
}

// useEngines readies the runner for external engine players: their
// stderr goes to the log at logPath (a new temporary file when empty),
// closed with the runner. The cluster does not play them.
func (g *gameRunner) useEngines(logPath string, stderr io.Writer) error {
	if g.pool == nil {
		return usageError{errors.New("external engines play on the local pool only: drop --nats and --broker-listen")}
	}
	f, err := engineLog(logPath, stderr)
	if err != nil {
		return err
	}
	g.pool.SetEngineLog(f)
	closeRunner := g.close
	g.close = func() { closeRunner(); f.Close() }
	return nil
}

// Close releases the runner (and the broker it started, if any).
func (g *gameRunner) Close() { g.close() }

// Report prints the games each worker played, for a cluster run.
func (g *gameRunner) Report(w io.Writer) {
	if g.cluster == nil {
		return
	}
	by := g.cluster.GamesByWorker()
	var names []string
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, by[n])
	}
	fmt.Fprintf(w, "games by worker: %s\n", joinOr(parts, "none"))
}

// openRunner returns the runner of a command's games. Without cluster
// options it is the local pool of workers (0: one per core). With them,
// the games go to the broker as the jobs of the run named run, and workers
// of this process play too (0: none). brokerStore is where a broker started
// here keeps its data.
func openRunner(ctx context.Context, co clusterOptions, workers int, run string, ephemeral bool, brokerStore string, stderr io.Writer) (*gameRunner, error) {
	if !co.enabled() {
		if co.TokenFile != "" {
			return nil, usageError{errors.New("--token-file needs --nats or --broker-listen")}
		}
		n, err := checkWorkers(workers)
		if err != nil {
			return nil, err
		}
		pool, err := tournament.NewPool(n, poolTableMiB)
		if err != nil {
			return nil, usageError{err}
		}
		return &gameRunner{Runner: pool, close: func() { pool.Close() }, pool: pool}, nil
	}
	if workers < 0 || workers > maxWorkers {
		return nil, usageError{fmt.Errorf("--workers %d: want 0 (none here) to %d", workers, maxWorkers)}
	}
	token, err := cluster.ReadToken(co.TokenFile)
	if err != nil {
		return nil, usageError{err}
	}
	var broker *cluster.Broker
	if co.BrokerListen != "" {
		if broker, err = cluster.StartBroker(cluster.BrokerOptions{Listen: co.BrokerListen, Store: brokerStore, Token: token}); err != nil {
			return nil, usageError{err}
		}
		fmt.Fprintf(stderr, "broker listening at %s\n", broker.URL())
	}
	name := cluster.ProcessName()
	r, err := cluster.Dial(ctx, cluster.DialOptions{URL: co.NATS, Token: token, Broker: broker, Connect: co.connectOptions("tune coordinator " + name),
		Runner: cluster.RunnerOptions{Run: run, TableMiB: poolTableMiB, Workers: workers, Name: name, Ephemeral: ephemeral, Log: stderr}})
	if err != nil {
		return nil, err
	}
	return &gameRunner{Runner: r, close: func() { r.Close() }, cluster: r}, nil
}

// ephemeralName names a match or a tournament on the broker.
var ephemeralName = cluster.MatchName

// clusterFile keeps a run's broker settings in its directory, for resume.
const clusterFile = "cluster.json"

func saveClusterOptions(dir string, co clusterOptions) error {
	if !co.enabled() {
		return nil
	}
	data, err := json.MarshalIndent(co, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, clusterFile), append(data, '\n'), true)
}

// loadClusterOptions reads the broker settings a run recorded (none: the
// zero options).
func loadClusterOptions(dir string) (clusterOptions, error) {
	var co clusterOptions
	data, err := os.ReadFile(filepath.Join(dir, clusterFile))
	if errors.Is(err, os.ErrNotExist) {
		return co, nil
	}
	if err != nil {
		return co, err
	}
	if err := json.Unmarshal(data, &co); err != nil {
		return co, fmt.Errorf("%s: %w", filepath.Join(dir, clusterFile), err)
	}
	return co, nil
}

// brokerHint adds what to do to a cluster error.
func brokerHint(err error) error {
	if errors.Is(err, cluster.ErrMaxDeliver) {
		return fmt.Errorf("%w (see the workers' logs)", err)
	}
	return err
}
