package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// DefaultRounds is the rounds of a Config whose Rounds is 0.
const DefaultRounds = 4

// A round's gate: its SPRT is H0 0 against H1 GateElo1 normalized Elo
// (alpha = beta = 0.05), on GateOpenings drawn with a seed of each round's
// own; the gates take GateShare of the budget unless Gate.MaxPairs caps
// them.
const (
	GateShare    = 0.25
	GateElo1     = 5
	GateOpenings = "random:8"
)

// ErrConfig is wrapped by Learn's errors about its Config (the caller's
// settings, not the games).
var ErrConfig = errors.New("learn: bad settings")

// Config configures Learn. Zero fields take the defaults named.
type Config struct {
	Game games.Game
	// Evaluator is the evaluator with tables to learn, its Data the
	// tables at round 0 (all zero for a fit from scratch); Weights are its
	// weights at round 0.
	Evaluator *games.Evaluator
	Weights   []float64
	// Limits are the search limits of every game, self-play and gate.
	Limits engine.Limits
	// EndPlay is how every game is played where the engine searches to the
	// end; "" means EndPlaySolver for a new run and, for a run going on
	// from its State, the play recorded there (EndPlayEngine for a state
	// that records none: one written before EndPlay). A run keeps its
	// play: another one given for a State is an error (ErrConfig).
	EndPlay EndPlay
	// Runner plays the games: a tournament.Pool or the cluster's runner
	// (which plays the game's own tables only: see cluster.NewJob).
	Runner tournament.Runner
	// Budget is the number of games in all, self-play and gates.
	Budget int
	// Rounds is the number of rounds (0: DefaultRounds).
	Rounds int
	Seed   uint64
	// Fit configures each round's fit; its Seed, when 0, is drawn from
	// Seed and the round.
	Fit FitOptions
	// PositionsFile, when set, is a positions file (AppendPositionsFile): its games, when
	// it exists, join the Set before round 0 (and the self-play games are
	// counted on from them, so that a second run with the same seed plays
	// new games), and each round's self-play games are appended to it as
	// they finish. It must be a regular file that can be appended to, or
	// a new file in a folder that takes one: checked before any game.
	PositionsFile string
	// State, when set, is a file where the run keeps its state between
	// rounds, so that a run interrupted (or killed) and started again
	// with the same Config continues where it stopped, to the result of
	// an uninterrupted run (see runState): a weights file of the current
	// weights, readable as any. A State of other settings is an error
	// (ErrConfig). Without PositionsFile, the games are kept in State+".games"
	// meanwhile. RemoveState removes them once the result is written.
	State string
	// Lambda is the share of each label taken from the mover's search
	// score (Set.Lambda).
	Lambda float64
	Gate   Gate
	// Log, if not nil, is called after each round.
	Log func(Round)
	// Progress, if not nil, is called within each round: at every tenth
	// of its self-play games and at the last, as its fit begins and after
	// each of its epochs, and as its gate begins.
	Progress func(Progress)
}

// Progress is where a round of Learn is: Stage "self-play" with Done of
// Total games played, "fit" with Total positions, "fit epoch" with Done of
// Total epochs done, or "gate" with at most Total games to play.
type Progress struct {
	Round       int
	Stage       string
	Done, Total int
	Elapsed     time.Duration // since the round began
}

// Gate configures the match a round's new weights must win to be kept:
// colour-swapped pairs against the current weights, on fresh openings
// (GateOpenings), with a pentanomial SPRT of H0: 0 against H1: GateElo1
// normalized Elo (alpha = beta = 0.05), stopped at MaxPairs; Accepted
// decides.
type Gate struct {
	// MaxPairs bounds the pairs of a gate (0: GateShare of the budget,
	// over the rounds, at least one pair).
	MaxPairs int
}

