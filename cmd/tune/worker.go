package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/cluster"
	"github.com/spf13/cobra"
)

type workerOptions struct {
	cluster cluster.Options
	workers int
	name    string
}

func runWorker(ctx context.Context, o workerOptions, gopts globalOptions, out output) error {
	if o.cluster.NATS == "" {
		return usageError{fmt.Errorf("worker: --nats URL is required (a broker: 'tune broker' starts one)")}
	}
	n, err := checkWorkers(o.workers)
	if err != nil {
		return err
	}
	w, err := o.cluster.OpenWorker(ctx, cluster.WorkerOptions{Workers: n, Name: o.name, Log: out.Stderr})
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
	c := command("worker --nats URL --token-file F [--workers N]", "Play the games of every run queued on a NATS broker",
		`worker pulls games from the broker (of every run whose coordinator uses it),
plays them with its own engines and publishes the results. A game's result depends
on the game alone, so it does not matter which worker plays it. On Ctrl-C the games
in flight go back to the queue for other workers.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runWorker(ctx, o, *g, out) })
	f := c.Flags()
	f.StringVar(&o.cluster.NATS, "nats", "", "the broker's URL, nats://HOST:PORT")
	f.StringVar(&o.cluster.TokenFile, "token-file", "", "file holding the broker's token")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.StringVar(&o.name, "name", "", "this worker's name in results (default: host and process id)")
	f.DurationVar(&o.cluster.AckWait, "ack-wait", 0, "see 'tune run'")
	f.IntVar(&o.cluster.MaxDeliver, "max-deliver", 0, "see 'tune run'")
	f.MarkHidden("ack-wait")
	f.MarkHidden("max-deliver")
	return c
}
