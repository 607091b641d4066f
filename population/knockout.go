package population

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// Knockout is knockout brackets of candidates drawn around the last winner.
const Knockout Algo = "knockout"

// KnockoutConfig is the knockout tuner's section of a Config.
type KnockoutConfig struct {
	Candidates int     `yaml:"candidates"`
	Rounds     int     `yaml:"rounds"`
	BestOf     int     `yaml:"best-of"`
	Ties       string  `yaml:"ties"`  // random or extra
	Scale      float64 `yaml:"scale"` // multiplies the sum of ten uniform draws in [-1, 1]
	Window     int     `yaml:"window"`
	Threshold  float64 `yaml:"threshold"` // stop when the last Window distances are all below it
}

func (c KnockoutConfig) validate() error {
	if c.Candidates < 2 || c.Candidates > MaxCandidates {
		return bad("candidates %d: 2 to %d", c.Candidates, MaxCandidates)
	}
	if c.Rounds < 1 || c.Rounds > MaxRounds {
		return bad("rounds %d: 1 to %d", c.Rounds, MaxRounds)
	}
	if c.BestOf < 1 || c.BestOf > MaxBestOf {
		return bad("best-of %d: 1 to %d games", c.BestOf, MaxBestOf)
	}
	if c.Ties != "random" && c.Ties != "extra" {
		return bad("unknown ties %q (random or extra)", c.Ties)
	}
	if math.IsNaN(c.Scale) || c.Scale <= 0 {
		return bad("scale %g must be > 0", c.Scale)
	}
	if c.Window < 1 || math.IsNaN(c.Threshold) || c.Threshold < 0 {
		return bad("window %d must be >= 1 and threshold %g >= 0", c.Window, c.Threshold)
	}
	return nil
}

// knockoutTuner describes the knockout tuner for the registry.
func knockoutTuner() *Descriptor {
	return &Descriptor{
		Algo:       Knockout,
		Generation: "round", LengthKey: "rounds", Longest: MaxRounds,
		Section:         KnockoutConfig{Candidates: 8, Rounds: 10, BestOf: 5, Ties: "extra", Scale: 0.1, Window: 3, Threshold: 0.02},
		Keys:            knockoutKeys,
		Resumable:       []string{"rounds", "window", "threshold"},
		Validate:        func(c Config) error { return c.KnockoutConfig.validate() },
		GenerationGames: func(c Config, _ *games.Evaluator) int { return (c.Candidates - 1) * c.BestOf },
		New:             newKnockout,
		Plan: func(c Config) string {
			return fmt.Sprintf("%d candidates a round, matches of best-of-%d games (ties: %s)", c.Candidates, c.BestOf, c.Ties)
		},
		Report: ReportViews{Line: "knockout", Figures: []string{"winners", "distance"}, History: []string{"knockout"}, Bracket: true},
	}
}

// knockoutKeys are the knockout section's keys.
var knockoutKeys = []Key{
	{Name: "candidates", Help: fmt.Sprintf("knockout: candidates per round, 2-%d", MaxCandidates)},
	{Name: "rounds", Help: "knockout: rounds at most"},
	{Name: "best-of", Help: "knockout: games per match"},
	{Name: "ties", Help: "knockout: random or extra (extra pairs until one leads)"},
	{Name: "scale", Help: "knockout: scale of the ten-draw step around the winner"},
	{Name: "window", Help: "knockout: rounds of small moves that mean convergence (with a budget: wider draws, longer matches)"},
	{Name: "threshold", Help: "knockout: distance below which a move is small"},
}

// maxExtraPairs bounds the extra colour-swapped pairs that break a tied
// knockout match; a match still tied after them is decided at random.
const maxExtraPairs = 4

