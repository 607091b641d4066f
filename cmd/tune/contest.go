package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"github.com/spf13/cobra"
)

// contestOptions are the flags match and tournament share.
type contestOptions struct {
	game, evaluator, openings, gamesOut string
	engines, engineLog                  string   // --engines FILE.yaml, --engine-log FILE
	each                                []string // --each KEY=VALUE,...
	pairs, workers, maxPlies            int
	seed                                uint64
	limits                              searchLimits
	json                                bool
	adjudicate                          tournament.Adjudication
	cluster                             clusterOptions
}

func (o *contestOptions) bind(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&o.game, "game", "", "the game (see 'tune games')")
	f.StringVar(&o.evaluator, "evaluator", "", "evaluator of players given as default (default: the game's first)")
	f.IntVar(&o.pairs, "pairs", 10, fmt.Sprintf("colour-swapped pairs of games per pairing, 1-%d", maxPairs))
	o.limits.bind(f, 4)
	f.StringVar(&o.openings, "openings", "default", "openings: default (the game's own: chess's 50 named openings; random:8 for the others), random:N (N random plies, balanced), start, a book file (EPD, moves: lines, PGN/PDN/GGF), or fastchess's words file=PATH order=random start=N plies=N")
	f.IntVar(&o.workers, "workers", 0, workersHelp)
	f.IntVar(&o.workers, "concurrency", 0, "--workers under fastchess's and cutechess's name")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the generated openings")
	f.IntVar(&o.maxPlies, "max-plies", 0, fmt.Sprintf("ply cap of a game, drawn when reached, 1-%d (0: 400)", population.MaxPlyCap))
	f.StringVar(&o.gamesOut, "games-out", "", "write every game to this new file")
	a := &o.adjudicate
	f.IntVar(&a.DrawAfter, "draw-after", 0, "adjudication: draw only after this many plies")
	f.IntVar(&a.DrawPlies, "draw-plies", 0, "adjudication: draw when both engines' scores stay within --draw-margin for this many plies (0: off)")
	f.IntVar(&a.DrawMargin, "draw-margin", 0, "adjudication: the draw margin, in the evaluator's units (centipawns for chess)")
	f.IntVar(&a.ResignPlies, "resign-plies", 0, "adjudication: a side loses when the scores agree it is behind by more than --resign-margin for this many plies (0: off)")
	f.IntVar(&a.ResignMargin, "resign-margin", 0, "adjudication: the resign margin, in the evaluator's units")
	bindJSON(c, &o.json)
	f.StringVar(&o.engines, "engines", "", "a YAML list of external engines (name, cmd, proto, args, dir, options, depth|nodes|movetime|tc, ...), or cutechess's engines.json, named as players by their names")
	f.StringArrayVar(&o.each, "each", nil, "fastchess's -each: settings for every external engine, KEY=VALUE[,KEY=VALUE...] with tc, st, depth, nodes, movetime, option.NAME, proto, restart, timemargin, stall (repeatable); an engine's own setting wins")
	f.StringVar(&o.engineLog, "engine-log", "", "append the external engines' stderr to this file (default: a new file in the temporary directory)")
	o.cluster.bind(f)
}

// contest is what a match or a tournament needs, checked before any game.
// It is the tournament.Runner of its games.
type contest struct {
	game     games.Game
	openings []string
	players  []tournament.Player
	runner   *gameRunner
	records  *tournament.RecordFile // --games-out
}

