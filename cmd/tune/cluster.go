package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/tuning"
	"github.com/spf13/pflag"
)

// clusterOptions are the flags of the commands whose games may be played
// by workers through a NATS broker.
type clusterOptions struct {
	cluster.Options
	audit  cluster.AuditFlag // the share of games audited
	scores bool              // records carry the movers' scores (cluster.RunnerOptions.Scores)
}

func (o *clusterOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&o.NATS, "nats", "",
		"have the games played by workers through the NATS broker at this URL (nats://HOST:PORT); --workers then counts "+
			"the games played here too (0: none)")
	f.StringVar(&o.TokenFile, "token-file", "", "file holding the broker's token (with --nats or --broker-listen)")
	f.StringVar(&o.TLSCA, "tls-ca", "", "PEM certificates that sign the broker's (a broker with TLS)")
	f.StringVar(&o.BrokerListen, "broker-listen", "",
		"start a broker in this process, listening on HOST:PORT (implies --nats to it)")
	f.BoolVar(&o.UploadEngines, "upload-engines", false,
		"put the external engines' binaries on the broker, for workers started with --accept-engines")
	f.DurationVar(&o.AckWait, "ack-wait", 0,
		"time a job may go without a sign of life before it is handed to another worker "+
			"(when the workers' consumer is created; 0: 30s)")
	f.IntVar(&o.MaxDeliver, "max-deliver", 0,
		"times a job is handed out before it is reported failed (when the workers' consumer is created; 0: 5)")
	f.Var(&o.audit, "audit",
		"share of the workers' games the coordinator plays again in full and compares (every result's moves are replayed "+
			"by the rules in any case); a worker caught is quarantined")
	f.MarkHidden("ack-wait")
	f.MarkHidden("max-deliver")
}

// openRunner opens where a command's games are played
// (tuning.OpenGames): without cluster options the local pool of workers
// (0: one per core); with them the broker, and workers here too (0:
// none). Its settings' errors are usage errors.
func openRunner(ctx context.Context, co clusterOptions, workers int, p tuning.Place) (*tuning.Games, error) {
	if co.Enabled() && (workers < 0 || workers > maxWorkers) {
		return nil, usageError{fmt.Errorf("--workers %d: want 0 (none here) to %d", workers, maxWorkers)}
	}
	if !co.Enabled() && co.TokenFile == "" {
		n, err := checkWorkers(workers)
		if err != nil {
			return nil, err
		}
		workers = n
	}
	p.Cluster, p.Workers, p.Audit, p.Scores = co.Options, workers, co.audit.Share(), co.scores
	g, err := tuning.OpenGames(ctx, p)
	if err != nil {
		return nil, clusterError(err)
	}
	return g, nil
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
