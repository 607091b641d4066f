package population

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
	"gonum.org/v1/gonum/optimize"
)

// TexelConfig is Texel's section of a Config: TexelRounds generations,
// each playing TexelGames self-play games of the current weights (each
// from the start or an opening of the run, then TexelOpeningPlies random
// plies), then fitting the scaling constant K and the weights to the
// results of every quiet position of every game so far.
// TexelPositionsFrom are run directories whose games join the fit from
// the first round; TexelPositions is a file of positions with results
// (ReadLabelledPositions). Both are read again on resume.
type TexelConfig struct {
	TexelRounds        int      `yaml:"texel-rounds"`
	TexelGames         int      `yaml:"texel-games"`
	TexelOpeningPlies  int      `yaml:"texel-opening-plies"`
	TexelPositionsFrom []string `yaml:"texel-positions-from,omitempty"`
	TexelPositions     string   `yaml:"texel-positions,omitempty"`
	// TexelGatePairs are the pairs each round's fit plays against the
	// weights the round started from (texel_gate.go); AutoTexelGatePairs
	// sizes them from TexelGames, 0 plays none (a run recorded before
	// gates, ParseConfig).
	TexelGatePairs int `yaml:"texel-gate-pairs"`
}

// validate checks the section for a run of budget games (0: no budget).
func (c TexelConfig) validate(budget int) error {
	return firstError(
		check(c.TexelRounds >= 1 && c.TexelRounds <= MaxTexelRounds, "texel-rounds %d: 1 to %d", c.TexelRounds, MaxTexelRounds),
		check(c.TexelGames >= 1 && c.TexelGames <= MaxTexelGames, "texel-games %d: 1 to %d self-play games per round", c.TexelGames, MaxTexelGames),
		check(c.TexelOpeningPlies >= 0 && c.TexelOpeningPlies <= 60, "texel-opening-plies %d: 0 to 60 random plies", c.TexelOpeningPlies),
		check(c.TexelGatePairs >= AutoTexelGatePairs && c.TexelGatePairs <= MaxTexelGames/2, "texel-gate-pairs %d: -1 (a twentieth of the round's games), 0 (none) or up to %d pairs", c.TexelGatePairs, MaxTexelGames/2),
		check(budget <= 0 || budget >= c.TexelGames, "budget-games %d is too small for one Texel round of texel-games %d self-play games", budget, c.TexelGames),
	)
}

// StageTexel names Texel's self-play games.
const StageTexel = "texel"

// Positions are positions reduced to what Texel's fit needs: each
// position's feature values (FeatureValues, from the side to move's point
// of view) and the game's result for the side to move (1, 0.5, 0).
type Positions struct {
	Dim      int       // features per position
	Values   []float64 // Dim values per position, one position after another
	Results  []float64
	Resolved int // positions replaced by their quiescence leaf
	Games    int // games the positions come from

	// HeldOut, if set, receives the positions whose hash (of the quiet
	// position, mixed with SplitSeed) puts them in the held-out share
	// (HeldOutPercent); the others stay here. A position seen twice goes
	// the same way both times, so no position is in both sets.
	HeldOut   *Positions
	SplitSeed uint64

	noisy       bool             // keep positions as played, without their quiescence leaves (a study's variant)
	quiet       *engine.Searcher // finds the quiescence leaves; made at the first position
	moves, leaf []games.Move
}

// Len is the number of positions.
func (p *Positions) Len() int { return len(p.Results) }

// ErrNoFeatureValues is returned for an evaluator without FeatureValues.
var ErrNoFeatureValues = errors.New("population: the evaluator has no FeatureValues, which Texel's fit needs")

// AddGame replays a finished game's record (its opening and moves) and adds
// each ongoing position with the game's result, as Texel's method wants it
// quiet: a position with noisy moves (captures, promotions) is replaced by
// the leaf of a quiescence search from it (the position whose static
// evaluation the search backs up), with the result seen from that leaf's
// side to move. A record whose moves do not replay is an error.
func (p *Positions) AddGame(g games.Game, ev *games.Evaluator, w []float64, rec tournament.Record) error {
	if ev.FeatureValues == nil {
		return ErrNoFeatureValues
	}
	p.Dim = len(ev.Features)
	first := rec.Score()
	var pos games.Position
	if rec.Opening == "" {
		pos = g.Start()
	} else {
		var err error
		if pos, err = g.ParsePosition(rec.Opening); err != nil {
			return fmt.Errorf("population: a recorded opening: %w", err)
		}
	}
	for i, s := range rec.Moves {
		if err := p.addQuiet(ev, w, pos, first); err != nil {
			return err
		}
		m, err := pos.ParseMove(s)
		if err != nil {
			return fmt.Errorf("population: move %d of a recorded game: %w", i+1, err)
		}
		pos.Play(m)
	}
	p.Games++
	return nil
}

