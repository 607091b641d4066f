package population

import (
	"context"
	"fmt"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
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
	pool     *tournament.Pool
	store    Store

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
	Best        Genome
	Generations int // generations or rounds completed
	Converged   bool
	Yardstick   *Yardstick // the last one measured
}

// NewTuner checks cfg and returns a tuner for game g. openings are
// positions in the game's notation (none: every game from the start), each
// checked: a finished game is refused with its line in the list; start
// is the starting weights (nil: random for genetic, zeros for knockout),
// already checked against the evaluator.
func NewTuner(cfg Config, g games.Game, openings []string, start []float64, pool *tournament.Pool, store Store) (*Tuner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if g.Name() != cfg.Game {
		return nil, fmt.Errorf("population: config is for game %q, not %q", cfg.Game, g.Name())
	}
	ev, err := games.FindEvaluator(g, cfg.Evaluator)
	if err != nil {
		return nil, fmt.Errorf("population: %w", err)
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
	if pool == nil || store == nil {
		return nil, fmt.Errorf("population: a tuner needs a pool and a store")
	}
	return &Tuner{cfg: cfg, game: g, ev: ev, space: space{ev.Features}, start: start, openings: openings, pool: pool, store: store}, nil
}

// Evaluator returns the evaluator being tuned.
func (t *Tuner) Evaluator() *games.Evaluator { return t.ev }

// Run runs the job to its end, or until ctx is cancelled: then the games in
// flight are dropped, everything finished is in the store, and ctx's error
// is returned; running again with the same store resumes.
func (t *Tuner) Run(ctx context.Context) (Result, error) {
	if t.cfg.Algo == Knockout {
		return t.runKnockout(ctx)
	}
	return t.runGenetic(ctx)
}

func (t *Tuner) limits() engine.Limits {
	return engine.Limits{Depth: t.cfg.Depth, Nodes: t.cfg.Nodes}
}

func (t *Tuner) player(name string, w []float64) tournament.Player {
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
	err := t.pool.Run(ctx, specs, func(j int, rec tournament.Record) error {
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
	recs, err := t.play(ctx, batch)
	if err != nil {
		return nil, err
	}
	y := &Yardstick{Genome: best.ID}
	for i, r := range recs {
		s := r.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		y.Add(s)
	}
	e := y.EloEstimate()
	y.Score, y.Elo, y.EloLow, y.EloHigh = e.Score, e.Elo, e.Low, e.High
	return y, nil
}

func (t *Tuner) shouldMeasure(generation, last int) bool {
	return t.cfg.YardstickPairs > 0 && ((generation+1)%t.cfg.YardstickEvery == 0 || generation == last)
}
