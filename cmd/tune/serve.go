package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gametune/gametune/web"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	runs, listen, tokenFile string
	insecure                bool
	poll                    time.Duration
}

func runServe(ctx context.Context, o serveOptions, gopts globalOptions, out output) error {
	token, err := web.ReadToken(o.tokenFile)
	if err != nil {
		return usageError{err}
	}
	if o.poll < 50*time.Millisecond {
		return usageError{fmt.Errorf("serve: --poll %v is too short (50ms at least)", o.poll)}
	}
	s, ln, err := web.Open(o.runs, o.listen, web.Options{Token: token, Poll: o.poll}, o.insecure)
	if err != nil {
		return usageError{err}
	}
	if !gopts.quiet {
		note := ""
		if token != "" {
			note = " (open /?token=TOKEN once in a browser; scripts send Authorization: Bearer TOKEN)"
		}
		fmt.Fprintf(out.Stdout, "serving the runs in %s at http://%s/%s; Ctrl-C stops\n", o.runs, ln.Addr(), note)
	}
	return web.Serve(ctx, ln, s)
}

func newServeCommand(g *globalOptions) *cobra.Command {
	var o serveOptions
	c := command("serve [--runs DIR] [--listen 127.0.0.1:8080]",
		"Serve a live, read-only dashboard of the runs in a folder (web pages and a JSON API)",
		`serve shows the runs in a folder in a browser, live: the runs list, and for each run
its report (config, best weights, ladder, yardstick, plots) with its last games, updated
by server-sent events when a generation closes or a ladder is recorded. The best genome
is the one runs, show, export and the report name. /api/runs and /api/runs/ID give the
same data as JSON. Nothing a request does changes a run.

It listens on the loopback address unless told otherwise; any other address needs
--token-file (a bearer token required on every request; a browser opens
/?token=TOKEN once) or --insecure.`,
		cobra.NoArgs, func(ctx context.Context, out output) error { return runServe(ctx, o, *g, out) })
	f := c.Flags()
	f.StringVar(&o.runs, "runs", "runs", "folder of run directories")
	f.StringVar(&o.listen, "listen", "127.0.0.1:8080", "address to listen on, host:port")
	f.StringVar(&o.tokenFile, "token-file", "",
		"file holding the bearer token every request must bring (not readable by others)")
	f.BoolVar(&o.insecure, "insecure", false, "allow a non-loopback address without a token")
	f.DurationVar(&o.poll, "poll", time.Second, "how often a live page's run is checked for a new generation")
	return c
}
