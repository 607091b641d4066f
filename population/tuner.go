package population

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// Tuner runs one tuning job: the genetic algorithm or knockout tournaments,
// as its Config says.
type Tuner struct {
	cfg      Config
	game     games.Game
	ev       *games.Evaluator
	space    space
	start    []float64 // starting weights; nil for none
	openings []string
	run      tournament.Runner // plays batches of games: the local pool, or another transport
	store    Store
	// makePlayer, if set, makes the players of genomes (an external
	// engine's); nil means built-in players of ev.
	makePlayer func(name string, w []float64) tournament.Player

	spent    int            // games of the run so far, played or found in the store
	yard     yardstickPanel // every yardstick game so far
	champion []Generation   // each closed generation, with its champion only (for the ladder)

	// TexelData, if set, are games and positions Texel's fit uses besides
	// its own self-play games (from other runs, or a positions file).
	TexelData TexelData

	// Elapsed, if set, returns the time spent on the run so far, earlier
	// sessions included, for the time budget; nil means the time since Run
	// began.
	Elapsed func() time.Duration

	// OnGame, if set, is called after every game is known (played or found
	// in the store) with the games known and the total of the current batch.
	OnGame func(p Progress)
	// OnGeneration, if set, is called when a generation or round closes.
	OnGeneration func(g Generation)
}

// Progress describes where a run is.
type Progress struct {
	Stage      string // StageGeneration, StageYardstick or StageKnockout
	Generation int
	Done       int  // games known in this batch
	Total      int  // games in this batch
	Played     bool // the last game was played now (not found in the store)
}

// Result is the outcome of a run.
type Result struct {
	Best        Genome // the last generation's champion
	Generations int    // generations or rounds completed
	Converged   bool
	Stop        string     // why the run ended (Generation.Stop)
	Yardstick   *Yardstick // the last one measured
	Ladder      *Ladder    // the ladder played at the end; nil with ladder-pairs -1
	Spent       int        // games of the run, the ladder's included
}

// NewTuner checks cfg and returns a tuner for game g. openings are
// positions in the game's notation (none: every game from the start), each
// checked: a finished game is refused with its line in the list; start
// is the starting weights (nil: random for genetic, zeros for knockout),
// already checked against the evaluator.
func NewTuner(cfg Config, g games.Game, openings []string, start []float64, run tournament.Runner, store Store) (*Tuner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.Name() != cfg.Game {
		return nil, fmt.Errorf("population: config is for game %q, not %q", cfg.Game, g.Name())
	}
	if cfg.TuneEngine != "" {
		return nil, fmt.Errorf("population: a run tuning an engine's options is made by NewEngineTuner")
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return nil, err
	}
	return newTuner(cfg, g, ev, openings, start, run, store)
}

func newTuner(cfg Config, g games.Game, ev *games.Evaluator, openings []string, start []float64, run tournament.Runner, store Store) (*Tuner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.Name() != cfg.Game {
		return nil, fmt.Errorf("population: config is for game %q, not %q", cfg.Game, g.Name())
	}
	for _, f := range ev.Features {
		if !(f.Min <= f.Max) {
			return nil, fmt.Errorf("population: feature %q has range [%g, %g] with min > max", f.Name, f.Min, f.Max)
		}
	}
	if start != nil {
		if err := ev.Check(start); err != nil {
			return nil, fmt.Errorf("population: start weights: %w", err)
		}
	}
	for i, op := range openings {
		if _, err := tournament.ParseOpening(g, op); err != nil {
			return nil, fmt.Errorf("population: line %d of the opening list: %w", i+1, err)
		}
	}
	if run == nil || store == nil {
		return nil, fmt.Errorf("population: a tuner needs a runner (a pool) and a store")
	}
	return &Tuner{cfg: cfg, game: g, ev: ev, space: space{ev.Features}, start: start, openings: openings, run: run, store: store}, nil
}

// Evaluator returns the evaluator being tuned.
func (t *Tuner) Evaluator() *games.Evaluator { return t.ev }

