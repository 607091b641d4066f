package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/spf13/pflag"
)

// clusterOptions are the flags of the commands whose games may be played
// by workers through a NATS broker.
type clusterOptions struct {
	cluster.Options
	audit  shareValue // the share of games audited; unset: the default
	scores bool       // records carry the movers' scores (cluster.RunnerOptions.Scores)
}

// shareValue is a flag holding a share, "2%" or a fraction (cluster.ParseShare).
type shareValue struct {
	text  string
	share float64
}

func (v *shareValue) String() string { return v.text }
func (v *shareValue) Type() string   { return "share" }
func (v *shareValue) Set(s string) (err error) {
	v.share, err = cluster.ParseShare(s)
	v.text = s
	return err
}

func (o *clusterOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&o.NATS, "nats", "", "have the games played by workers through the NATS broker at this URL (nats://HOST:PORT); --workers then counts the games played here too (0: none)")
	f.StringVar(&o.TokenFile, "token-file", "", "file holding the broker's token (with --nats or --broker-listen)")
	f.StringVar(&o.TLSCA, "tls-ca", "", "PEM certificates that sign the broker's (a broker with TLS)")
	f.StringVar(&o.BrokerListen, "broker-listen", "", "start a broker in this process, listening on HOST:PORT (implies --nats to it)")
	f.BoolVar(&o.UploadEngines, "upload-engines", false, "put the external engines' binaries on the broker, for workers started with --accept-engines")
	f.DurationVar(&o.AckWait, "ack-wait", 0, "time a job may go without a sign of life before it is handed to another worker (when the workers' consumer is created; 0: 30s)")
	f.IntVar(&o.MaxDeliver, "max-deliver", 0, "times a job is handed out before it is reported failed (when the workers' consumer is created; 0: 5)")
	o.audit = shareValue{"2%", cluster.DefaultAudit}
	f.Var(&o.audit, "audit", "share of the workers' games the coordinator plays again in full and compares (every result's moves are replayed by the rules in any case); a worker caught is quarantined")
	f.MarkHidden("ack-wait")
	f.MarkHidden("max-deliver")
}

// gameRunner plays batches of games: the local pool, or the cluster.
type gameRunner struct {
	tournament.Runner
	close   func()
	cluster *cluster.Runner  // nil for the local pool
	pool    *tournament.Pool // nil for the cluster
}

// Workers is the local pool's number of workers (0 through a broker).
func (g *gameRunner) Workers() int {
	if g.pool == nil {
		return 0
	}
	return g.pool.Workers()
}

// useEngines readies the runner for external engine players: their
// stderr goes to the log at logPath (a new temporary file when empty),
// closed with the runner. On the cluster the workers' operators allow them.
func (g *gameRunner) useEngines(logPath string, stderr io.Writer) error {
	if g.pool == nil {
		return nil
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
	if g.cluster != nil {
		g.cluster.WriteGamesByWorker(w)
	}
}

// openRunner returns the runner of a command's games: without cluster
// options the local pool of workers (0: one per core); with them the
// broker, as the jobs of the run named run, and workers here too (0:
// none). A broker started here keeps its data in brokerStore.
func openRunner(ctx context.Context, co clusterOptions, workers int, run string, ephemeral bool, brokerStore string, stderr io.Writer) (*gameRunner, error) {
	if !co.Enabled() {
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
	r, err := co.Open(ctx, cluster.RunnerOptions{Run: run, TableMiB: poolTableMiB, Workers: workers, Ephemeral: ephemeral, Log: stderr, Audit: co.auditShare(), Scores: co.scores}, brokerStore, stderr)
	if err != nil {
		return nil, clusterError(err)
	}
	return &gameRunner{Runner: r, close: func() { r.Close() }, cluster: r}, nil
}

// auditShare is the --audit share as cluster.RunnerOptions.Audit takes it.
func (o clusterOptions) auditShare() float64 {
	if o.audit.text != "" && o.audit.share == 0 {
		return -1 // none
	}
	return o.audit.share
}

// ephemeralName names a match or a tournament on the broker.
var ephemeralName = cluster.MatchName

// saveClusterOptions records a run's broker settings in its directory
// (cluster.OptionsFile), for resume.
func saveClusterOptions(dir string, co clusterOptions) error {
	data, err := co.Encode()
	if err != nil || !co.Enabled() {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, cluster.OptionsFile), data, true)
}

// loadClusterOptions reads the broker settings a run recorded (none: the
// zero options).
func loadClusterOptions(dir string) (clusterOptions, error) {
	o, err := cluster.LoadOptions(dir)
	return clusterOptions{Options: o}, err
}

// clusterError marks the errors of the cluster options as usage errors.
func clusterError(err error) error {
	var settings *cluster.SettingsError
	if errors.As(err, &settings) {
		return usageError{err}
	}
	return err
}

// brokerHint adds what to do to a cluster error.
func brokerHint(err error) error {
	if errors.Is(err, cluster.ErrMaxDeliver) {
		return fmt.Errorf("%w (see the workers' logs)", err)
	}
	return err
}
