package main

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/cluster"
	"github.com/spf13/cobra"
)

type brokerOptions struct {
	listen, store, tokenFile    string
	workerKeys, tlsCert, tlsKey string
}

func runBroker(ctx context.Context, o brokerOptions, gopts globalOptions, out output) error {
	token, err := cluster.ReadToken(o.tokenFile)
	if err != nil {
		return usageError{err}
	}
	bo := cluster.BrokerOptions{Listen: o.listen, Store: o.store, Token: token, TLSCert: o.tlsCert, TLSKey: o.tlsKey}
	if o.workerKeys != "" {
		if bo.WorkerKeys, err = cluster.ReadWorkerKeys(o.workerKeys); err != nil {
			return usageError{err}
		}
	}
	b, err := cluster.StartBroker(bo)
	if err != nil {
		return usageError{err}
	}
	defer b.Close()
	fmt.Fprintf(out.Stdout, "broker listening at %s (data in %s)\n", b.URL(), o.store)
	<-ctx.Done()
	return ctx.Err()
}

func newBrokerCommand(g *globalOptions) *cobra.Command {
	var o brokerOptions
	c := command("broker --listen HOST:PORT --store DIR --token-file F",
		"Run a NATS broker with JetStream for workers and coordinators",
		`broker runs an embedded NATS server with JetStream, its data in DIR, for users
who run none of their own. Coordinators ('tune run --nats') publish games there;
workers ('tune worker') play them. Every client needs the token in F, except
workers with keys of their own listed in --worker-keys (one public key a line,
from 'tune worker --new-key'), which may only play games. With --tls-cert and
--tls-key every client must speak TLS (clients: --tls-ca). It runs until
interrupted; finished results and queued jobs stay in DIR.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runBroker(ctx, o, *g, out) })
	f := c.Flags()
	f.StringVar(&o.listen, "listen", "127.0.0.1:4222", "address to listen on, HOST:PORT")
	f.StringVar(&o.store, "store", "", "directory of the broker's data (created if missing)")
	f.StringVar(&o.tokenFile, "token-file", "", "file holding the token every client must give")
	f.StringVar(&o.workerKeys, "worker-keys", "",
		"file of workers' public keys: those workers may connect without the token, to play games only")
	f.StringVar(&o.tlsCert, "tls-cert", "", "the broker's certificate chain (PEM): clients must speak TLS")
	f.StringVar(&o.tlsKey, "tls-key", "", "the key of --tls-cert (PEM, readable by its owner only)")
	return c
}