// AddPosition adds one position with the result of its game for the first
// player (1, 0.5 or 0), made quiet as AddGame makes its positions. A
// finished position adds nothing.
func (p *Positions) AddPosition(ev *games.Evaluator, w []float64, pos games.Position, first float64) error {
	if ev.FeatureValues == nil {
		return ErrNoFeatureValues
	}
	p.Dim = len(ev.Features)
	return p.addQuiet(ev, w, pos, first)
}

// addQuiet adds pos (or its quiescence leaf: engine.Searcher.QuietLeaf
// with weights w) with the result first of the first player, seen from
// the side to move there.
func (p *Positions) addQuiet(ev *games.Evaluator, w []float64, pos games.Position, first float64) error {
	var out games.Outcome
	if p.moves, out = pos.Moves(p.moves[:0]); out != games.Ongoing {
		return nil
	}
	if p.quiet == nil {
		var err error
		if p.quiet, err = engine.New(engine.Options{TableMiB: 1}); err != nil {
			return err
		}
	}
	p.leaf = p.leaf[:0]
	if !p.noisy {
		p.leaf, _ = p.quiet.QuietLeaf(pos, ev, w, p.leaf)
	}
	for _, m := range p.leaf {
		pos.Play(m)
	}
	to := p
	if p.HeldOut != nil && heldOut(p.SplitSeed, pos.Hash()) {
		to = p.HeldOut
		to.Dim = p.Dim
	}
	n := len(to.Values)
	to.Values = append(to.Values, make([]float64, p.Dim)...)
	ev.FeatureValues(pos, to.Values[n:])
	r := first
	if pos.Turn() == games.Second {
		r = 1 - first
	}
	to.Results = append(to.Results, r)
	if len(p.leaf) > 0 {
		to.Resolved++
	}
	for range p.leaf {
		pos.Undo()
	}
	return nil
}

// TexelData are positions given to the Texel tuner besides its own
// self-play games: the games of other runs and positions labelled with
// their game's result. They join the fit from the first round.
type TexelData struct {
	Games     []tournament.Record
	Positions []LabelledPosition
}

// LabelledPosition is a position in the game's notation with the result
// of its game for the first player: 1, 0.5 or 0.
type LabelledPosition struct {
	Position string
	First    float64
}

// texelLoss is the mean squared error between the results and the
// sigmoid of K times the evaluation, w dotted with each position's values:
// E = 1/n sum (R - s)^2, s = 1/(1+exp(-K q)). With grad non-nil it also
// writes dE/dw. It costs O(n*Dim).
func texelLoss(p *Positions, k float64, w, grad []float64) float64 {
	for j := range grad {
		grad[j] = 0
	}
	sum := 0.0
	d := p.Dim
	for i, r := range p.Results {
		x := p.Values[i*d : i*d+d]
		q := 0.0
		for j, v := range x {
			q += w[j] * v
		}
		s := 1 / (1 + math.Exp(-k*q))
		e := r - s
		sum += e * e
		if grad != nil {
			c := -2 * e * s * (1 - s) * k
			for j, v := range x {
				grad[j] += c * v
			}
		}
	}
	n := float64(max(len(p.Results), 1))
	for j := range grad {
		grad[j] /= n
	}
	return sum / n
}

// FitK returns the scaling constant K that minimises the loss of weights
// w: a golden-section search of log K over [1e-7, 10], to a relative
// precision of about 1e-6.
func FitK(p *Positions, w []float64) float64 {
	lo, hi := math.Log(1e-7), math.Log(10)
	f := func(x float64) float64 { return texelLoss(p, math.Exp(x), w, nil) }
	return math.Exp(stats.GoldenMin(f, lo, hi, 1e-6))
}

// TexelFit is the result of FitWeights.
type TexelFit struct {
	K          float64
	Weights    []float64 // in the ranges and on the steps of the features
	Raw        []float64 // the optimum found, before snapping
	Loss       float64   // of Raw; LossStart of the start weights with the same K
	LossStart  float64
	Iterations int
}