// prepare checks the options, reads the engines file, draws or reads the
// openings (as moves when an external engine may play: GTP cannot set up
// a position), opens the runner, creates the games file and resolves the
// player specs (external engines checked, the runner readied for them).
func (o contestOptions) prepare(ctx context.Context, specs []string, stderr io.Writer) (*contest, error) {
	g, limits, err := o.check()
	if err != nil {
		return nil, err
	}
	each, err := external.ParseEach(strings.Join(o.each, ","))
	if err != nil {
		return nil, usageError{fmt.Errorf("--each: %w", err)}
	}
	var engines external.Engines
	if o.engines != "" {
		if engines, err = external.ReadEngines(o.engines); err != nil {
			return nil, usageError{fmt.Errorf("--engines: %w", err)}
		}
	}
	ct := &contest{game: g}
	asMoves := len(engines) > 0 || slices.ContainsFunc(specs, external.IsSpec)
	if ct.openings, err = tournament.LoadMatchOpenings(ctx, g, o.openings, o.seed, asMoves, o.pairs); err != nil {
		return nil, usageError{err}
	}
	if ct.runner, err = o.openRunner(ctx, stderr); err != nil {
		return nil, err
	}
	var anyExternal bool
	ct.players, anyExternal, err = engines.PlayersEach(ctx, g, specs, each, func(spec string) (tournament.Player, error) {
		pl, err := tournament.BuiltinPlayer(g, o.evaluator, spec, limits)
		if err != nil {
			return pl, usageError{err}
		}
		return pl, nil
	})
	if errors.Is(err, external.ErrSpec) {
		err = usageError{err}
	} else if err == nil && !anyExternal && !each.IsZero() {
		err = usageError{errors.New("--each sets external engines, and no player is one (built-in players take --depth and --nodes)")}
	} else if err == nil && anyExternal {
		err = ct.runner.useEngines(o.engineLog, stderr)
	}
	if err == nil && o.gamesOut != "" {
		if ct.records, err = tournament.OpenRecordFile(o.gamesOut, g, tournament.TimeControlTag(ct.players)); err != nil {
			err = usageError{fmt.Errorf("--games-out: %w", err)}
		}
	}
	if err != nil {
		ct.close()
		return nil, err
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
	if err := files.CheckAppendable(o.gamesOut); o.gamesOut != "" && err != nil {
		return nil, engine.Limits{}, usageError{fmt.Errorf("--games-out: %w", err)}
	}
	if o.adjudicate.Check() != nil {
		return nil, engine.Limits{}, usageError{errors.New("the adjudication settings (--draw-after, --draw-plies, --draw-margin, --resign-plies, --resign-margin) must not be negative")}
	}
	return g, limits, nil
}

// Run plays specs on the runner, writing each finished game to
// --games-out (if given) before done sees it.
func (ct *contest) Run(ctx context.Context, specs []tournament.GameSpec, done func(i int, r tournament.Record) error) error {
	return ct.runner.Run(ctx, specs, func(i int, r tournament.Record) error {
		if ct.records != nil {
			if err := ct.records.WriteGame(ct.game, specs[i].First.Name, specs[i].Second.Name, r); err != nil {
				return fmt.Errorf("--games-out: %w", err)
			}
		}
		return done(i, r)
	})
}

// finish closes the games file and returns the error the contest ends
// with: runErr, or else the file's.
func (ct *contest) finish(runErr error) error {
	if err := ct.records.Close(); err != nil && runErr == nil {
		return fmt.Errorf("--games-out: %w", err)
	}
	return runErr
}

// close releases the runner and the games file.
func (ct *contest) close() {
	ct.records.Close()
	ct.runner.Close()
}

// engineLog opens the file the external engines' stderr goes to
// (external.OpenLog), saying which when it is a new temporary file.
func engineLog(path string, stderr io.Writer) (*external.Log, error) {
	f, err := external.OpenLog(path)
	switch {
	case err != nil && path != "":
		return nil, usageError{fmt.Errorf("--engine-log: %w", err)}
	case err == nil && path == "":
		fmt.Fprintf(stderr, "engine stderr goes to %s (made when an engine writes)\n", f.Name())
	}
	return f, err
}

// openRunner returns where the games of a match or a tournament are
// played: the local pool, or the broker (a broker started here keeps its
// data in a temporary directory, removed at the end).
func (o contestOptions) openRunner(ctx context.Context, stderr io.Writer) (*gameRunner, error) {
	if o.cluster.BrokerListen == "" {
		return openRunner(ctx, o.cluster, o.workers, ephemeralName(), true, "", stderr)
	}
	store, err := os.MkdirTemp("", "tune-broker-*")
	if err != nil {
		return nil, err
	}
	r, err := openRunner(ctx, o.cluster, o.workers, ephemeralName(), true, store, stderr)
	if err != nil {
		os.RemoveAll(store)
		return nil, err
	}
	closeRunner := r.close
	r.close = func() { closeRunner(); os.RemoveAll(store) }
	return r, nil
}