// Round is what one round of Learn did.
type Round struct {
	Round     int           `json:"round"`
	SelfPlay  int           `json:"self_play"`  // self-play games of the round
	Played    int           `json:"played"`     // games played so far, self-play and gates
	Games     int           `json:"games"`      // games in the Set
	Positions int           `json:"positions"`  // positions in the Set
	K         float64       `json:"k"`          // the fit's K
	TrainLoss float64       `json:"train_loss"` // the fit's last epoch's (0 without epochs)
	HeldOut   float64       `json:"held_out_loss"`
	GatePairs int           `json:"gate_pairs"`
	GateElo   GateEstimate  `json:"gate_elo"` // the new weights against the current, pentanomial
	LLR       float64       `json:"llr"`
	SPRT      string        `json:"sprt"` // the SPRT's verdict
	Accepted  bool          `json:"accepted"`
	Elapsed   time.Duration `json:"elapsed_ns"`
}

// GateEstimate is a gate's Elo with its 95% interval (stats.Estimate with
// JSON-safe infinities).
type GateEstimate struct {
	Elo  stats.Float `json:"elo"`
	Low  stats.Float `json:"low"`
	High stats.Float `json:"high"`
}

func (e GateEstimate) String() string {
	return stats.Estimate{Elo: float64(e.Elo), Low: float64(e.Low), High: float64(e.High)}.String()
}

// Result is what Learn ends with: the last accepted tables and weights
// (the start's when no round was accepted), the rounds and the Set.
type Result struct {
	Evaluator *games.Evaluator // Config.Evaluator bound to Data
	Data      []float32
	Weights   []float64
	Rounds    []Round
	Set       *Set
	Played    int     // games played, self-play and gates
	EndPlay   EndPlay // the run's (Config.EndPlay)
}

// Learn runs the rounds. Round r plays self-play games with the current
// weights (round 0: Config's), adds them to the Set (and the positions file), fits
// the tables and weights on the whole Set from the current ones (a warm
// start), and gates the fit: it plays the current weights and is kept only
// when the SPRT accepts H1, or when at MaxPairs the interval of its
// pentanomial Elo lies above 0; a rejected round keeps the current weights
// (and the next round fits them again on more games).
//
// The budget is shared so: a gate may play at most 2*MaxPairs games, which
// are set aside for every round; the rest goes to self-play, round r taking
// (r+1) parts of the parts of the rounds left (of 4 rounds: 10%, 20%, 30%,
// 40%), so that the later rounds, with better weights, play more; games a
// gate did not use go to the later rounds' self-play. The result depends on
// Config alone (and the positions file's games), whatever the number of workers and
// however often the run was interrupted and started again (Config.State).
// Interrupted, Learn returns the result so far with ctx's error.
func Learn(ctx context.Context, cfg Config) (*Result, error) {
	plan, err := newPlan(&cfg)
	if err != nil {
		return nil, err
	}
	l, res, err := start(ctx, cfg, plan)
	if err != nil {
		return nil, err
	}
	set := res.Set
	res.EndPlay = l.endPlay
	for r := len(res.Rounds); r < cfg.Rounds; r++ {
		t0 := time.Now()
		n := plan.selfPlay(r, res.Played)
		cur := l.endPlay.Player(cfg.Game, tournament.Player{Name: fmt.Sprintf("round %d", r), Evaluator: res.Evaluator,
			Weights: res.Weights, Limits: cfg.Limits})
		progress := func(stage string, done, total int) {
			if cfg.Progress != nil {
				cfg.Progress(Progress{Round: r, Stage: stage, Done: done, Total: total, Elapsed: time.Since(t0)})
			}
		}
		gs, err := l.selfPlay(ctx, r, n, cur, progress)
		if err != nil {
			return res, err
		}
		res.Played += n
		set.Games = append(set.Games, gs...)
		round, next, err := fitAndGate(ctx, cfg, plan, r, set, cur, progress)
		if err != nil {
			return res, err
		}
		res.Played += round.GatePairs * 2
		round.Round, round.SelfPlay, round.Played, round.Games, round.Positions = r, n, res.Played, len(set.Games), set.Positions()
		round.Elapsed = time.Since(t0)
		if round.Accepted {
			res.Evaluator, res.Data, res.Weights = next.Evaluator, next.Evaluator.Data, next.Weights
		}
		res.Rounds = append(res.Rounds, round)
		if err := l.save(res); err != nil {
			return res, err
		}
		if cfg.Log != nil {
			cfg.Log(round)
		}
	}
	return res, nil
}

