package population

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// Tuner is the driver of one tuning run (gonum's optimize.Minimize for
// games): its Method (genetic, knockout, SPSA, CMA-ES, Texel or Bayes, as
// the config's algo says) proposes each generation's games and learns from
// their results; the Tuner plays them on its runner, records every game
// and generation in its store, measures the yardstick, applies the
// budgets, closes each generation, and at the end plays the ladder and
// verifies the best (verify.go).
type Tuner struct {
	cfg      Config
	game     games.Game
	ev       *games.Evaluator
	space    space
	start    []float64         // starting weights; nil for none
	openings []string          // the run's openings: a list's, or the yardstick's when drawn
	pool     openingPool       // the training pool when drawn (pool.go)
	run      tournament.Runner // plays batches of games: the local pool, or another transport
	store    Store
	// makePlayer, if set, makes the players of genomes (an external
	// engine's); nil means built-in players of ev.
	makePlayer func(name string, w []float64) tournament.Player
	// opponents play the games of OpponentID(i) (plan.opponents);
	// movesOpenings: openings are moves, drawn as moves (plan.go).
	opponents     []tournament.Player
	movesOpenings bool

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

// Method is one tuning algorithm. The Tuner calls Generation for
// generation 0, 1, ... in turn, each after the one before closed without
// ending the run; the method plays the generation's games through the
// Tuner and returns its summary (Best and, when its criterion is met,
// Converged set) and its champion. A method is made afresh for each Run.
type Method interface {
	Generation(ctx context.Context, gen int) (Generation, Genome, error)
}

// methods make the Method of each algo for a tuner, at the start of Run.
var methods = map[Algo]func(t *Tuner) (Method, error){
	Genetic:  newGenetic,
	Knockout: newKnockout,
	SPSA:     newSPSA,
	CMAES:    newCMAES,
	Texel:    newTexel,
	Bayes:    newBayes,
}

// Progress describes where a run is.
type Progress struct {
	// Stage is the kind of the games being played: the method's own
	// (StageGeneration, StageKnockout, StageSPSA, StageCMAES, StageTexel,
	// StageBayes),
	// StageYardstick, StageLadder or StageVerify.
	Stage      string
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
	// Verification is the best's verification at a deeper search; nil
	// when none was due (verify.go).
	Verification *Verification
	Spent        int // games of the run, the ladder's and the verification's included
}

// New returns the tuner of plan, its games played by run and recorded in
// store.
func New(plan *Plan, run tournament.Runner, store Store) (*Tuner, error) {
	if run == nil || store == nil {
		return nil, fmt.Errorf("population: a tuner needs a runner (a pool) and a store")
	}
	t := &Tuner{cfg: plan.cfg, game: plan.game, ev: plan.ev, space: space{plan.ev.Features}, start: plan.start,
		openings: plan.openings, run: run, store: store, TexelData: plan.texel, opponents: plan.opponents, movesOpenings: plan.movesOpenings}
	if spec := plan.engine; spec != nil {
		t.makePlayer = func(name string, w []float64) tournament.Player {
			return tournament.Player{Name: name, Engine: spec.WithOptions(EngineOptions(plan.ev, w)...)}
		}
	}
	return t, nil
}

// NewTuner checks cfg and returns a tuner for game g. openings are
// positions in the game's notation (none: every game from the start), each
// checked: a finished game is refused with its line in the list; start
// is the starting weights (nil: random for genetic, zeros for knockout),
// already checked against the evaluator. It is Resolve and New for a
// config whose files are read already.
func NewTuner(cfg Config, g games.Game, openings []string, start []float64, run tournament.Runner, store Store) (*Tuner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.TuneEngine != "" {
		return nil, fmt.Errorf("population: a run tuning an engine's options is made by NewEngineTuner")
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return nil, err
	}
	plan, err := newPlan(cfg, g, ev, start, openings)
	if err != nil {
		return nil, err
	}
	return New(plan, run, store)
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
	newMethod, ok := methods[t.cfg.Algo]
	if !ok {
		return Result{}, bad("unknown algo %q", t.cfg.Algo)
	}
	m, err := newMethod(t)
	if err != nil {
		return Result{}, err
	}
	if c, ok := m.(interface{ close() }); ok {
		defer c.close()
	}
	res, err := t.drive(ctx, m)
	if err != nil {
		return res, err
	}
	// A ladder needs two weight vectors: none when every champion kept
	// the defaults' weights.
	if players := len(t.ladderPlayers(t.champion)); t.cfg.LadderPairs >= 0 && len(t.champion) >= 2 && players >= 2 {
		l, err := t.Ladder(ctx, t.champion, t.ladderPairs(players, res.Stop))
		if err != nil {
			return res, err
		}
		if err := t.store.RecordLadder(*l); err != nil {
			return res, err
		}
		res.Ladder = l
	}
	if err := t.verifyAtEnd(ctx, res.Ladder, &res); err != nil {
		return res, err
	}
	res.Spent = t.spent
	return res, nil
}

// drive runs m generation after generation until a generation closes
// with a reason to stop.
func (t *Tuner) drive(ctx context.Context, m Method) (Result, error) {
	var res Result
	last := t.cfg.PlannedGenerations() - 1
	for gen := 0; gen <= last; gen++ {
		if err := t.growPool(ctx, gen); err != nil {
			return res, err
		}
		s, best, err := m.Generation(ctx, gen)
		if err != nil {
			return res, err
		}
		stop, err := t.closeGeneration(ctx, &s, best, last)
		if err != nil {
			return res, err
		}
		res.Best, res.Generations, res.Converged, res.Stop = best, gen+1, s.Converged, s.Stop
		if s.Yardstick != nil {
			res.Yardstick = s.Yardstick
		}
		if stop {
			break
		}
	}
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
	case t.cfg.BudgetGames > 0 && t.spent >= t.cfg.TuningBudget():
		s.Stop = StopBudgetGames
	case known && recorded == StopBudgetTime:
		s.Stop = StopBudgetTime
	case !known && budget > 0 && t.Elapsed() >= budget:
		s.Stop = StopBudgetTime
	}
	if t.yardstickDue(s, best) {
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

// yardstickDue reports whether the yardstick measures generation s's
// champion best (s.Stop being set): at the last generation of the run,
// and every yardstickEvery generations, except, with the auto schedule
// (yardstick-every 0), when best has the weights measured last: their
// games against the defaults would only add to those played already.
func (t *Tuner) yardstickDue(s *Generation, best Genome) bool {
	switch {
	case t.cfg.YardstickPairs <= 0:
		return false
	case s.Stop != "":
		return true
	case (s.Index+1)%t.cfg.yardstickEvery(t.ev) != 0:
		return false
	case t.cfg.YardstickEvery > 0:
		return true
	}
	prev, measured := t.yard.previous()
	return !measured || !slices.Equal(prev.Weights, best.Weights)
}

// side is the player of genome id with weights w in a game: the opponent
// it stands for (OpponentID), or the tuned player of w.
func (t *Tuner) side(id int, w []float64) tournament.Player {
	if i, ok := OpponentIndex(id); ok && i < len(t.opponents) {
		return t.opponents[i]
	}
	return t.player(fmt.Sprint(id), w)
}

func (t *Tuner) player(name string, w []float64) tournament.Player {
	if t.makePlayer != nil {
		return t.makePlayer(name, w)
	}
	return tournament.Player{Name: name, Evaluator: t.ev, Weights: w, Limits: engine.Limits{Depth: t.cfg.Depth, Nodes: t.cfg.Nodes}}
}

// startOrDefaults is the start weights, or the evaluator's defaults.
func (t *Tuner) startOrDefaults() []float64 {
	if t.start != nil {
		return append([]float64(nil), t.start...)
	}
	return t.ev.Defaults()
}
