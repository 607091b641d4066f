package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/tournament/external"
	"github.com/spf13/cobra"
)

type workerOptions struct {
	cluster cluster.Options
	wo      cluster.WorkerOptions
	newKey  string
	engines string // the engines file of the external engines this worker may run
}

func runWorker(ctx context.Context, o workerOptions, gopts globalOptions, out output) error {
	if o.newKey != "" {
		pub, err := cluster.NewWorkerKey(o.newKey)
		if err != nil {
			return usageError{err}
		}
		fmt.Fprintf(out.Stdout, "%s\n", pub)
		fmt.Fprintf(out.Stderr, "worker key written to %s; add the line above to the broker's --worker-keys file\n", o.newKey)
		return nil
	}
	if o.cluster.NATS == "" {
		return usageError{fmt.Errorf("worker: --nats URL is required (a broker: 'tune broker' starts one)")}
	}
	n, err := checkWorkers(o.wo.Workers)
	if err == nil && o.engines != "" {
		if o.wo.Engines, err = external.ReadEngines(o.engines); err != nil {
			err = usageError{fmt.Errorf("worker: --engines: %w", err)}
		}
	}
	if err != nil {
		return err
	}
	o.wo.Workers, o.wo.Log = n, out.Stderr
	w, err := o.cluster.OpenWorker(ctx, o.wo)
	if err != nil {
		return clusterError(err)
	}
	defer w.Close()
	if !gopts.quiet {
		fmt.Fprintf(out.Stderr, "worker %s: playing %d games at once from %s\n", w.Name(), n, o.cluster.NATS)
	}
	if err := w.Run(ctx); err != nil {
		return err
	}
	if !gopts.quiet {
		fmt.Fprintf(out.Stderr, "worker %s: %d games played; stopped\n", w.Name(), w.Played())
	}
	return ctx.Err()
}

func newWorkerCommand(g *globalOptions) *cobra.Command {
	var o workerOptions
	c := command("worker --nats URL (--token-file F | --key-file K) [--workers N]",
		"Play the games of every run queued on a NATS broker",
		`worker pulls games from the broker (of every run whose coordinator uses it),
plays them with its own engines and publishes the results. A game's result depends
on the game alone, so it does not matter which worker plays it. On Ctrl-C the games
in flight go back to the queue for other workers. It refuses games beyond its
--max-depth, --max-hash and --max-plies (they go to another worker, and fail their
run after 5 refusals), and gives up a game past its job's deadline.
--new-key K writes a worker key to K and prints its public key for the broker's
--worker-keys file: with --key-file K the worker may only play games.
It runs no external engine but those --engines FILE lists (an engines file as
'tune match' reads, with this machine's paths; the job's limit is used), a job's
engine matched by name and binary (SHA-256), or with --accept-engines (off by
default) a binary a coordinator uploaded. Clock games play at most one per core.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runWorker(ctx, o, *g, out) })
	f := c.Flags()
	f.StringVar(&o.cluster.NATS, "nats", "", "the broker's URL, nats://HOST:PORT")
	f.StringVar(&o.cluster.TokenFile, "token-file", "", "file holding the broker's token")
	f.StringVar(&o.cluster.WorkerKeyFile, "key-file", "", "this worker's key (see --new-key), instead of --token-file")
	f.StringVar(&o.newKey, "new-key", "", "write a new worker key to this file, print its public key and exit")
	f.StringVar(&o.cluster.TLSCA, "tls-ca", "", "PEM certificates that sign the broker's (a broker with TLS)")
	f.IntVar(&o.wo.Limits.Depth, "max-depth", cluster.DefaultMaxDepth, "refuse games searched deeper than this (plies)")
	f.IntVar(&o.wo.Limits.TableMiB, "max-hash", cluster.DefaultMaxTableMiB,
		"refuse games whose table is larger than this (MiB per game at once)")
	f.IntVar(&o.wo.Limits.Plies, "max-plies", cluster.DefaultMaxPlies, "refuse games whose ply cap is larger than this")
	f.IntVar(&o.wo.Workers, "workers", 0, workersHelp)
	f.StringVar(&o.wo.ArtifactDir, "cache", "", fmt.Sprintf("folder of the tables fetched from the broker, kept at most "+
		"%d GiB (default: gametune/artifacts in the user's cache folder)", cluster.DefaultArtifactCache>>30))
	f.StringVar(&o.engines, "engines", "", "engines file of the external engines this worker may run (default: none)")
	f.BoolVar(&o.wo.AcceptEngines, "accept-engines", false, "also run an engine binary a coordinator uploaded "+
		"(--upload-engines) that --engines does not list: code from anyone holding the broker's token runs on this "+
		"machine (off by default)")
	f.StringVar(&o.wo.Name, "name", "", "this worker's name in results (default: host and process id; "+
		"with --key-file: its public key, always)")
	f.DurationVar(&o.cluster.AckWait, "ack-wait", 0, "see 'tune run'")
	f.IntVar(&o.cluster.MaxDeliver, "max-deliver", 0, "see 'tune run'")
	f.MarkHidden("ack-wait")
	f.MarkHidden("max-deliver")
	return c
}
