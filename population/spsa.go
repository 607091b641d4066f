package population

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// SPSAConfig is SPSA's section of a Config, as fishtest runs it:
// SPSAIterations iterations of one colour-swapped pair each, SPSABlock of
// them per generation (played in parallel from the generation's theta, as
// fishtest's workers do); A = SPSAARatio * SPSAIterations, alpha, gamma.
// Parameters come from SPSAParams (lines "name, int|float, start, min,
// max, c_end, r_end" or fishtest's "name,start,min,max,c_end,r_end"), or else every feature is tuned with c_end =
// SPSACEnd times its range (at least its step) and r_end = SPSAREnd.
type SPSAConfig struct {
	SPSAIterations int     `yaml:"spsa-iterations"`
	SPSABlock      int     `yaml:"spsa-block"`
	SPSAARatio     float64 `yaml:"spsa-a-ratio"`
	SPSAAlpha      float64 `yaml:"spsa-alpha"`
	SPSAGamma      float64 `yaml:"spsa-gamma"`
	SPSACEnd       float64 `yaml:"spsa-c-end"`
	SPSAREnd       float64 `yaml:"spsa-r-end"`
	SPSAParams     string  `yaml:"spsa-params"`
}

// validate checks the section for a run of budget games (0: no budget).
func (c SPSAConfig) validate(budget int) error {
	return firstError(
		check(c.SPSAIterations >= 1 && c.SPSAIterations <= MaxSPSAIterations, "spsa-iterations %d: 1 to %d (one colour-swapped pair each)", c.SPSAIterations, MaxSPSAIterations),
		check(c.SPSABlock >= 1 && c.SPSABlock <= MaxSPSABlock, "spsa-block %d: 1 to %d iterations per generation", c.SPSABlock, MaxSPSABlock),
		check(c.SPSAARatio >= 0 && c.SPSAARatio <= 10, "spsa-a-ratio %g: 0 to 10 (A as a fraction of the iterations; fishtest uses 0.1)", c.SPSAARatio),
		check(c.SPSAAlpha > 0 && c.SPSAAlpha <= 2 && c.SPSAGamma > 0 && c.SPSAGamma <= 1,
			"spsa-alpha %g must be in (0, 2] and spsa-gamma %g in (0, 1] (fishtest: 0.602 and 0.101)", c.SPSAAlpha, c.SPSAGamma),
		check(c.SPSACEnd > 0 && c.SPSACEnd <= 1, "spsa-c-end %g: a fraction of each range in (0, 1]", c.SPSACEnd),
		check(c.SPSAREnd > 0 && c.SPSAREnd <= 1e6, "spsa-r-end %g must be > 0 (and at most 1e6)", c.SPSAREnd),
		check(budget <= 0 || budget >= 2, "budget-games %d is too small for one SPSA iteration (a pair of games)", budget),
	)
}

// StageSPSA names the games of SPSA iterations.
const StageSPSA = "spsa"

// SPSAParam is one parameter SPSA tunes: a feature of the evaluator, its
// start, its range, and its c and r at the last iteration (fishtest's
// c_end and r_end; r = a / c^2).
type SPSAParam struct {
	Name       string
	Feature    int  // index in the evaluator's features
	Int        bool // rounded to whole steps of at least 1
	Start      float64
	Min, Max   float64
	CEnd, REnd float64
}

// ErrSPSAParams is wrapped by every error of ParseSPSAParams.
var ErrSPSAParams = errors.New("population: spsa-params")