// FitWeights fits the scaling constant K to the start weights, then the
// weights to the positions' results with K fixed: L-BFGS (gonum) on the
// mean squared error, the weights scaled by their ranges, with a steep
// quadratic penalty outside each range; the optimum is then clamped to the
// ranges and snapped to the steps. Features with an empty range stay at
// their start. The result depends on the positions and start alone.
func FitWeights(ctx context.Context, p *Positions, ev *games.Evaluator, start []float64) (TexelFit, error) {
	if p.Len() == 0 {
		return TexelFit{}, fmt.Errorf("population: Texel's fit has no quiet positions to fit")
	}
	if p.Dim != len(ev.Features) || len(start) != p.Dim {
		return TexelFit{}, fmt.Errorf("population: positions of %d features, evaluator %q has %d", p.Dim, ev.Name, len(ev.Features))
	}
	k := FitK(p, start)
	fit := TexelFit{K: k, LossStart: texelLoss(p, k, start, nil)}
	scale := make([]float64, p.Dim)
	for j, f := range ev.Features {
		scale[j] = f.Max - f.Min // 0 for a fixed feature
	}
	w := make([]float64, p.Dim)
	grad := make([]float64, p.Dim)
	toW := func(x []float64) {
		for j := range w {
			w[j] = start[j] + x[j]*scale[j]
		}
	}
	const penalty = 10.0
	problem := optimize.Problem{
		Func: func(x []float64) float64 {
			toW(x)
			v := texelLoss(p, k, w, nil)
			for j := range x {
				v += fitL2 * x[j] * x[j]
			}
			for j, f := range ev.Features {
				if scale[j] > 0 {
					o := max(w[j]-f.Max, f.Min-w[j], 0) / scale[j]
					v += penalty * o * o
				}
			}
			return v
		},
		Grad: func(g, x []float64) {
			toW(x)
			texelLoss(p, k, w, grad)
			for j, f := range ev.Features {
				g[j] = grad[j]*scale[j] + 2*fitL2*x[j]
				if scale[j] > 0 {
					switch {
					case w[j] > f.Max:
						g[j] += 2 * penalty * (w[j] - f.Max) / scale[j]
					case w[j] < f.Min:
						g[j] -= 2 * penalty * (f.Min - w[j]) / scale[j]
					}
				}
			}
		},
	}
	// Stop when the loss has gained less than 1e-8 in 10 iterations: the
	// loss is a mean squared error of about 0.1, so that is far below
	// what the noise of the results can tell apart.
	settings := &optimize.Settings{MajorIterations: 500, GradientThreshold: 1e-10,
		Converger: &optimize.FunctionConverge{Absolute: 1e-8, Iterations: 10}}
	if ctx.Err() != nil {
		return TexelFit{}, ctx.Err()
	}
	res, err := optimize.Minimize(problem, make([]float64, p.Dim), settings, &optimize.LBFGS{})
	if err != nil && res == nil {
		return TexelFit{}, fmt.Errorf("population: Texel's fit: %w", err)
	}
	toW(res.X)
	fit.Raw = append([]float64(nil), w...)
	fit.Loss = texelLoss(p, k, fit.Raw, nil)
	fit.Iterations = res.Stats.MajorIterations
	sp := space{ev.Features}
	fit.Weights = sp.snapAll(fit.Raw)
	return fit, nil
}

// fitL2 is the weight of an L2 penalty on the fit's moves from its start
// (each move as a fraction of its feature's range); 0 in every run.
var fitL2 = 0.0

// texel runs Texel's method round after round (a round is a
// generation): TexelGames self-play games of the current weights, each
// from an opening of the run (or the start) followed by TexelOpeningPlies
// random plies drawn from the game's place, recorded like every game; their
// quiet positions join those of the earlier rounds, HeldOutPercent of them
// held out of the fit (by their hash and the run seed); then FitRound from
// the current weights. The round's champion is the fit's weights (id
// round+1; 0 is the start) when they lower the held-out loss, else the
// current champion again: a round never hands back weights that predict
// the held-out results worse than those it started from.
//
// A round's Generation records the losses, all with the fit's K:
// BestFitness is minus the held-out loss of the champion, WorstFitness
// minus the held-out loss of the weights the round started from (equal
// when the fit was refused), MeanFitness minus the training loss of the
// fitted weights; Mean is the unsnapped optimum. Its Genomes are the
// champion and, when the fit was refused, the refused fit after it (its
// Fitness minus its held-out loss); Best names the champion, so a refused
// round's Best is the previous round's and its Distance 0.
type texel struct {
	t       *Tuner
	cfg     TexelConfig
	current Genome // the weights the round plays: the last round's champion
	pos     *Positions
	// Rounds are the rounds fitted in this session, for tests and logs.
	rounds []TexelRound
}

