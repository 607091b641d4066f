package population

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// EngineConfig is the section of a Config that tunes an external engine's
// own options instead of an evaluator: TuneEngine is its spec
// (cmd=...,proto=uci,...) and EngineParams a file of lines "name,
// int|float, start, min, max, c_end, r_end" (or fishtest's
// "name,start,min,max,c_end,r_end"), one per option to tune (the genome); EngineParamList is internal, the file's lines filled in when
// the run is created.
type EngineConfig struct {
	TuneEngine      string   `yaml:"tune-engine,omitempty"`
	EngineParams    string   `yaml:"engine-params,omitempty"`
	EngineParamList []string `yaml:"engine-param-list,omitempty"`
}

func (c EngineConfig) validate() error {
	if c.TuneEngine == "" {
		if c.EngineParams != "" || len(c.EngineParamList) > 0 {
			return bad("engine-params without tune-engine: name the engine whose options they are")
		}
		return nil
	}
	if _, err := external.Parse(c.TuneEngine); err != nil {
		return bad("tune-engine: %w", err)
	}
	if c.EngineParams == "" && len(c.EngineParamList) == 0 {
		return bad("tune-engine needs engine-params: a file of lines 'name, int|float, start, min, max, c_end, r_end', one per option to tune")
	}
	return nil
}

// EngineEvaluator reads the parameter lines of an external engine, in
// SPSA's forms (OpenBench's "name, int|float, start, min, max, c_end,
// r_end" or fishtest's "name,start,min,max,c_end,r_end", an int), and
// returns the evaluator that stands for them: one feature per engine
// option, in the option's own units (an int option steps by 1, a float
// one is continuous), its start the default. The lines are checked as
// ParseSPSAParams checks them (the bounds of parseParamLine among them),
// and its params are returned too.
func EngineEvaluator(lines []string) (*games.Evaluator, []SPSAParam, error) {
	ev := &games.Evaluator{Name: "engine", Doc: "the options of an external engine"}
	err := paramLines(lines, func(n int, line string) error {
		l, err := parseParamLine(line)
		if err != nil {
			return fmt.Errorf("%w: line %d: %v", ErrSPSAParams, n, err)
		}
		feat := games.Feature{Name: l.name, Doc: "engine option", Default: l.start, Min: l.min, Max: l.max}
		if l.isInt {
			feat.Step = 1
		}
		ev.Features = append(ev.Features, feat)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	params, err := ParseSPSAParams(lines, ev)
	if err != nil {
		return nil, nil, err
	}
	return ev, params, nil
}

// EngineOptions are the options that set weights w of ev (from
// EngineEvaluator) on the engine: an int option's value rounded to the
// nearest whole number.
func EngineOptions(ev *games.Evaluator, w []float64) []external.Option {
	out := make([]external.Option, len(ev.Features))
	for i, f := range ev.Features {
		v := strconv.FormatFloat(w[i], 'g', -1, 64)
		if f.Step == 1 {
			v = strconv.FormatInt(int64(math.Round(w[i])), 10)
		}
		out[i] = external.Option{Name: f.Name, Value: v}
	}
	return out
}

// SetOptionLines writes weights w of ev as the UCI setoption lines an
// engine reads.
func SetOptionLines(ev *games.Evaluator, w []float64) []string {
	var out []string
	for _, o := range EngineOptions(ev, w) {
		out = append(out, "setoption name "+o.Name+" value "+o.Value)
	}
	return out
}

// NewEngineTuner is NewTuner for an external engine's own parameters: the
// genome is the values of the options ev describes (EngineEvaluator),
// set on engine by setoption before each game; engine's own limits
// (depth=, nodes=, tc=...) apply, cfg's depth and nodes do not. Every
// tuner works on it unchanged; the yardstick is ev's defaults (the
// params' starts).
func NewEngineTuner(cfg Config, g games.Game, engine external.Spec, ev *games.Evaluator, openings []string, start []float64, run tournament.Runner, store Recorder) (*Tuner, error) {
	cfg.Evaluator = ev.Name
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	plan, err := newPlan(cfg, g, ev, start, openings)
	if err != nil {
		return nil, err
	}
	plan.engine = &engine
	return New(plan, run, store)
}