// Run runs the job to its end, or until ctx is cancelled: then the games in
// flight are dropped, everything finished is in the store, and ctx's error
// is returned; running again with the same store resumes.
func (t *Tuner) Run(ctx context.Context) (Result, error) {
	t.spent, t.yard, t.champion = 0, yardstickPanel{}, nil
	began := time.Now()
	if t.Elapsed == nil {
		t.Elapsed = func() time.Duration { return time.Since(began) }
	}
	var res Result
	var err error
	switch t.cfg.Algo {
	case Knockout:
		res, err = t.runKnockout(ctx)
	case SPSA:
		res, err = t.runSPSA(ctx)
	case Texel:
		res, err = t.runTexel(ctx)
	case CMAES:
		res, err = t.runCMAES(ctx)
	default:
		res, err = t.runGenetic(ctx)
	}
	if err != nil {
		return res, err
	}
	// A ladder needs two weight vectors: none when every champion kept
	// the defaults' weights.
	if t.cfg.LadderPairs >= 0 && len(t.champion) >= 2 && len(t.ladderPlayers(t.champion)) >= 2 {
		l, err := t.Ladder(ctx, t.champion, t.cfg.LadderPairs)
		if err != nil {
			return res, err
		}
		if err := t.store.RecordLadder(*l); err != nil {
			return res, err
		}
		res.Ladder = l
	}
	res.Spent = t.spent
	return res, nil
}

// closeGeneration finishes a generation's summary: the yardstick when due,
// the games spent, and why the run stops after it, if it does; it records
// the summary and reports it, and returns whether the run ends here. A
// generation closed before (in an earlier session) stops where it stopped
// then: the clock is read only for generations closed now.
func (t *Tuner) closeGeneration(ctx context.Context, s *Generation, best Genome, last int) (bool, error) {
	recorded, known, err := t.store.RecordedStop(s.Index)
	if err != nil {
		return false, err
	}
	budget, _ := t.cfg.TimeBudget()
	switch {
	case s.Converged:
		s.Stop = StopConverged
	case s.Index == last:
		s.Stop = StopGenerations
	case t.cfg.BudgetGames > 0 && t.spent >= t.cfg.BudgetGames:
		s.Stop = StopBudgetGames
	case known && recorded == StopBudgetTime:
		s.Stop = StopBudgetTime
	case !known && budget > 0 && t.Elapsed() >= budget:
		s.Stop = StopBudgetTime
	}
	if t.cfg.YardstickPairs > 0 && ((s.Index+1)%t.cfg.YardstickEvery == 0 || s.Stop != "") {
		y, err := t.yardstick(ctx, s.Index, best)
		if err != nil {
			return false, err
		}
		s.Yardstick = y
	}
	s.Spent = t.spent
	if err := t.store.RecordGeneration(*s); err != nil {
		return false, err
	}
	champion := *s
	champion.Genomes = []Genome{best}
	t.champion = append(t.champion, champion)
	if t.OnGeneration != nil {
		t.OnGeneration(*s)
	}
	return s.Stop != "", nil
}

func (t *Tuner) limits() engine.Limits {
	return engine.Limits{Depth: t.cfg.Depth, Nodes: t.cfg.Nodes}
}

func (t *Tuner) player(name string, w []float64) tournament.Player {
	if t.makePlayer != nil {
		return t.makePlayer(name, w)
	}
	return tournament.Player{Name: name, Evaluator: t.ev, Weights: w, Limits: t.limits()}
}

// opening picks the opening of one pair of games from its place.
func (t *Tuner) opening(stage string, generation, pair int) string {
	if len(t.openings) == 0 {
		return ""
	}
	return t.openings[rngFor(t.cfg.Seed, stage+"-opening", generation, pair).IntN(len(t.openings))]
}

// game is one game to play: its key, its players' genome ids and weights.
type game struct {
	key           GameKey
	first, second int
	wFirst        []float64
	wSecond       []float64
	opening       string
}

// play plays the games not yet in the store, recording each as it finishes,
// and returns every game's record in order without its moves and opening
// (they are in the store), so that a generation's results stay small.
func (t *Tuner) play(ctx context.Context, batch []game) ([]tournament.Record, error) {
	recs := make([]tournament.Record, len(batch))
	var todo []int
	known := 0
	t.spent += len(batch)
	for i, g := range batch {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		r, ok, err := t.store.Game(g.key)
		if err != nil {
			return nil, err
		}
		if ok && r.First == g.first && r.Second == g.second {
			recs[i] = withoutMoves(r.Record)
			known++
			continue
		}
		todo = append(todo, i)
	}
	stage, gen := "", 0
	if len(batch) > 0 {
		stage, gen = batch[0].key.Stage, batch[0].key.Generation
	}
	if t.OnGame != nil && known > 0 {
		t.OnGame(Progress{Stage: stage, Generation: gen, Done: known, Total: len(batch)})
	}
	specs := make([]tournament.GameSpec, len(todo))
	for j, i := range todo {
		if j%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g := batch[i]
		specs[j] = tournament.GameSpec{
			Game: t.game, Opening: g.opening,
			First:  t.player(fmt.Sprint(g.first), g.wFirst),
			Second: t.player(fmt.Sprint(g.second), g.wSecond),
			Seed:   uint64(i), MaxPlies: t.cfg.MaxPlies,
		}
	}
	err := t.run.Run(ctx, specs, func(j int, rec tournament.Record) error {
		i := todo[j]
		recs[i] = withoutMoves(rec)
		g := batch[i]
		if err := t.store.RecordGame(GameResult{Key: g.key, First: g.first, Second: g.second, Record: rec}); err != nil {
			return err
		}
		known++
		if t.OnGame != nil {
			t.OnGame(Progress{Stage: stage, Generation: gen, Done: known, Total: len(batch), Played: true})
		}
		return nil
	})
	return recs, err
}