// knockout is the checkers report's tuner, round after round:
//
//  1. Candidates genomes: the current winner (the base; zeros or the start
//     weights in round 0) and Candidates-1 challengers whose every weight is
//     the base's plus the round's scale times the sum of ten uniform draws
//     in [-1, 1], clamped to the range and snapped to the step;
//  2. a single-elimination bracket in candidate order (padded to a power of
//     two, byes to the first candidates), each match best-of the round's
//     games with colours alternating and one opening per pair; a tied match
//     is decided at random (the report) or by extra pairs ("extra");
//  3. the bracket's winner is the next base.
//
// The winners have settled when the normalised distance between successive
// winners has stayed below Threshold for Window rounds in a row (with the
// defending winner among the candidates, typically because it beat every
// challenger Window times). Without a budget, the run stops there (or after
// Rounds rounds), each round drawing with Scale and playing best-of-BestOf.
//
// With a budget (budget-games or budget-time), settling does not end the
// run: the budget does. A winner that beat every challenger Window times
// sits at a local best for the draw, or its matches are too short to tell
// it from slightly better challengers; so each settling raises the level k
// (0 at the start) and starts the window afresh, and the rounds at level k
// draw with Scale times 2^(k mod 4) (wider draws look further, and every
// fourth level returns to Scale to refine) and play BestOf times 2k+1
// games per match (more games tell closer weights apart; the parity of
// BestOf kept; MaxBestOf at most). Each level lasts Window rounds or more,
// so the matches grow as the square root of the games spent: a budget of
// 6,000 games reaches best-of-75 at most with the defaults. With a games
// budget, a round plays at most what remains of the tuning's share (but
// never fewer than BestOf games per match), so that the last round
// overshoots the budget by little. The level depends only on the rounds'
// winners, and the length of a match on the level and the games spent, so
// a resumed run retraces them; a budget raised on resuming changes only
// the rounds the old budget cut short, which are played again.
type knockout struct {
	t         *Tuner
	cfg       KnockoutConfig
	base      []float64 // the weights the round's candidates are drawn around
	baseID    int       // the base's genome id; negative in round 0
	winner    Genome    // the last round's winner
	distances []float64 // of each round's winner from its base
	level     int       // the times the winners have settled (with a budget)
	since     int       // the index in distances of the level's first round
}

// knockoutWiden is the number of levels over which the draw widens (the
// scale doubling each time) before it returns to Scale.
const knockoutWiden = 4

// budgeted reports whether the run has a budget: then settling raises the
// level instead of ending the run.
func (m *knockout) budgeted() bool { return m.t.cfg.BudgetGames > 0 || m.t.cfg.BudgetTime != "" }

// scale is the scale of the draws at the current level.
func (m *knockout) scale() float64 {
	return m.cfg.Scale * float64(int(1)<<(m.level%knockoutWiden))
}

// bestOf is the games per match at the current level, with the games
// spent so far.
func (m *knockout) bestOf() int {
	n := min(m.cfg.BestOf*(2*m.level+1), MaxBestOf)
	if budget, matches := m.t.cfg.TuningBudget(), m.cfg.Candidates-1; budget > 0 {
		n = min(n, (budget-m.t.spent)/matches)
	}
	if n%2 != m.cfg.BestOf%2 {
		n--
	}
	return max(n, m.cfg.BestOf)
}

func newKnockout(t *Tuner) (Method, error) {
	base := make([]float64, len(t.ev.Features))
	if t.start != nil {
		copy(base, t.start)
	}
	for i := range base {
		base[i] = t.space.snap(i, base[i])
	}
	// The base of round 0 is no genome of the run.
	return &knockout{t: t, cfg: t.cfg.KnockoutConfig, base: base, baseID: DefaultsID - 100}, nil
}

func (m *knockout) Generation(ctx context.Context, round int) (Generation, Genome, error) {
	if round > 0 {
		m.base, m.baseID = m.winner.Weights, m.winner.ID
	}
	cands := m.candidates(round)
	winner, matches, err := m.bracket(ctx, round, cands)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	s, err := summarise(ctx, m.t.space, round, cands)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	m.winner = cands[winner]
	s.Best, s.Matches, s.BestFitness = m.winner.ID, matches, m.winner.Fitness
	s.Distance = m.t.space.distance(m.base, m.winner.Weights)
	m.distances = append(m.distances, s.Distance)
	s.Converged = stable(m.distances[m.since:], m.cfg.Window, m.cfg.Threshold)
	if s.Converged && m.budgeted() {
		s.Converged = false
		m.level, m.since = m.level+1, len(m.distances)
	}
	return s, m.winner, nil
}