// newTexel starts the fit with the given data (Tuner.TexelData), made
// quiet with the start weights.
func newTexel(t *Tuner) (Method, error) {
	if t.ev.FeatureValues == nil {
		return nil, ErrNoFeatureValues
	}
	dim := len(t.ev.Features)
	m := &texel{t: t, cfg: t.cfg.TexelConfig, current: Genome{Weights: t.space.snapAll(t.startOrDefaults())},
		pos: &Positions{Dim: dim, HeldOut: &Positions{Dim: dim}, SplitSeed: t.cfg.Seed}}
	w := m.current.Weights
	for i, r := range t.TexelData.Games {
		if err := m.pos.AddGame(t.game, t.ev, w, r); err != nil {
			return nil, fmt.Errorf("population: given game %d: %w", i+1, err)
		}
	}
	for i, lp := range t.TexelData.Positions {
		p, err := t.game.ParsePosition(lp.Position)
		if err != nil {
			return nil, fmt.Errorf("population: given position %d: %w", i+1, err)
		}
		if err := m.pos.AddPosition(t.ev, w, p, lp.First); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *texel) Generation(ctx context.Context, round int) (Generation, Genome, error) {
	if err := m.selfPlay(ctx, round); err != nil {
		return Generation{}, Genome{}, err
	}
	start := m.current
	r, err := FitRound(ctx, m.pos, m.pos.HeldOut, m.t.ev, start.Weights)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	fit := Genome{ID: round + 1, Parents: []int{start.ID}, Weights: r.Fit.Weights, Fitness: -r.HeldFit}
	if m.cfg.texelGatePairs() > 0 {
		if fit.WDL, err = m.gate(ctx, round, fit, start); err != nil {
			return Generation{}, Genome{}, err
		}
		if r.Accepted && fit.WDL.Score() <= 0.5 {
			r.Accepted, r.Reason = false, gateNote(fit.WDL)
		}
	}
	m.rounds = append(m.rounds, r)
	s := Generation{Index: round, Mean: r.Fit.Raw, Std: make([]float64, len(r.Fit.Raw)),
		MeanFitness: -r.TrainFit, WorstFitness: -r.HeldStart}
	switch {
	case r.Accepted:
		m.current = fit
		s.Genomes = []Genome{fit}
		s.Distance = m.t.space.distance(start.Weights, fit.Weights)
	case r.Train == 0 || r.Held == 0:
		m.current.Fitness = -r.HeldStart
		s.Genomes = []Genome{m.current}
	default:
		m.current.Fitness = -r.HeldStart
		s.Genomes = []Genome{m.current, fit}
	}
	s.Best, s.BestFitness = m.current.ID, m.current.Fitness
	return s, m.current, nil
}

// selfPlay plays the round's self-play games and adds their quiet
// positions to the fit's.
func (m *texel) selfPlay(ctx context.Context, round int) error {
	t := m.t
	batch := make([]game, m.cfg.TexelGames+m.lastRoundExtra(round))
	for i := range batch {
		op, err := m.opening(round, i)
		if err != nil {
			return err
		}
		batch[i] = game{key: GameKey{StageTexel, round, i}, first: m.current.ID, second: m.current.ID, wFirst: m.current.Weights, wSecond: m.current.Weights, opening: op}
	}
	if _, err := t.play(ctx, batch); err != nil {
		return err
	}
	return m.addGames(ctx, batch)
}

// addGames adds the quiet positions of the batch's games, as recorded in
// the store, to the fit's.
func (m *texel) addGames(ctx context.Context, batch []game) error {
	t := m.t
	for i, g := range batch {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r, ok, err := t.store.Game(g.key)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("population: game %s is not in the store after it was played", g.key)
		}
		if err := m.pos.AddGame(t.game, t.ev, m.current.Weights, r.Record); err != nil {
			return fmt.Errorf("population: game %s: %w", g.key, err)
		}
	}
	return nil
}

// opening is the opening of a self-play game: an opening of the run
// (or the start), then TexelOpeningPlies random legal plies, fewer when the
// game would end.
func (m *texel) opening(round, i int) (string, error) {
	t := m.t
	base := t.opening(StageTexel, round, i)
	var p games.Position
	if base == "" {
		p = t.game.Start()
	} else {
		var err error
		if p, err = t.game.ParsePosition(base); err != nil {
			return "", err
		}
	}
	rng := rngFor(t.cfg.Seed, StageTexel+"-plies", round, i)
	var buf []games.Move
	for ply := 0; ply < m.cfg.TexelOpeningPlies; ply++ {
		moves, out := p.Moves(buf[:0])
		buf = moves
		if out != games.Ongoing {
			break
		}
		p.Play(moves[rng.IntN(len(moves))])
		if _, out := p.Moves(buf[:0]); out != games.Ongoing {
			p.Undo()
			break
		}
	}
	return p.String(), nil
}

