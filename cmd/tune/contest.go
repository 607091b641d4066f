package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"github.com/spf13/cobra"
)

// contestOptions are the flags match and tournament share.
type contestOptions struct {
	game       string
	evaluator  string
	pairs      int
	limits     searchLimits
	openings   string
	workers    int
	seed       uint64
	maxPlies   int
	gamesOut   string
	json       bool
	adjudicate tournament.Adjudication
	cluster    clusterOptions
	engines    string // --engines FILE.yaml
	engineLog  string
}

func (o *contestOptions) bind(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.game, "game", "", "the game (see 'tune games')")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator of players given as default (default: the game's first)")
	f.IntVar(&o.pairs, "pairs", 10, fmt.Sprintf("colour-swapped pairs of games per pairing, 1-%d", maxPairs))
	o.limits.bind(f, 4)
	f.StringVar(&o.openings, "openings", "random:8", "openings: random:N (N random plies, balanced), a file of positions, or start")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.Uint64Var(&o.seed, "seed", 1, "seed of the generated openings")
	f.IntVar(&o.maxPlies, "max-plies", 0, fmt.Sprintf("ply cap of a game, drawn when reached, 1-%d (0: 400)", population.MaxPlyCap))
	f.StringVar(&o.gamesOut, "games-out", "", "write every game to this new file")
	a := &o.adjudicate
	f.IntVar(&a.DrawAfter, "draw-after", 0, "adjudication: draw only after this many plies")
	f.IntVar(&a.DrawPlies, "draw-plies", 0, "adjudication: draw when both engines' scores stay within --draw-margin for this many plies (0: off)")
	f.IntVar(&a.DrawMargin, "draw-margin", 0, "adjudication: the draw margin, in the evaluator's units (centipawns for chess)")
	f.IntVar(&a.ResignPlies, "resign-plies", 0, "adjudication: a side loses when the scores agree it is behind by more than --resign-margin for this many plies (0: off)")
	f.IntVar(&a.ResignMargin, "resign-margin", 0, "adjudication: the resign margin, in the evaluator's units")
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.StringVar(&o.engines, "engines", "", "a YAML list of external engines (name, cmd, proto, args, dir, options, depth|nodes|movetime|tc, ...), named as players by their names")
	f.StringVar(&o.engineLog, "engine-log", "", "append the external engines' stderr to this file (default: a new file in the temporary directory)")
	o.cluster.bind(f)
}

// contest is what a match or a tournament needs, checked before any game.
type contest struct {
	opts     contestOptions
	game     games.Game
	openings []string
	limits   engine.Limits
	runner   *gameRunner
	engines  external.Engines // --engines
	external bool             // an external engine plays
	records  *tournament.RecordFile
	stderr   io.Writer
}

// prepare checks the options, reads the engines file, draws or reads the
// openings (as moves when an external engine may play: GTP cannot set up
// a position), opens the runner and creates the games file. players are
// the player specs of the command line.
func (o contestOptions) prepare(ctx context.Context, players []string, stderr io.Writer) (*contest, error) {
	g, limits, err := o.check()
	if err != nil {
		return nil, err
	}
	ct := &contest{opts: o, game: g, limits: limits, stderr: stderr}
	if ct.engines, err = readEngines(o.engines); err != nil {
		return nil, err
	}
	asMoves := len(ct.engines) > 0 || slices.ContainsFunc(players, external.IsSpec)
	if ct.openings, err = tournament.LoadOpenings(ctx, g, o.openings, o.seed, asMoves); err != nil {
		return nil, usageError{err}
	}
	if ct.runner, err = o.openRunner(ctx, stderr); err != nil {
		return nil, err
	}
	if o.gamesOut != "" {
		ct.records, err = tournament.CreateRecordFile(o.gamesOut, g)
		if errors.Is(err, os.ErrExist) {
			err = fmt.Errorf("--games-out %s exists; choose a new file", o.gamesOut)
		}
		if err != nil {
			ct.runner.Close()
			return nil, usageError{err}
		}
	}
	return ct, nil
}

