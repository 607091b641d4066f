package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"time"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// A run of Learn with a State file can be interrupted and started again
// with the same Config: it continues the round it was interrupted in and
// ends with the tables an uninterrupted run gives.
//
// The state file is a weights file of the current weights (tables in
// float32, exact) whose source holds the run's progress (a runState):
// written before round 0 and after each round. The self-play games go to
// the positions file (Config.PositionsFile, or the State file's own, State+".games", until
// RemoveState) as they finish, every quarter second at most and when the
// round ends or is interrupted: an interruption (SIGINT) keeps every game
// finished before the first unfinished one; a kill (SIGKILL) loses, besides
// the games in flight, those finished in its last quarter second, and a
// kill in the middle of an append leaves a last block cut short, which the
// run started again cuts from the file. Started again, a run reads its
// state, finds the games it played in the positions file, draws again the openings
// of those games (checking that the positions file's games open from them: a positions file
// that does not continue the run is refused) and plays the rest: every
// game depends on the seed and its index alone (SelfPlay), so the games,
// the fits and the gates are the uninterrupted run's.

// flushEvery is how often a round appends its finished games to the positions file:
// a block's header (some 27 bytes) and a sync each time.
const flushEvery = 250 * time.Millisecond

// learner is a run of Learn: its Config, its plan and where its games go.
type learner struct {
	cfg       Config
	plan      plan
	gamesFile string // the positions file the games are appended to; "" for none
	settings  string
	fileGames int
	endPlay   EndPlay         // the run's: Config.EndPlay, its default, or its state's
	first     int             // the index of the next self-play game
	seen      map[uint64]bool // SelfPlayOptions.Seen
	partial   int             // the games of the next round the positions file holds already
}

// gamesPath is where the games of cfg go: its PositionsFile, else the State
// file's own positions file, else nowhere ("").
func gamesPath(cfg Config) string {
	if cfg.PositionsFile == "" && cfg.State != "" {
		return cfg.State + ".games"
	}
	return cfg.PositionsFile
}

// start checks that the run's files can be written, reads the positions file and,
// when the State file holds the state of an interrupted run of the same
// settings, continues it: the rounds done, the current weights, the games
// played. Otherwise the run starts afresh and its state is written.
func start(ctx context.Context, cfg Config, p plan) (*learner, *Result, error) {
	l := &learner{cfg: cfg, plan: p, gamesFile: gamesPath(cfg), seen: map[uint64]bool{}, endPlay: cmp.Or(cfg.EndPlay, EndPlaySolver)}
	if l.gamesFile != "" {
		if err := files.CheckAppendable(l.gamesFile); err != nil {
			return nil, nil, fmt.Errorf("%w: positions file: %v", ErrConfig, err)
		}
	}
	var st *runState
	if cfg.State != "" {
		if err := files.CheckWritable(cfg.State, true); err != nil {
			return nil, nil, fmt.Errorf("%w: the run's state: %v", ErrConfig, err)
		}
		l.settings = fingerprint(cfg)
		var err error
		if st, err = l.readState(); err != nil {
			return nil, nil, err
		}
	}
	set, err := l.readPositionsFile(ctx, st != nil)
	if err != nil {
		return nil, nil, err
	}
	set.Lambda = cfg.Lambda
	res := &Result{Evaluator: cfg.Evaluator, Data: cfg.Evaluator.Data, Weights: cfg.Weights, Set: set}
	l.first, l.fileGames = len(set.Games), len(set.Games)
	switch {
	case cfg.State == "":
		return l, res, nil
	case st == nil:
		return l, res, l.save(res)
	}
	if res.Evaluator, err = cfg.Evaluator.WithData(st.data); err != nil {
		return nil, nil, err
	}
	res.Data, res.Weights = res.Evaluator.Data, st.weights
	l.fileGames, l.first = st.FileGames, st.FileGames
	res.Rounds, res.Played, l.endPlay = st.Rounds, st.Played, st.EndPlay
	return l, res, l.resume(ctx, res)
}

// readPositionsFile reads the run's positions file (an empty Set when it has none). When the
// run goes on from its state (resuming), a last block cut short by a kill
// in the middle of an append is cut from the file: its games are played
// again.
func (l *learner) readPositionsFile(ctx context.Context, resuming bool) (*Set, error) {
	if l.gamesFile == "" {
		return &Set{Game: l.cfg.Game}, nil
	}
	set, err := openPositionsFile(ctx, l.gamesFile, l.cfg.Game)
	var cut *truncatedError
	if resuming && errors.As(err, &cut) {
		if terr := os.Truncate(l.gamesFile, cut.start); terr != nil {
			return nil, fmt.Errorf("%w (and cutting it there: %v)", err, terr)
		}
		return openPositionsFile(ctx, l.gamesFile, l.cfg.Game)
	}
	return set, err
}

// resume finds in the positions file the games of the rounds done and of the round
// interrupted, and draws their openings again (as SelfPlay noted them in
// Seen when it played them).
func (l *learner) resume(ctx context.Context, res *Result) error {
	done := 0
	for _, r := range res.Rounds {
		done += r.SelfPlay
	}
	set := res.Set
	stored := len(set.Games) - l.fileGames
	if stored < done {
		return fmt.Errorf("%w: %s holds %d games, and the interrupted run had played %d after its first %d: it lost games since (remove %s to start afresh)",
			ErrBadPositionsFile, l.gamesFile, len(set.Games), done, l.fileGames, l.cfg.State)
	}
	l.partial = stored - done
	if r := len(res.Rounds); r < l.cfg.Rounds && l.partial > l.plan.selfPlay(r, res.Played) || r == l.cfg.Rounds && l.partial > 0 {
		return fmt.Errorf("%w: %s holds %d games more than the interrupted run played (remove %s to start afresh)", ErrBadPositionsFile, l.gamesFile, l.partial, l.cfg.State)
	}
	cur := l.endPlay.Player(l.cfg.Game, tournament.Player{Evaluator: res.Evaluator, Weights: res.Weights, Limits: l.cfg.Limits})
	return l.redraw(ctx, cur, set.Games[l.fileGames:])
}