// MaxLabelledPositions bounds the positions read from one file.
const MaxLabelledPositions = 10_000_000

// ReadLabelledPositions reads a file of positions with their game's result
// for Texel's fit, one position a line in the game's notation followed by
// its result for the first player, in any of the forms of public Texel
// data sets:
//
//	POSITION | 1-0                  gametune's own
//	POSITION c9 "1/2-1/2";          EPD (Zurichess's quiet-labeled.epd)
//	POSITION [0.5]                  lichess-big3-resolved, Ethereal (an
//	POSITION [1-0] 27               evaluation may follow the bracket)
//	POSITION; 1.0                   a result after a semicolon
//
// A result is 1-0, 0-1 or 1/2-1/2 (or 1/2), or the number 1, 0.5 or 0
// (1.0, 0.0 ...). Blank lines and lines starting with # are skipped. An
// error names the line and what is wrong; at most MaxLabelledPositions
// positions are read.
func ReadLabelledPositions(g games.Game, data []byte) ([]LabelledPosition, error) {
	var out []LabelledPosition
	for i, line := range strings.Split(string(data), "\n") {
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		pos, result, err := splitLabelled(text)
		if err != nil {
			return nil, fmt.Errorf("population: line %d: %w", i+1, err)
		}
		first, err := parseResult(result)
		if err != nil {
			return nil, fmt.Errorf("population: line %d: %w", i+1, err)
		}
		p, err := g.ParsePosition(pos)
		if err != nil {
			return nil, fmt.Errorf("population: line %d: %w", i+1, err)
		}
		if _, o := p.Moves(nil); o != games.Ongoing {
			return nil, fmt.Errorf("population: line %d: the game is over in this position (%s)", i+1, o)
		}
		out = append(out, LabelledPosition{Position: p.String(), First: first})
		if len(out) > MaxLabelledPositions {
			return nil, fmt.Errorf("population: more than %d positions", MaxLabelledPositions)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("population: no position with a result in the file")
	}
	return out, nil
}

// labelledForms names the forms ReadLabelledPositions reads, for errors.
const labelledForms = `POSITION | 1-0, EPD with c9 "1-0";, POSITION [1.0] or POSITION; 1.0`

// splitLabelled splits a line of a labelled positions file into its
// position and its result (ReadLabelledPositions).
func splitLabelled(text string) (pos, result string, err error) {
	if k := strings.Index(text, ` c9 "`); k >= 0 {
		rest := text[k+len(` c9 "`):]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return "", "", fmt.Errorf("c9 opens a quote and does not close it")
		}
		return strings.TrimSpace(text[:k]), rest[:end], nil
	}
	if k := strings.LastIndexByte(text, '['); k >= 0 {
		end := strings.IndexByte(text[k:], ']')
		if end < 0 {
			return "", "", fmt.Errorf(`"[" opens a result and "]" does not close it (want %s)`, labelledForms)
		}
		if after := strings.TrimSpace(text[k+end+1:]); after != "" {
			if _, err := strconv.ParseFloat(after, 64); err != nil {
				return "", "", fmt.Errorf("%q after the result: only an evaluation (a number) may follow it", after)
			}
		}
		return strings.TrimSpace(text[:k]), strings.TrimSpace(text[k+1 : k+end]), nil
	}
	if k := strings.LastIndexByte(text, '|'); k >= 0 {
		return strings.TrimSpace(text[:k]), strings.TrimSpace(text[k+1:]), nil
	}
	if k := strings.LastIndexByte(text, ';'); k >= 0 {
		return strings.TrimSpace(text[:k]), strings.TrimSpace(text[k+1:]), nil
	}
	return "", "", fmt.Errorf("no result (want %s)", labelledForms)
}

// parseResult reads a result for the first player: 1-0, 0-1, 1/2-1/2 or
// 1/2, or a number in digits and a point that is 1, 0.5 or 0.
func parseResult(result string) (float64, error) {
	switch result {
	case "1-0":
		return 1, nil
	case "0-1":
		return 0, nil
	case "1/2-1/2", "1/2":
		return 0.5, nil
	}
	if v, err := strconv.ParseFloat(result, 64); err == nil && (v == 0 || v == 0.5 || v == 1) && strings.Trim(result, "0123456789.") == "" {
		return v, nil
	}
	return 0, fmt.Errorf("result %q: want 1-0, 0-1 or 1/2-1/2, or 1, 0.5, 0 (the first player's result)", result)
}
