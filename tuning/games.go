package tuning

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/gametune/gametune/cluster"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// PoolTableMiB is the transposition table of each worker playing games:
// small, because games at tuning depths fill little of it and two large
// tables fight over the processor's caches (2 workers on Othello at depth
// 4: 1.5x the games/s of one worker with 4 MiB tables, 1.9x with 1 MiB).
const PoolTableMiB = 2

// Place says where a command's games are played (OpenGames).
type Place struct {
	// Cluster is the broker the games go through; without one
	// (cluster.Options.Enabled false) they are played on the local pool.
	Cluster cluster.Options
	// Workers is the games played here at once: on the local pool 0 means
	// one per core; beside a broker 0 means none here.
	Workers int
	// Audit is the share of the workers' games audited
	// (cluster.RunnerOptions.Audit).
	Audit float64
	// Run names the games on the broker (cluster.RunName for a run,
	// cluster.MatchName for a match); Ephemeral when they go with the
	// command (a match, a tournament).
	Run       string
	Ephemeral bool
	// BrokerStore is where a broker started here (Cluster.BrokerListen)
	// keeps its data; "" for a temporary directory, removed on Close.
	BrokerStore string
	// Log receives the broker's and the cluster's notes.
	Log io.Writer
	// Scores asks the workers' results for the movers' scores
	// (cluster.RunnerOptions.Scores).
	Scores bool
}

// Games plays a command's games, on the local pool or through a broker:
// a Runner, and what a command asks of it besides.
type Games struct {
	tournament.Runner
	close   func()
	cluster *cluster.Runner  // nil for the local pool
	pool    *tournament.Pool // nil for the cluster
}

// OpenGames opens where the games of p are played. The errors of settings
// that cannot work are *cluster.SettingsError.
func OpenGames(ctx context.Context, p Place) (*Games, error) {
	if !p.Cluster.Enabled() {
		if p.Cluster.TokenFile != "" {
			return nil, &cluster.SettingsError{Err: errors.New("--token-file needs --nats or --broker-listen")}
		}
		pool, err := tournament.NewPool(p.Workers, PoolTableMiB)
		if err != nil {
			return nil, &cluster.SettingsError{Err: err}
		}
		return &Games{Runner: pool, close: func() { pool.Close() }, pool: pool}, nil
	}
	store, temporary := p.BrokerStore, false
	if store == "" && p.Cluster.BrokerListen != "" {
		dir, err := os.MkdirTemp("", "tune-broker-*")
		if err != nil {
			return nil, err
		}
		store, temporary = dir, true
	}
	ro := cluster.RunnerOptions{Run: p.Run, TableMiB: PoolTableMiB, Workers: p.Workers, Ephemeral: p.Ephemeral, Log: p.Log, Audit: p.Audit,
		Scores: p.Scores}
	r, err := p.Cluster.Open(ctx, ro, store, p.Log)
	if err != nil {
		if temporary {
			os.RemoveAll(store)
		}
		return nil, err
	}
	g := &Games{Runner: r, close: func() { r.Close() }, cluster: r}
	if temporary {
		g.close = func() { r.Close(); os.RemoveAll(store) }
	}
	return g, nil
}

// Workers is the local pool's number of workers (0 through a broker).
func (g *Games) Workers() int {
	if g.pool == nil {
		return 0
	}
	return g.pool.Workers()
}

// UseEngines readies the games for external engine players: their stderr
// goes to the log open returns, closed with the games. On a cluster the
// workers' operators allow them (cluster.WorkerOptions.Engines) and keep
// their logs: open is not called.
func (g *Games) UseEngines(open func() (*external.Log, error)) error {
	if g.pool == nil {
		return nil
	}
	log, err := open()
	if err != nil {
		return err
	}
	g.pool.SetEngineLog(log)
	closeRunner := g.close
	g.close = func() { closeRunner(); log.Close() }
	return nil
}

// Close releases the games' runner (and the broker it started, if any).
func (g *Games) Close() { g.close() }

// Report prints the games each worker played, for a cluster's games.
func (g *Games) Report(w io.Writer) {
	if g.cluster != nil {
		g.cluster.WriteGamesByWorker(w)
	}
}