// redraw draws the openings of the games stored (noting them in l.seen) as
// SelfPlay drew them, playing none, and checks that each stored game opens
// from its own.
func (l *learner) redraw(ctx context.Context, cur tournament.Player, stored []Game) error {
	var drawn specsOnly
	if _, err := SelfPlay(ctx, &drawn, l.cfg.Game, cur, l.selfPlayOptions(len(stored), l.first, l.seen)); err != nil {
		return err
	}
	if len(drawn.specs) != len(stored) {
		return fmt.Errorf("learn: %d openings drawn again for %d games", len(drawn.specs), len(stored))
	}
	for i, spec := range drawn.specs {
		if !opensFrom(l.cfg.Game, stored[i], spec.Opening) {
			return fmt.Errorf("%w: %s: game %d does not open from the position the interrupted run drew for it (%s): the file does not continue that run (remove %s to start afresh)",
				ErrBadPositionsFile, l.gamesFile, l.fileGames+i+1, spec.Opening, l.cfg.State)
		}
	}
	l.first += len(stored)
	return nil
}

// selfPlayOptions are the options of n self-play games from game first.
func (l *learner) selfPlayOptions(n, first int, seen map[uint64]bool) SelfPlayOptions {
	return SelfPlayOptions{Games: n, Seed: l.cfg.Seed, First: first, Seen: seen}
}

// opensFrom says whether g's moves pass through the position opening.
func opensFrom(g games.Game, game Game, opening string) bool {
	target, err := g.ParsePosition(opening)
	if err != nil {
		return false
	}
	p, h := g.Start(), target.Hash()
	for i := 0; ; i++ {
		if p.Hash() == h && p.String() == opening {
			return true
		}
		if i == len(game.Moves) {
			return false
		}
		p.Play(game.Moves[i])
	}
}

// specsOnly is a Runner that keeps the specs it is given and plays none.
type specsOnly struct{ specs []tournament.GameSpec }

func (s *specsOnly) Run(_ context.Context, specs []tournament.GameSpec, _ func(int, tournament.Record) error) error {
	s.specs = append(s.specs, specs...)
	return nil
}

// selfPlay plays the self-play games of round r, n in all, of which the
// positions file holds the first l.partial already (an interrupted round's), and
// returns the new ones; each is appended to the positions file as it finishes.
func (l *learner) selfPlay(ctx context.Context, r, n int, cur tournament.Player, progress func(string, int, int)) ([]Game, error) {
	k := l.partial
	l.partial = 0
	first := l.first - k // redraw counted the k games stored already
	l.first = first + n
	if k == n {
		return nil, nil
	}
	runner := l.cfg.Runner
	var keep *appender
	if l.gamesFile != "" {
		keep = &appender{l: l, inner: runner, cur: cur, shadow: maps.Clone(l.seen), next: first + k, last: time.Now()}
		runner = keep
	}
	opts := l.selfPlayOptions(n-k, first+k, l.seen)
	opts.Played = func(i int) {
		if i += k; i == n || i*10/n != (i-1)*10/n {
			progress("self-play", i, n)
		}
	}
	gs, err := SelfPlay(ctx, runner, l.cfg.Game, cur, opts)
	if keep != nil {
		if ferr := keep.flush(); err == nil {
			err = ferr
		}
	}
	return gs, err
}

// appender is the Runner of a round's self-play when its games go to a
// positions file: it hands each finished game to SelfPlay, makes the same game
// again from its record (SelfPlay of that one game, on a copy of Seen, from
// the record), and appends it to the positions file, each flushEvery and at the end.
type appender struct {
	l       *learner
	inner   tournament.Runner
	cur     tournament.Player
	shadow  map[uint64]bool // Seen, as SelfPlay drew the games delivered
	next    int             // the index of the next game delivered
	pending []Game
	last    time.Time
}

func (a *appender) Run(ctx context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	return a.inner.Run(ctx, specs, func(i int, rec tournament.Record) error {
		if err := done(i, rec); err != nil {
			return err
		}
		// Not cancelled: the games finished before an interruption are kept.
		gs, err := SelfPlay(context.WithoutCancel(ctx), recorded{specs[i], rec}, a.l.cfg.Game, a.cur, a.l.selfPlayOptions(1, a.next, a.shadow))
		if err != nil {
			return fmt.Errorf("learn: keeping self-play game %d: %w", a.next, err)
		}
		a.next++
		a.pending = append(a.pending, gs...)
		if time.Since(a.last) >= flushEvery {
			return a.flush()
		}
		return nil
	})
}

// flush appends the games pending to the positions file.
func (a *appender) flush() error {
	a.last = time.Now()
	if len(a.pending) == 0 {
		return nil
	}
	if err := AppendPositionsFile(a.l.gamesFile, a.l.cfg.Game, a.pending); err != nil {
		return err
	}
	a.pending = a.pending[:0]
	return nil
}

// recorded is a Runner that hands back the record of a game played: the
// game SelfPlay draws must be the one its spec says.
type recorded struct {
	spec tournament.GameSpec
	rec  tournament.Record
}

func (r recorded) Run(_ context.Context, specs []tournament.GameSpec, done func(int, tournament.Record) error) error {
	if len(specs) != 1 || specs[0].Opening != r.spec.Opening || specs[0].Seed != r.spec.Seed {
		return errors.New("the game drawn again is not the one played")
	}
	return done(0, r.rec)
}