func withoutMoves(r tournament.Record) tournament.Record {
	r.Moves, r.Opening = nil, ""
	return r
}

// yardstick plays the best genome against the default weights.
func (t *Tuner) yardstick(ctx context.Context, generation int, best Genome) (*Yardstick, error) {
	pairs := t.cfg.YardstickPairs
	if pairs == 0 {
		return nil, nil
	}
	def := t.ev.Defaults()
	batch := make([]game, 0, 2*pairs)
	for i := 0; i < pairs; i++ {
		op := t.opening(StageYardstick, generation, i)
		batch = append(batch,
			game{key: GameKey{StageYardstick, generation, 2 * i}, first: best.ID, second: DefaultsID, wFirst: best.Weights, wSecond: def, opening: op},
			game{key: GameKey{StageYardstick, generation, 2*i + 1}, first: DefaultsID, second: best.ID, wFirst: def, wSecond: best.Weights, opening: op})
	}
	prev, hasPrev := t.yard.previous()
	if hasPrev && slices.Equal(prev.Weights, best.Weights) {
		hasPrev = false // the same weights: its games against the defaults carry on
	}
	if hasPrev {
		for i := 0; i < pairs; i++ {
			op := t.opening(StageYardstick, generation, pairs+i)
			k := 2 * (pairs + i)
			batch = append(batch,
				game{key: GameKey{StageYardstick, generation, k}, first: best.ID, second: prev.ID, wFirst: best.Weights, wSecond: prev.Weights, opening: op},
				game{key: GameKey{StageYardstick, generation, k + 1}, first: prev.ID, second: best.ID, wFirst: prev.Weights, wSecond: best.Weights, opening: op})
		}
	}
	recs, err := t.play(ctx, batch)
	if err != nil {
		return nil, err
	}
	y := &Yardstick{Genome: best.ID, Previous: NoGenome}
	if hasPrev {
		y.Previous = prev.ID
	}
	for i, r := range recs {
		s := r.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		if i < 2*pairs {
			y.Add(s)
		} else {
			y.VsPrevious.Add(s)
		}
	}
	y.Score = y.WDL.Score()
	elo, low, high, err := t.yard.add(best, y.WDL, y.VsPrevious, hasPrev)
	if err != nil {
		return nil, err
	}
	y.Elo, y.EloLow, y.EloHigh = elo, low, high
	return y, nil
}

// yardstickPanel pools every yardstick game of a run: the defaults (player
// 0) and each champion measured (one player per weight vector), with their
// results, so that a champion's rating comes from all of them.
type yardstickPanel struct {
	players []Genome // players[0] is the defaults
	results []stats.PairResult
	last    int // the player measured last; 0 before any
}

// previous returns the champion measured last, if any.
func (y *yardstickPanel) previous() (Genome, bool) {
	if y.last == 0 {
		return Genome{}, false
	}
	return y.players[y.last], true
}

// add pools a champion's yardstick games (against the defaults, and
// against the previous champion when hasPrev) and returns its rating with
// its 95% interval, the defaults being 0.
func (y *yardstickPanel) add(best Genome, vsDefaults, vsPrev stats.WDL, hasPrev bool) (elo, low, high float64, err error) {
	if len(y.players) == 0 {
		y.players = []Genome{{ID: DefaultsID}}
	}
	i := slices.IndexFunc(y.players[1:], func(g Genome) bool { return slices.Equal(g.Weights, best.Weights) }) + 1
	if i == 0 {
		y.players = append(y.players, best)
		i = len(y.players) - 1
	}
	y.players[i].ID = best.ID
	y.results = append(y.results, stats.PairResult{A: i, B: 0, WDL: vsDefaults})
	if hasPrev {
		y.results = append(y.results, stats.PairResult{A: i, B: y.last, WDL: vsPrev})
	}
	y.last = i
	r, err := stats.Rate(len(y.players), y.results, stats.RatingOptions{Anchor: 0})
	if err != nil {
		return 0, 0, 0, fmt.Errorf("population: rating the yardstick: %w", err)
	}
	p := r.Players[i]
	return p.Elo, p.Low, p.High, nil
}
