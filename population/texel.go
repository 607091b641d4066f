package population

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/learn"
	"github.com/gametune/gametune/tournament"
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

// ErrNoFeatureValues is returned for an evaluator without FeatureValues.
var ErrNoFeatureValues = errors.New("population: the evaluator has no FeatureValues, which Texel's fit needs")

// fitGame is a recorded game as the fit reads it (learn.Game): from its
// opening, its moves, the first player's result; ok is false for a game
// of no moves, which teaches nothing. A record whose moves do not replay
// is an error.
func fitGame(g games.Game, rec tournament.Record) (out learn.Game, ok bool, err error) {
	pos := g.Start()
	if rec.Opening != "" {
		if pos, err = g.ParsePosition(rec.Opening); err != nil {
			return out, false, fmt.Errorf("population: a recorded opening: %w", err)
		}
		out.From = pos.Clone()
	}
	out.Result = rec.Score()
	for i, s := range rec.Moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			return out, false, fmt.Errorf("population: move %d of a recorded game: %w", i+1, err)
		}
		out.Moves = append(out.Moves, m)
		pos.Play(m)
	}
	return out, len(out.Moves) > 0, nil
}

// weightsOnly is ev as Texel's fit sees it: its weights alone, each read
// at every position through FeatureValues (a table's scale is a weight
// like the others), its tables, if any, fixed inside Evaluate and
// FeatureValues. learn.Fit fits such an evaluator by L-BFGS.
func weightsOnly(ev *games.Evaluator) *games.Evaluator {
	w := *ev
	w.Tables, w.Data, w.Bind, w.Terms, w.Pictures = nil, nil, nil, nil, nil
	return &w
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

// texel runs Texel's method round after round (a round is a
// generation): TexelGames self-play games of the current weights, each
// from an opening of the run (or the start) followed by TexelOpeningPlies
// random plies drawn from the game's place, recorded like every game; they
// join the games of the earlier rounds (and the given data) in a learn.Set,
// learn's share of them held out of the fit (learn.IsHeldOut, with the run
// seed, so that a game stays on its side from round to round); then
// FitRound from the current weights. The round's champion is the fit's
// weights (id round+1; 0 is the start) when they lower the held-out loss
// and win the round's gate, else the current champion again: a round never
// hands back weights that predict the held-out results worse than those it
// started from.
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
	set     *learn.Set
	// Rounds are the rounds fitted in this session, for tests and logs.
	rounds []TexelRound
}

// newTexel starts the fit's set with the given data (Tuner.TexelData):
// the given games first, then the given positions, each a game of its own.
func newTexel(t *Tuner) (Method, error) {
	if t.ev.FeatureValues == nil {
		return nil, ErrNoFeatureValues
	}
	m := &texel{t: t, cfg: t.cfg.TexelConfig, current: Genome{Weights: t.space.snapAll(t.startOrDefaults())},
		set: &learn.Set{Game: t.game}}
	for i, r := range t.TexelData.Games {
		if err := m.addRecord(r); err != nil {
			return nil, fmt.Errorf("population: given game %d: %w", i+1, err)
		}
	}
	for i, lp := range t.TexelData.Positions {
		p, err := t.game.ParsePosition(lp.Position)
		if err != nil {
			return nil, fmt.Errorf("population: given position %d: %w", i+1, err)
		}
		m.set.Games = append(m.set.Games, learn.Game{From: p, Result: lp.First})
	}
	return m, nil
}

// addRecord adds a recorded game to the fit's set.
func (m *texel) addRecord(r tournament.Record) error {
	g, ok, err := fitGame(m.t.game, r)
	if ok {
		m.set.Games = append(m.set.Games, g)
	}
	return err
}

func (m *texel) Generation(ctx context.Context, round int) (Generation, Genome, error) {
	if err := m.selfPlay(ctx, round); err != nil {
		return Generation{}, Genome{}, err
	}
	start := m.current
	r, err := FitRound(ctx, m.set, m.t.ev, start.Weights, m.t.cfg.Seed)
	if err != nil {
		return Generation{}, Genome{}, err
	}
	fit := Genome{ID: round + 1, Parents: []int{start.ID}, Weights: r.Fit.Weights, Fitness: -r.HeldFit}
	if m.cfg.texelGatePairs() > 0 {
		if fit.WDL, err = m.gate(ctx, round, fit, start); err != nil {
			return Generation{}, Genome{}, err
		}
		if r.Accepted && !gateKeeps(fit.WDL) {
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

// selfPlay plays the round's self-play games and adds them to the fit's
// set.
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

// addGames adds the batch's games, as recorded in the store, to the fit's
// set.
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
		if err := m.addRecord(r.Record); err != nil {
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