// candidates draws the round's candidates: the base, then the challengers.
// After round 0 the base is the last winner defending, with its id and
// parents; the id its place would have had stays unused.
func (m *knockout) candidates(round int) []Genome {
	cands := make([]Genome, m.cfg.Candidates)
	for i := range cands {
		switch {
		case i == 0 && round > 0:
			cands[i] = Genome{ID: m.winner.ID, Parents: slices.Clone(m.winner.Parents), Weights: slices.Clone(m.base)}
		case i == 0:
			cands[i] = Genome{ID: 0, Weights: slices.Clone(m.base)}
		default:
			cands[i] = Genome{ID: round*m.cfg.Candidates + i, Weights: m.tenDraws(rngFor(m.t.cfg.Seed, "candidate", round, i), m.base)}
			if m.baseID >= 0 {
				cands[i].Parents = []int{m.baseID}
			}
		}
	}
	return cands
}

// stable reports whether the last window distances are all below threshold.
func stable(distances []float64, window int, threshold float64) bool {
	if len(distances) < window {
		return false
	}
	for _, d := range distances[len(distances)-window:] {
		if d >= threshold {
			return false
		}
	}
	return true
}

// tenDraws is the report's rule: base plus the level's scale (Scale at
// level 0) times the sum of ten uniform draws in [-1, 1], per weight.
func (m *knockout) tenDraws(rng *rand.Rand, base []float64) []float64 {
	w, scale := make([]float64, len(base)), m.scale()
	for i := range w {
		sum := 0.0
		for k := 0; k < 10; k++ {
			sum += 2*rng.Float64() - 1
		}
		w[i] = m.t.space.snap(i, base[i]+scale*sum)
	}
	return w
}

// bracket plays the round's knockout bracket between cands through
// tournament.PlayBracket, every game recorded in the store, and returns the
// winner's index and every match (with genome ids). Each candidate's
// record and fitness (points per game) are set from its bracket games.
func (m *knockout) bracket(ctx context.Context, round int, cands []Genome) (int, []tournament.BracketMatch, error) {
	t := m.t
	opts := tournament.BracketOptions{BestOf: m.bestOf(), Ties: m.cfg.Ties, MaxExtraPairs: maxExtraPairs,
		Seed: rngFor(t.cfg.Seed, "tie", round, 0).Uint64()}
	res, err := tournament.PlayBracket(ctx, len(cands), opts, func(ctx context.Context, batch []tournament.BracketGame) ([]tournament.Record, error) {
		games := make([]game, len(batch))
		for i, bg := range batch {
			first, second := cands[bg.First()], cands[bg.Second()]
			// The pair's place, as runs have recorded it since the first
			// version: the index of the pair's first game.
			pair := bg.Round<<20 | bg.Match<<10 | 2*bg.Pair()
			games[i] = game{key: GameKey{StageKnockout, round, bg.Index}, first: first.ID, second: second.ID,
				wFirst: first.Weights, wSecond: second.Weights, opening: t.opening(StageKnockout, round, pair)}
		}
		recs, err := t.play(ctx, games)
		if err != nil {
			return nil, err // a resumed run replays nothing: no partial credit needed
		}
		return recs, nil
	})
	if err != nil {
		return 0, nil, err
	}
	matches := res.Matches
	for i, bm := range matches {
		matches[i].A, matches[i].Winner = cands[bm.A].ID, cands[bm.Winner].ID
		if bm.B != tournament.Bye {
			matches[i].B = cands[bm.B].ID
		}
	}
	for i := range cands {
		cands[i].WDL = res.Records[i]
		cands[i].Fitness = cands[i].Points() / float64(max(cands[i].Games(), 1))
	}
	return res.Winner, matches, nil
}
