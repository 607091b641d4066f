package tournament

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

// BuiltinWeights resolves an evaluator name ("" for the game's first) and
// weights: "" or "default" for the evaluator's defaults, else a weights
// file (JSON, as tune export writes), which names its own evaluator; an
// evaluator given must agree with it. Errors say what is wrong.
func BuiltinWeights(g games.Game, evaluator, weights string) (*games.Evaluator, []float64, error) {
	if weights != "" && weights != "default" {
		ev, w, err := games.ReadWeights(weights, g)
		if err != nil {
			return nil, nil, err
		}
		if evaluator != "" && evaluator != ev.Name {
			return nil, nil, fmt.Errorf("tournament: evaluator %s disagrees with %s, which holds weights of %q", evaluator, weights, ev.Name)
		}
		return ev, w, nil
	}
	ev, err := games.FindEvaluator(g, evaluator)
	if err != nil {
		return nil, nil, err
	}
	return ev, ev.Defaults(), nil
}

// BuiltinPlayer resolves a built-in player spec: "default" (the defaults
// of evaluator, "" meaning the game's first), "default:EVALUATOR", or a
// weights file (BuiltinWeights), each optionally followed by settings of
// its own (Settings): search limits ",depth=D" and/or ",nodes=N", which
// replace lim (as an external engine's own limit does); a clock ",tc=",
// ",st=" or ",movetime=", which plays without lim (to the engine's
// deepest, unless the spec gives depth or nodes too); the search
// ",search=selective" and its parameters ",param.NAME=VALUE". The player
// is named by its spec, "default" written as "default:EVALUATOR". A file
// whose name ends in what looks like a setting is read as a setting:
// rename such a file.
func BuiltinPlayer(g games.Game, evaluator, spec string, lim engine.Limits) (Player, error) {
	base, set, err := CutSettings(spec)
	if err != nil {
		return Player{}, err
	}
	suffix := spec[len(base):] // the settings as written
	switch {
	case set.Limits != (engine.Limits{}):
		lim = set.Limits
	case set.timed():
		lim = engine.Limits{Depth: engine.MaxDepth}
	}
	weights := base
	if e, ok := strings.CutPrefix(base, "default:"); ok {
		evaluator, weights = e, "default"
	}
	ev, w, err := BuiltinWeights(g, evaluator, weights)
	if err != nil {
		return Player{}, err
	}
	name := spec
	if weights == "default" || weights == "" {
		name = "default:" + ev.Name + suffix
	}
	pl := Player{Name: name, Evaluator: ev, Weights: w, Limits: lim}
	if err := set.apply(g, &pl); err != nil {
		return Player{}, fmt.Errorf("%w (player %q)", err, spec)
	}
	return pl, nil
}

// CutLimits splits the trailing ",depth=D" and ",nodes=N" settings off a
// built-in player spec and returns the rest (BuiltinPlayer's "default",
// "default:EVALUATOR" or weights file) and the limits they set (zero for
// none). A bad value is an error naming the setting and what is accepted.
func CutLimits(spec string) (string, engine.Limits, error) {
	var lim engine.Limits
	for {
		i := strings.LastIndex(spec, ",")
		if i < 0 {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(spec[i+1:]), "=")
		if !ok || key != "depth" && key != "nodes" {
			break
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 1 || key == "depth" && n > engine.MaxDepth || n > engine.MaxNodes {
			return "", lim, fmt.Errorf("tournament: player %q: %s=%s: want a whole number from 1 to %d", spec, key, value, map[string]int64{"depth": engine.MaxDepth, "nodes": engine.MaxNodes}[key])
		}
		if key == "depth" {
			lim.Depth = int(n)
		} else {
			lim.Nodes = n
		}
		spec = spec[:i]
	}
	return spec, lim, nil
}