// openPositionsFile reads the positions file at path, or starts an empty Set when there is
// no such file yet.
func openPositionsFile(ctx context.Context, path string, g games.Game) (*Set, error) {
	set, err := ReadPositionsFileContext(ctx, path, g)
	if errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(path); errors.Is(statErr, fs.ErrNotExist) {
			return &Set{Game: g}, nil
		}
	}
	return set, err
}

// fitAndGate fits the tables from cur's and gates the fit against cur; it
// returns the round's figures (fit and gate) and the fitted player.
func fitAndGate(ctx context.Context, cfg Config, plan plan, r int, set *Set, cur tournament.Player, progress func(string, int, int)) (Round, tournament.Player, error) {
	progress("fit", 0, set.Positions())
	opts := cfg.Fit
	if opts.Seed == 0 {
		opts.Seed = derive(cfg.Seed, 1, uint64(r))
	}
	if opts.Progress == nil {
		epochs := cmp.Or(opts.Epochs, 10) // FitOptions.Epochs: 0 means 10
		opts.Progress = func(e FitEpoch) { progress("fit epoch", e.Epoch, epochs) }
	}
	fit, err := Fit(ctx, cur.Evaluator, cur.Weights, set, opts)
	if err != nil {
		return Round{}, tournament.Player{}, fmt.Errorf("learn: round %d's fit: %w", r, err)
	}
	ev, err := cfg.Evaluator.WithData(fit.Data)
	if err != nil {
		return Round{}, tournament.Player{}, fmt.Errorf("learn: round %d's fit: %w", r, err)
	}
	next := tournament.Player{Name: fmt.Sprintf("round %d", r+1), Evaluator: ev, Weights: fit.Weights, Limits: cfg.Limits,
		Search: cur.Search}
	round := Round{K: fit.K, HeldOut: fit.HeldOutLoss}
	if len(fit.Epochs) > 0 {
		round.TrainLoss = fit.Epochs[len(fit.Epochs)-1].TrainLoss
	}
	progress("gate", 0, 2*plan.pairs)
	m, err := PlayGate(ctx, cfg.Runner, cfg.Game, next, cur, plan.pairs, derive(cfg.Seed, 2, uint64(r)))
	if err != nil {
		return Round{}, tournament.Player{}, fmt.Errorf("learn: round %d's gate: %w", r, err)
	}
	est := m.Pentanomial.EloEstimate()
	round.GatePairs = m.Pentanomial.Pairs()
	round.GateElo = GateEstimate{stats.Float(est.Elo), stats.Float(est.Low), stats.Float(est.High)}
	round.LLR, round.SPRT = m.LLR, m.Status.String()
	round.Accepted = Accepted(m, plan.pairs)
	return round, next, nil
}

// PlayGate plays the gate of next against cur: at most pairs colour-swapped
// pairs on openings drawn from seed (GateOpenings), next first in the first
// game of each, stopped early by the SPRT (Gate).
func PlayGate(ctx context.Context, run tournament.Runner, g games.Game, next, cur tournament.Player, pairs int, seed uint64) (*tournament.MatchResult, error) {
	ops, err := tournament.LoadMatchOpenings(ctx, g, GateOpenings, seed, false, pairs)
	if err != nil {
		return nil, err
	}
	sprt := &stats.SPRT{Elo0: 0, Elo1: GateElo1, Alpha: 0.05, Beta: 0.05, Model: stats.Normalized}
	specs := tournament.MatchSpecs(g, next, cur, pairs, ops, 0, tournament.Adjudication{})
	return tournament.RunMatch(ctx, run, specs, sprt, nil)
}

