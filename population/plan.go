package population

import (
	"context"
	"fmt"
	"strings"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// Plan is a run made ready to tune: its config validated, the game and
// the evaluator tuned found, the start weights, the openings and the
// parameter lines read and checked, and Texel's given data read. Only
// Resolve (and NewTuner, NewEngineTuner for callers holding the parts)
// makes one, so a run validates its config once, whatever uses the plan.
type Plan struct {
	cfg      Config
	game     games.Game
	ev       *games.Evaluator
	start    []float64 // nil for none
	openings []string
	engine   *external.Spec // the engine whose options are tuned; nil for an evaluator
	texel    TexelData
	// opponents are the players of the config's opponents, in order;
	// movesOpenings is set when one cannot set up a position (GTP), so
	// that every opening is moves from the start ("moves: ...").
	opponents     []tournament.Player
	movesOpenings bool
}

// Config returns the plan's config, its internal lists filled in: what a
// run directory records.
func (p *Plan) Config() Config { return p.cfg }

// Game returns the game tuned.
func (p *Plan) Game() games.Game { return p.game }

// Evaluator returns the evaluator tuned (for an engine's options, the
// one that stands for them).
func (p *Plan) Evaluator() *games.Evaluator { return p.ev }

// Start returns the start weights, nil for none.
func (p *Plan) Start() []float64 { return p.start }

// Sources is how Resolve reads what a config names besides weights and
// openings files (which games.ReadWeights and tournament.ReadOpenings
// read): the game registry, a user's files, and other runs' games.
type Sources interface {
	// Game finds a game by name.
	Game(name string) (games.Game, error)
	// ReadFile reads a file a user named.
	ReadFile(path string) ([]byte, error)
	// RunGames returns the game of the run in dir and its last n games
	// recorded, newest first.
	RunGames(dir string, n int) (game string, recent []GameResult, err error)
}

// Resolve validates cfg once and makes its plan: it finds the game, reads
// the files cfg names into its internal lists (start-weights from start,
// opening-list from openings, spsa-param-list from spsa-params,
// engine-param-list from engine-params) where those lists are empty, as
// when a run is created (a recorded config has them, and its files are not
// read again), checks them, draws random openings, and reads Texel's given
// games and positions. An error says what is wrong in the config or which
// file.
func Resolve(ctx context.Context, cfg Config, src Sources) (*Plan, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g, err := src.Game(cfg.Game)
	if err != nil {
		return nil, err
	}
	if err := fill(&cfg, g, src); err != nil {
		return nil, err
	}
	ev, err := cfg.TunedEvaluator(g)
	if err != nil {
		return nil, err
	}
	start, err := startWeights(ev, cfg)
	if err != nil {
		return nil, err
	}
	openings := cfg.OpeningList
	if len(openings) == 0 && tournament.IsRandomOpenings(cfg.Openings) {
		draw := tournament.RandomOpenings
		if cfg.opponentsNeedMoves() {
			draw = tournament.RandomOpeningMoves
		}
		if openings, err = draw(ctx, g, cfg.Openings, cfg.Seed); err != nil {
			return nil, err
		}
	}
	p, err := newPlan(cfg, g, ev, start, openings)
	if err != nil {
		return nil, err
	}
	if cfg.TuneEngine != "" {
		spec, err := external.Parse(cfg.TuneEngine)
		if err != nil {
			return nil, err
		}
		p.engine = &spec
	}
	if len(cfg.SPSAParamList) > 0 {
		if _, err := ParseSPSAParams(cfg.SPSAParamList, ev); err != nil {
			return nil, inFile(cfg.SPSAParams, err)
		}
	}
	if cfg.Algo == Bayes {
		if _, err := bayesParams(cfg, ev); err != nil {
			return nil, err
		}
	}
	if p.texel, err = texelData(cfg, g, src); err != nil {
		return nil, err
	}
	return p, nil
}

// newPlan checks the parts of a plan whose config is valid.
func newPlan(cfg Config, g games.Game, ev *games.Evaluator, start []float64, openings []string) (*Plan, error) {
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
	moves := cfg.opponentsNeedMoves()
	for i, op := range openings {
		if _, err := tournament.ParseOpening(g, op); err != nil {
			return nil, fmt.Errorf("population: line %d of the opening list: %w", i+1, err)
		}
		if moves && !strings.HasPrefix(op, "moves:") {
			return nil, fmt.Errorf("population: opening %d (%s) is a position, which a GTP opponent cannot set up: give openings as random:N, start, or a file of 'moves: m1 m2 ...' lines", i+1, op)
		}
	}
	opponents, err := resolveOpponents(cfg, g, ev)
	if err != nil {
		return nil, err
	}
	return &Plan{cfg: cfg, game: g, ev: ev, start: start, openings: openings, opponents: opponents, movesOpenings: moves}, nil
}

// fill reads the files cfg names into its empty internal lists.
func fill(cfg *Config, g games.Game, src Sources) error {
	if cfg.TuneEngine != "" && len(cfg.EngineParamList) == 0 {
		lines, err := readLines(src, cfg.EngineParams, "engine-params")
		if err != nil {
			return err
		}
		ev, _, err := EngineEvaluator(lines)
		if err != nil {
			return inFile(cfg.EngineParams, err)
		}
		cfg.EngineParamList, cfg.Evaluator = lines, ev.Name
	}
	if cfg.Start != "" && cfg.StartWeights == nil {
		if err := fillStart(cfg, g); err != nil {
			return err
		}
	}
	if cfg.Openings != "" && cfg.Openings != "start" && !tournament.IsRandomOpenings(cfg.Openings) && cfg.OpeningList == nil {
		// Moves stay moves for a GTP opponent (newPlan refuses positions).
		list, err := tournament.ReadBook(context.Background(), tournament.Book{Path: cfg.Openings, Start: 1}, g, 0, cfg.opponentsNeedMoves())
		if err != nil {
			return err
		}
		cfg.OpeningList = list
	}
	if err := fillOpponentWeights(cfg, g); err != nil {
		return err
	}
	if tournament.IsRandomOpenings(cfg.Openings) && cfg.OpeningList == nil && cfg.TrainingPool == "" {
		cfg.TrainingPool = GrowingPool
	}
	if cfg.SPSAParams != "" && cfg.SPSAParamList == nil {
		lines, err := readLines(src, cfg.SPSAParams, "spsa-params")
		if err != nil {
			return err
		}
		cfg.SPSAParamList = lines
	}
	return nil
}

// fillStart reads the start weights cfg names: the defaults, a random
// draw, or a weights file, of the config's evaluator.
func fillStart(cfg *Config, g games.Game) error {
	var ev *games.Evaluator
	var w []float64
	var err error
	switch cfg.Start {
	case StartDefaults, StartRandom:
		if ev, err = cfg.TunedEvaluator(g); err != nil {
			return err
		}
		w = ev.Defaults()
		if cfg.Start == StartRandom {
			w = RandomStart(ev, cfg.Seed)
		}
	default:
		if ev, w, err = games.ReadWeights(cfg.Start, g); err != nil {
			return err
		}
		if own, err := games.FindEvaluator(g, ev.Name); err == nil && !games.SameData(own.Data, ev.Data) {
			return fmt.Errorf("population: start %s holds %s tables of its own: a tuning run tunes the scales and scalars over the tables %s ships, and would drop these (learn tables with tune learn, which takes --start)",
				cfg.Start, ev.Name, g.Name())
		}
	}
	if cfg.Evaluator != "" && cfg.Evaluator != ev.Name {
		return fmt.Errorf("population: start %s holds weights of evaluator %q, not %q", cfg.Start, ev.Name, cfg.Evaluator)
	}
	cfg.Evaluator = ev.Name
	cfg.StartWeights = map[string]float64{}
	for i, f := range ev.Features {
		cfg.StartWeights[f.Name] = w[i]
	}
	return nil
}

// readLines reads the lines of the file path, which the config's key
// names.
func readLines(src Sources, path, key string) ([]string, error) {
	data, err := src.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("population: %s: %w", key, err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n"), nil
}

// inFile names the file an error of its contents comes from, if any.
func inFile(path string, err error) error {
	if path == "" {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// texelData reads the games and positions a Texel run fits on besides its
// own: the finished games of the runs in texel-positions-from (of the same
// game) and the texel-positions file.
func texelData(cfg Config, g games.Game, src Sources) (TexelData, error) {
	var d TexelData
	for _, dir := range cfg.TexelPositionsFrom {
		name, recent, err := src.RunGames(dir, MaxPopulationGames*4)
		if err == nil && name != g.Name() {
			err = fmt.Errorf("%s is a run of %s, not %s", dir, name, g.Name())
		}
		if err != nil {
			return d, fmt.Errorf("population: texel-positions-from: %w", err)
		}
		for i := len(recent) - 1; i >= 0; i-- { // oldest first
			if recent[i].Record.Outcome != games.Ongoing {
				d.Games = append(d.Games, recent[i].Record)
			}
		}
	}
	if cfg.TexelPositions != "" {
		data, err := src.ReadFile(cfg.TexelPositions)
		if err != nil {
			return d, fmt.Errorf("population: texel-positions: %w", err)
		}
		if d.Positions, err = ReadLabelledPositions(g, data); err != nil {
			return d, inFile(cfg.TexelPositions, err)
		}
	}
	return d, nil
}

// CheckEngine checks, before a run is created, that every external engine
// it plays starts: for a plan tuning an engine's options, the engine,
// listing every option, set at its start; and each external opponent.
// A plan without external engines has nothing to check. Errors the user
// must fix wrap external.ErrSpec.
func (p *Plan) CheckEngine(ctx context.Context) error {
	if p.engine != nil {
		if err := external.Check(ctx, p.game, p.engine.WithOptions(EngineOptions(p.ev, p.ev.Defaults())...), nil); err != nil {
			return err
		}
	}
	for i, o := range p.opponents {
		if e, ok := o.Engine.(external.Spec); ok {
			if err := external.Check(ctx, p.game, e, nil); err != nil {
				return fmt.Errorf("opponent %d: %w", i+1, err)
			}
		}
	}
	return nil
}

// ExternalEngines names the external engines the plan's games are played
// by (the engine tuned, the external opponents): the cluster's workers
// play built-in players only, so such a run plays on the local pool.
func (p *Plan) ExternalEngines() []string {
	var out []string
	if p.engine != nil {
		out = append(out, "tune-engine "+p.engine.Name)
	}
	for i, o := range p.opponents {
		if o.Engine != nil {
			out = append(out, fmt.Sprintf("opponent %d (%s)", i+1, o.Name))
		}
	}
	return out
}

// LimitText says how the run's moves are searched, for its first line: the
// engine's own limit (depth=, nodes=, movetime=, tc=) when the run tunes an
// external engine's options, which cfg's depth and nodes do not override,
// and cfg's depth or nodes otherwise.
func (p *Plan) LimitText() string {
	if e := p.engine; e != nil {
		switch {
		case e.Depth > 0:
			return fmt.Sprintf("depth %d", e.Depth)
		case e.Nodes > 0:
			return fmt.Sprintf("%d nodes a move", e.Nodes)
		case e.MoveTime > 0:
			return fmt.Sprintf("%s a move", e.MoveTime)
		case e.TC != nil:
			return "clock " + e.TC.String()
		}
		return "the engine's own limits"
	}
	if p.cfg.Depth > 0 {
		return fmt.Sprintf("depth %d", p.cfg.Depth)
	}
	return fmt.Sprintf("%d nodes a move", p.cfg.Nodes)
}