// check checks the options that need no file: the game, the pairs, the
// limits, the workers, the ply cap and the adjudication.
func (o contestOptions) check() (games.Game, engine.Limits, error) {
	if o.game == "" {
		return nil, engine.Limits{}, usageError{errors.New("--game is required (see 'tune games')")}
	}
	g, err := findGame(o.game)
	if err != nil {
		return nil, engine.Limits{}, err
	}
	if o.pairs < 1 || o.pairs > maxPairs {
		return nil, engine.Limits{}, usageError{fmt.Errorf("--pairs %d: want 1 to %d", o.pairs, maxPairs)}
	}
	limits, err := o.limits.limits()
	if err != nil {
		return nil, engine.Limits{}, err
	}
	if !o.cluster.enabled() {
		if _, err := checkWorkers(o.workers); err != nil {
			return nil, engine.Limits{}, err
		}
	}
	if o.maxPlies < 0 || o.maxPlies > population.MaxPlyCap {
		return nil, engine.Limits{}, usageError{fmt.Errorf("--max-plies %d: want 1 to %d, or 0 for 400", o.maxPlies, population.MaxPlyCap)}
	}
	if o.adjudicate.Check() != nil {
		return nil, engine.Limits{}, usageError{errors.New("the adjudication settings (--draw-after, --draw-plies, --draw-margin, --resign-plies, --resign-margin) must not be negative")}
	}
	return g, limits, nil
}

// readEngines reads the --engines file (none: no engines).
func readEngines(path string) (external.Engines, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engines: %w", err)}
	}
	en, err := external.ParseEngines(data)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engines %s: %w", path, err)}
	}
	return en, nil
}

// players resolves player SPECs: an external engine (cmd=..., or a name
// from --engines; checked, the runner readied for it), "default",
// "default:EVALUATOR" or a weights file.
func (ct *contest) players(ctx context.Context, specs []string) ([]tournament.Player, error) {
	out := make([]tournament.Player, len(specs))
	for i, spec := range specs {
		pl, ok, err := ct.engines.Player(ctx, ct.game, spec)
		switch {
		case errors.Is(err, external.ErrSpec):
			return nil, usageError{err}
		case err != nil:
			return nil, err
		case !ok:
			if pl, err = contestant(ct.game, ct.opts.evaluator, spec, ct.limits); err != nil {
				return nil, err
			}
		case !ct.external:
			if err := ct.runner.useEngines(ct.opts.engineLog, ct.stderr); err != nil {
				return nil, err
			}
			ct.external = true
		}
		out[i] = pl
	}
	return out, nil
}

// contestant resolves a built-in player SPEC: "default",
// "default:EVALUATOR" or a weights file.
func contestant(g games.Game, evaluator, spec string, lim engine.Limits) (tournament.Player, error) {
	name := spec
	if e, ok := strings.CutPrefix(spec, "default:"); ok {
		evaluator, spec = e, "default"
	}
	ev, w, err := player(g, evaluator, spec)
	if err != nil {
		return tournament.Player{}, err
	}
	if spec == "default" || spec == "" {
		name = "default:" + ev.Name
	}
	return tournament.Player{Name: name, Evaluator: ev, Weights: w, Limits: lim}, nil
}

// writeGame writes a finished game to --games-out, if given.
func (ct *contest) writeGame(spec tournament.GameSpec, r tournament.Record) error {
	if ct.records == nil {
		return nil
	}
	if err := ct.records.WriteGame(ct.game, spec.First.Name, spec.Second.Name, r); err != nil {
		return fmt.Errorf("--games-out: %w", err)
	}
	return nil
}

// finish closes the games file and returns the error the contest ends
// with: runErr, or else the file's.
func (ct *contest) finish(runErr error) error {
	if ct.records != nil {
		if err := ct.records.Close(); err != nil && runErr == nil {
			return fmt.Errorf("--games-out: %w", err)
		}
	}
	return runErr
}

// close releases the runner and the games file.
func (ct *contest) close() {
	if ct.records != nil {
		ct.records.Close()
	}
	ct.runner.Close()
}

// engineLog opens the file the external engines' stderr goes to: path,
// or a new file in the temporary directory when path is empty.
func engineLog(path string, stderr io.Writer) (*os.File, error) {
	if path == "" {
		f, err := os.CreateTemp("", "gametune-engines-"+time.Now().Format("20060102-150405")+"-*.log")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "engine stderr goes to %s\n", f.Name())
		return f, nil
	}
	f, err := os.OpenFile(filepath.Clean(path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, usageError{fmt.Errorf("--engine-log: %w", err)}
	}
	return f, nil
}

// openRunner returns where the games of a match or a tournament are
// played: the local pool, or the broker (a broker started here keeps its
// data in a temporary directory, removed at the end).
func (o contestOptions) openRunner(ctx context.Context, stderr io.Writer) (*gameRunner, error) {
	store := ""
	if o.cluster.BrokerListen != "" {
		dir, err := os.MkdirTemp("", "tune-broker-*")
		if err != nil {
			return nil, err
		}
		store = dir
	}
	r, err := openRunner(ctx, o.cluster, o.workers, ephemeralName(), true, store, stderr)
	if store == "" {
		return r, err
	}
	if err != nil {
		os.RemoveAll(store)
		return nil, err
	}
	closeRunner := r.close
	r.close = func() { closeRunner(); os.RemoveAll(store) }
	return r, nil
}