// ParseSPSAParams reads SPSA parameter lines for evaluator ev, in
// OpenBench's form "name, int|float, start, min, max, c_end, r_end" or
// fishtest's "name,start,min,max,c_end,r_end" (an int parameter; see
// parseParamLine), the two mixed at will; blank lines and lines starting
// with # are skipped. A name that is not one of ev's features or appears
// twice, a number out of the bounds (MaxParamValue, MinParamCEnd,
// MaxParamREnd), min >= max, a start outside [min, max], a range beyond
// the feature's, or c_end or r_end out of their bounds is an error naming
// the line, the parameter and the field. No line at all is an error too.
func ParseSPSAParams(lines []string, ev *games.Evaluator) ([]SPSAParam, error) {
	var params []SPSAParam
	seen := map[string]int{}
	err := paramLines(lines, func(n int, line string) error {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrSPSAParams, n, fmt.Sprintf(format, args...))
		}
		l, err := parseParamLine(line)
		if err != nil {
			return bad("%v", err)
		}
		p := SPSAParam{Name: l.name, Feature: ev.Index(l.name), Int: l.isInt, Start: l.start, Min: l.min, Max: l.max, CEnd: l.cEnd, REnd: l.rEnd}
		if p.Feature < 0 {
			names := make([]string, len(ev.Features))
			for i, f := range ev.Features {
				names[i] = f.Name
			}
			return bad("unknown parameter %q (evaluator %s has %s)", p.Name, ev.Name, strings.Join(names, ", "))
		}
		if first, ok := seen[p.Name]; ok {
			return bad("parameter %q appears twice (first on line %d)", p.Name, first)
		}
		seen[p.Name] = n
		if f := ev.Features[p.Feature]; p.Min < f.Min || p.Max > f.Max {
			return bad("%s: range [%g, %g] goes beyond the feature's [%g, %g]", p.Name, p.Min, p.Max, f.Min, f.Max)
		}
		params = append(params, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(params) == 0 {
		return nil, fmt.Errorf("%w: no parameter lines (want %s)", ErrSPSAParams, paramForms)
	}
	return params, nil
}

// defaultSPSAParams tunes every feature of ev with a range: from start, in
// the feature's range, c_end = cEnd times the range (at least the step),
// r_end = rEnd; integer when the step is a whole number.
func defaultSPSAParams(ev *games.Evaluator, start []float64, cEnd, rEnd float64) []SPSAParam {
	var params []SPSAParam
	for i, f := range ev.Features {
		if f.Max <= f.Min {
			continue
		}
		c := max(cEnd*(f.Max-f.Min), f.Step)
		params = append(params, SPSAParam{Name: f.Name, Feature: i, Int: f.Step >= 1 && f.Step == math.Trunc(f.Step),
			Start: start[i], Min: f.Min, Max: f.Max, CEnd: c, REnd: rEnd})
	}
	return params
}

// spsaSchedule is fishtest's SPSA schedule for a run of Iterations
// iterations: with k counted from 1,
//
//	c   = c_end * N^gamma                 c_k = c / k^gamma
//	a   = r_end * c_end^2 * (A + N)^alpha a_k = a / (A + k)^alpha
//	R_k = a_k / c_k^2
//
// so that c_N = c_end and a_N / c_N^2 = r_end; an iteration plays theta +
// c_k*delta against theta - c_k*delta (delta of random signs) and moves
// theta by R_k * c_k * result * delta, result being the plus side's wins
// minus losses.
type spsaSchedule struct {
	Iterations      int
	A, Alpha, Gamma float64
}

// at returns c_k and R_k of iteration k (1 to Iterations) for p.
func (s spsaSchedule) at(p SPSAParam, k int) (ck, rk float64) {
	n := float64(s.Iterations)
	c := p.CEnd * math.Pow(n, s.Gamma)
	a := p.REnd * p.CEnd * p.CEnd * math.Pow(s.A+n, s.Alpha)
	ck = c / math.Pow(float64(k), s.Gamma)
	ak := a / math.Pow(s.A+float64(k), s.Alpha)
	return ck, ak / (ck * ck)
}

// spsaState is SPSA's theta over every feature (those not tuned stay at
// their start) and its parameters.
type spsaState struct {
	sched  spsaSchedule
	params []SPSAParam
	theta  []float64
	space  space
}

// perturb draws iteration k's signs and returns the weights of its plus
// and minus sides: theta ± c_k*delta, clamped to each parameter's range,
// then rounded stochastically to the feature's step (or to 1 for an int
// parameter), as fishtest's workers round.
func (s *spsaState) perturb(rng *rand.Rand, k int) (delta, plus, minus []float64) {
	delta = make([]float64, len(s.params))
	plus = s.space.snapAll(s.theta)
	minus = append([]float64(nil), plus...)
	for j, p := range s.params {
		delta[j] = 1
		if rng.IntN(2) == 0 {
			delta[j] = -1
		}
		ck, _ := s.sched.at(p, k)
		i := p.Feature
		plus[i] = s.round(rng, p, min(max(s.theta[i]+ck*delta[j], p.Min), p.Max))
		minus[i] = s.round(rng, p, min(max(s.theta[i]-ck*delta[j], p.Min), p.Max))
	}
	return delta, plus, minus
}

// round rounds v stochastically to p's grid: the feature's step (at least
// 1 for an int parameter) counted from the feature's minimum, up with the
// probability of its distance from the grid point below; the draw is made
// even when there is no step, so that the sequence of draws is fixed.
func (s *spsaState) round(rng *rand.Rand, p SPSAParam, v float64) float64 {
	u := rng.Float64()
	f := s.space.features[p.Feature]
	step := f.Step
	if p.Int {
		step = max(step, 1)
	}
	if step <= 0 {
		return v
	}
	r := f.Min + math.Floor((v-f.Min)/step+u)*step
	r = math.Round(r*1e9) / 1e9
	return min(max(r, p.Min), p.Max)
}

// update moves theta by iteration k's result (the plus side's wins minus
// losses), clamped to each parameter's range.
func (s *spsaState) update(k int, delta []float64, result float64) {
	for j, p := range s.params {
		ck, rk := s.sched.at(p, k)
		i := p.Feature
		s.theta[i] = min(max(s.theta[i]+rk*ck*result*delta[j], p.Min), p.Max)
	}
}

// snapAll snaps every weight of w to its feature's range and step.
func (s space) snapAll(w []float64) []float64 {
	out := make([]float64, len(w))
	for i, v := range w {
		out[i] = s.snap(i, v)
	}
	return out
}

// spsa runs SPSA as fishtest does (spsaSchedule), SPSABlock iterations
// per generation: the block's iterations all perturb the theta the block
// starts from (as fishtest's workers play from the theta they were sent),
// are played in one batch on every worker, and update theta one after the
// other in iteration order. With opponents, the two sides of an
// iteration play the opponents instead of each other (spsaResult). A
// generation's champion is theta at its end,
// snapped to the features' steps; its Mean is theta itself and its Std each
// parameter's c_k (zero for the features not tuned).
type spsa struct {
	t   *Tuner
	cfg SPSAConfig
	s   *spsaState
}

func newSPSA(t *Tuner) (Method, error) {
	cfg := t.cfg.SPSAConfig
	start := t.startOrDefaults()
	params, err := spsaParams(t.cfg, t.ev, start)
	if err != nil {
		return nil, err
	}
	s := &spsaState{sched: spsaSchedule{Iterations: cfg.SPSAIterations, A: cfg.SPSAARatio * float64(cfg.SPSAIterations),
		Alpha: cfg.SPSAAlpha, Gamma: cfg.SPSAGamma}, params: params, theta: start, space: t.space}
	for _, p := range params {
		s.theta[p.Feature] = p.Start
	}
	return &spsa{t: t, cfg: cfg, s: s}, nil
}

// spsaParams returns a run's SPSA parameters: the spsa-params lines, or
// with --tune-engine the engine-params lines (each with its own c_end and
// r_end), or else every feature of ev with the default c_end and r_end.
func spsaParams(cfg Config, ev *games.Evaluator, start []float64) ([]SPSAParam, error) {
	if len(cfg.SPSAParamList) > 0 {
		return ParseSPSAParams(cfg.SPSAParamList, ev)
	}
	if len(cfg.EngineParamList) > 0 {
		return ParseSPSAParams(cfg.EngineParamList, ev)
	}
	params := defaultSPSAParams(ev, start, cfg.SPSACEnd, cfg.SPSAREnd)
	if len(params) == 0 {
		return nil, errNothingToTune(ev)
	}
	return params, nil
}

func (m *spsa) Generation(ctx context.Context, g int) (Generation, Genome, error) {
	cfg, s := m.cfg, m.s
	first := g * cfg.SPSABlock
	n := min(cfg.SPSABlock, cfg.SPSAIterations-first)
	id := g * (2*cfg.SPSABlock + 1) // theta's id; the sides of iteration i are id+1+2i and id+2+2i
	deltas := make([][]float64, n)
	per := m.t.cfg.spsaIterationGames()
	batch := make([]game, 0, per*n)
	for i := 0; i < n; i++ {
		delta, plus, minus := s.perturb(rngFor(m.t.cfg.Seed, StageSPSA, g, i), first+i+1)
		deltas[i] = delta
		a, b := Genome{ID: id + 1 + 2*i, Weights: plus}, Genome{ID: id + 2 + 2*i, Weights: minus}
		if len(m.t.opponents) == 0 {
			batch = appendPair(batch, GameKey{StageSPSA, g, 2 * i}, a, b, m.t.opening(StageSPSA, g, i))
			continue
		}
		batch = m.t.opponentPairs(batch, g, 2*i, i, a)
		batch = m.t.opponentPairs(batch, g, 2*i+1, i, b)
	}
	recs, err := m.t.play(ctx, batch)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	before := s.space.snapAll(s.theta)
	var plusRecord Genome
	for i := 0; i < n; i++ {
		s.update(first+i+1, deltas[i], spsaResult(recs[per*i:per*(i+1)], &plusRecord, len(m.t.opponents) > 0))
	}
	champ := Genome{ID: id, Weights: s.space.snapAll(s.theta), WDL: plusRecord.WDL, Fitness: 0.5}
	if g > 0 {
		champ.Parents = []int{id - (2*cfg.SPSABlock + 1)}
	}
	summary := Generation{Index: g, Genomes: []Genome{champ}, Mean: append([]float64(nil), s.theta...),
		Std: make([]float64, len(s.theta)), Best: id, BestFitness: 0.5, MeanFitness: 0.5, WorstFitness: 0.5}
	for _, p := range s.params {
		summary.Std[p.Feature], _ = s.sched.at(p, min(first+n+1, cfg.SPSAIterations))
	}
	summary.Distance = m.t.space.distance(before, champ.Weights)
	return summary, champ, nil
}

// spsaResult is an iteration's result from its games recs, and adds the
// plus side's games to plus. Without opponents recs is one pair, theta+
// first in the first game, and the result is fishtest's: theta+'s wins
// minus its losses, in [-2, 2].
//
// With opponents, recs holds theta+'s pairs against the opponents, then
// theta-'s against the same opponents from the same openings in the same
// order (opponentPairs): the two sides never meet, since what is tuned is
// the score against the opponents, which a game between the sides does
// not measure. The result is the mean over those pairs of the difference
// of the sides' points in the pair, (r+ - r-)/2 with r the wins minus
// losses of a side's pair: in [-2, 2] like fishtest's, so the schedule's
// r_end keeps its meaning, and an unbiased estimate of twice the
// difference of the sides' expected scores per game against the
// opponents (1/2 per game at equal strength). Playing both sides from the
// same openings against the same opponent pairs their games, so the
// opening's and the opponent's share of the outcome cancels in the
// difference (common random numbers), and averaging over pairs keeps the
// step's size independent of how many are played.
func spsaResult(recs []tournament.Record, plus *Genome, vsOpponents bool) float64 {
	if !vsOpponents {
		result := 0.0
		for j, r := range recs {
			sc := pairScore(r, j)
			plus.Add(sc)
			result += 2*sc - 1 // +1 a win, 0 a draw, -1 a loss
		}
		return result
	}
	half, diff := len(recs)/2, 0.0
	for j := 0; j < half; j++ {
		sp, sm := pairScore(recs[j], j), pairScore(recs[half+j], j)
		plus.Add(sp)
		diff += sp - sm
	}
	return diff / float64(half/2)
}

func errNothingToTune(ev *games.Evaluator) error {
	return fmt.Errorf("population: evaluator %q has no feature with a range to tune", ev.Name)
}