// Accepted says whether a gate (of at most pairs pairs) keeps the new
// weights, by stats.Kept, the rule the tuners' verification decides by
// too: its SPRT accepted H1, or it ran all pairs undecided with the 95%
// interval of its pentanomial Elo above 0.
func Accepted(m *tournament.MatchResult, pairs int) bool {
	return stats.Kept(m.Status, m.Pentanomial, pairs)
}

// Positions is the number of positions of s: one before each move, and
// one for each game that is a position alone (Game.From).
func (s *Set) Positions() int {
	n := 0
	for _, g := range s.Games {
		n += max(len(g.Moves), 1)
	}
	return n
}

// derive draws a seed of its own for stream and i from seed.
func derive(seed, stream, i uint64) uint64 {
	return rand.New(rand.NewPCG(seed, stream<<40^i^0x6c6561726e)).Uint64()
}

// plan shares a budget between the rounds (Learn).
type plan struct {
	budget, rounds, pairs int
}

// newPlan checks cfg, fills its defaults and plans its budget.
func newPlan(cfg *Config) (plan, error) {
	switch {
	case cfg.Game == nil || cfg.Runner == nil:
		return plan{}, fmt.Errorf("%w: a config without a game or a runner", ErrConfig)
	case cfg.Evaluator == nil || cfg.Evaluator.Bind == nil:
		return plan{}, fmt.Errorf("%w: the evaluator has no tables to learn (evaluators of %s with tables: %s)", ErrConfig, cfg.Game.Name(), games.TableEvaluators(cfg.Game))
	case len(cfg.Weights) != len(cfg.Evaluator.Features):
		return plan{}, fmt.Errorf("%w: %d weights for the %d features of %s", ErrConfig, len(cfg.Weights), len(cfg.Evaluator.Features), cfg.Evaluator.Name)
	case !(cfg.Lambda >= 0 && cfg.Lambda <= 1):
		return plan{}, fmt.Errorf("%w: score share (lambda) %v: want 0 to 1", ErrConfig, cfg.Lambda)
	case cfg.Rounds < 0 || cfg.Budget < 0 || cfg.Gate.MaxPairs < 0:
		return plan{}, fmt.Errorf("%w: rounds %d, budget %d, gate pairs %d: want each 0 or more",
			ErrConfig, cfg.Rounds, cfg.Budget, cfg.Gate.MaxPairs)
	}
	if err := cfg.EndPlay.check(); err != nil {
		return plan{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	fit := cfg.Fit // checked before any game is played
	if err := fitDefaults(&fit); err != nil {
		return plan{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if _, err := fitMask(cfg.Evaluator, fit.Tables); err != nil {
		return plan{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if cfg.Rounds == 0 {
		cfg.Rounds = DefaultRounds
	}
	p := plan{budget: cfg.Budget, rounds: cfg.Rounds, pairs: cfg.Gate.MaxPairs}
	if p.pairs == 0 {
		p.pairs = max(1, int(float64(cfg.Budget)*GateShare)/(2*cfg.Rounds))
	}
	parts := cfg.Rounds * (cfg.Rounds + 1) / 2
	if need := 2*p.pairs*cfg.Rounds + parts; cfg.Budget < need {
		return plan{}, fmt.Errorf("%w: a budget of %d games is too small for %d rounds with gates of %d pairs: give at least %d",
			ErrConfig, cfg.Budget, cfg.Rounds, p.pairs, need)
	}
	return p, nil
}

// selfPlay is the number of self-play games of round r, played games
// having been played before it: its parts of what the gates of the rounds
// left do not hold back.
func (p plan) selfPlay(r, played int) int {
	left := p.budget - played - 2*p.pairs*(p.rounds-r)
	parts := 0
	for j := r; j < p.rounds; j++ {
		parts += j + 1
	}
	return max(1, left*(r+1)/parts)
}
