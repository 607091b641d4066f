package population

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
	"gopkg.in/yaml.v3"
)

// OpponentConfig is the section of a Config that tunes against other
// players besides (or, for SPSA, instead of) self-play: Opponents are
// player specs, each an external engine (cmd=PATH,proto=uci|gtp,...) or a
// built-in player ("default", "default:EVALUATOR" or a weights file, with
// its own ",depth=D" or ",nodes=N" if any; tournament.BuiltinPlayer), and
// every tuned genome plays OpponentPairs colour-swapped pairs (0: one)
// against each:
//
//   - genetic: each genome of a generation, besides its pairs against
//     other genomes; its fitness counts every game;
//   - spsa: both sides of an iteration, instead of each other (spsa's
//     Generation says why);
//   - cmaes: each candidate, besides its pairs against the mean; its loss
//     is 1 - its score over every game;
//   - bayes: each round's candidate, instead of the reference; its
//     observation is its Elo over those pairs.
//
// The yardstick plays yardstick-pairs pairs of the best against each
// opponent too. Knockout and Texel take no opponents. OpponentWeights is
// internal: the weights of each opponent given as a weights file, filled
// in when the run is created, so that a resumed run needs no file.
type OpponentConfig struct {
	Opponents       Specs                      `yaml:"opponents,omitempty"`
	OpponentPairs   int                        `yaml:"opponent-pairs,omitempty"`
	OpponentWeights map[string]RecordedWeights `yaml:"opponent-weights,omitempty"`
}

// RecordedWeights are a weights file's contents as a config records them:
// its evaluator and its weights by feature name.
type RecordedWeights struct {
	Evaluator string             `yaml:"evaluator"`
	Weights   map[string]float64 `yaml:"weights"`
}

// MaxOpponents bounds a run's opponents.
const MaxOpponents = 16

// StageOpponents names the games of tuned genomes against the opponents
// (the yardstick's are StageYardstick's).
const StageOpponents = "opp"

// OpponentID stands for opponent i (from 0, in the config's order) in game
// results and yardsticks: -10, -11, ... (DefaultsID, tournament.Bye,
// StartID and RandomStartID are -1 to -4).
func OpponentID(i int) int { return -10 - i }

// OpponentIndex is the opponent that id stands for, if it stands for one.
func OpponentIndex(id int) (int, bool) {
	i := -10 - id
	return i, i >= 0 && i < MaxOpponents
}

// Specs is a list of player specs. A config gives it as a YAML list or as
// one string, and the --opponents flag as a value repeated; each entry
// may hold several specs separated by ';' (SplitSpecs), since a spec
// holds commas.
type Specs []string

// UnmarshalYAML reads a list of strings or one string, each split at ';'.
func (s *Specs) UnmarshalYAML(n *yaml.Node) error {
	var list []string
	switch n.Kind {
	case yaml.ScalarNode:
		list = []string{n.Value}
		if n.ShortTag() == "!!null" {
			list = nil
		}
	case yaml.SequenceNode:
		if err := n.Decode(&list); err != nil {
			return err
		}
	default:
		return fmt.Errorf("line %d: opponents: want a list of player specs, or one string of specs separated by ';'", n.Line)
	}
	*s = nil
	for _, x := range list {
		*s = append(*s, SplitSpecs(x)...)
	}
	return nil
}

// SplitSpecs splits s at each ';' outside double quotes into player specs,
// trimmed, empty ones dropped.
func SplitSpecs(s string) []string {
	var out []string
	quoted, from := false, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '"' {
			quoted = !quoted
		}
		if i == len(s) || s[i] == ';' && !quoted {
			if spec := strings.TrimSpace(s[from:i]); spec != "" {
				out = append(out, spec)
			}
			from = i + 1
		}
	}
	return out
}

// pairs is the pairs each tuned genome plays against each opponent.
func (c OpponentConfig) pairs() int { return max(c.OpponentPairs, 1) }

// validate checks the section for a run of algo, the external specs by
// their syntax (Resolve checks the rest against the game).
func (c OpponentConfig) validate(d *Descriptor) error {
	if len(c.Opponents) == 0 {
		if c.OpponentPairs != 0 || len(c.OpponentWeights) > 0 {
			return bad("opponent-pairs %d without opponents: name them with opponents (--opponents SPEC)", c.OpponentPairs)
		}
		return nil
	}
	if !d.Opponents {
		return bad("opponents: algo %s takes no opponents; %s do", d.Algo, AlgoNames(func(d *Descriptor) bool { return d.Opponents }, "and"))
	}
	if len(c.Opponents) > MaxOpponents {
		return bad("%d opponents: at most %d", len(c.Opponents), MaxOpponents)
	}
	if c.OpponentPairs < 0 || c.OpponentPairs > MaxBestOf {
		return bad("opponent-pairs %d: 1 to %d pairs against each opponent (0: one)", c.OpponentPairs, MaxBestOf)
	}
	for i, s := range c.Opponents {
		if j := slices.Index(c.Opponents[:i], s); j >= 0 {
			return bad("opponent %d (%s) is opponent %d again: give each once (opponent-pairs sets how many pairs each plays)", i+1, s, j+1)
		}
		if !external.IsSpec(s) {
			if _, _, err := tournament.CutLimits(s); err != nil {
				return bad("opponent %d: %v", i+1, err)
			}
			continue
		}
		if _, err := external.Parse(s); err != nil {
			return bad("opponent %d: %w", i+1, err)
		}
	}
	return nil
}

// OpponentNames are the names of c's opponents, in order, each numbered
// as displays name it: "o1 gtp-rhino" (an external engine's name= or its
// command's base name), "o2 default:full,depth=2" (a built-in's spec).
func (c Config) OpponentNames() []string {
	out := make([]string, len(c.Opponents))
	for i, s := range c.Opponents {
		name := s
		if e, err := external.Parse(s); err == nil && external.IsSpec(s) {
			name = e.Name
		}
		out[i] = fmt.Sprintf("o%d %s", i+1, name)
	}
	return out
}

// opponentsNeedMoves reports whether the engine tuned or an opponent of c
// cannot set up a position (a GTP engine), so that the run's openings must
// be moves from the start.
func (c Config) opponentsNeedMoves() bool {
	if e, err := external.Parse(c.TuneEngine); c.TuneEngine != "" && err == nil && e.Protocol == external.ProtocolGTP {
		return true // the engine tuned speaks GTP
	}
	for _, s := range c.Opponents {
		if e, err := external.Parse(s); err == nil && external.IsSpec(s) && e.Protocol == external.ProtocolGTP {
			return true
		}
	}
	return false
}

// fillOpponentWeights reads the weights file of each built-in opponent
// given as one into cfg's opponent-weights, where not recorded already.
func fillOpponentWeights(cfg *Config, g games.Game) error {
	for i, s := range cfg.Opponents {
		base, _, err := tournament.CutLimits(s)
		if err != nil || external.IsSpec(s) || isDefaults(base) {
			continue // validate said what is wrong
		}
		if _, ok := cfg.OpponentWeights[base]; ok {
			continue
		}
		ev, w, err := tournament.BuiltinWeights(g, "", base)
		if err != nil {
			return fmt.Errorf("population: opponent %d: %w", i+1, err)
		}
		if cfg.OpponentWeights == nil {
			cfg.OpponentWeights = map[string]RecordedWeights{}
		}
		byName := map[string]float64{}
		for j, f := range ev.Features {
			byName[f.Name] = w[j]
		}
		cfg.OpponentWeights[base] = RecordedWeights{Evaluator: ev.Name, Weights: byName}
	}
	return nil
}

// isDefaults reports whether a built-in spec without its limits names an
// evaluator's defaults.
func isDefaults(base string) bool { return base == "default" || strings.HasPrefix(base, "default:") }

// resolveOpponents makes the players of cfg's opponents in game g, tuning
// evaluator ev: an external engine checked without starting it (its spec,
// its command, its protocol against the game; CheckEngine starts it), or
// a built-in player with the run's depth and nodes unless it gives its
// own, "default" meaning ev's defaults, a weights file read from
// opponent-weights when recorded there. The error names the opponent.
func resolveOpponents(cfg Config, g games.Game, ev *games.Evaluator) ([]tournament.Player, error) {
	var out []tournament.Player
	lim := engine.Limits{Depth: cfg.Depth, Nodes: cfg.Nodes}
	for i, s := range cfg.Opponents {
		pl, err := resolveOpponent(cfg, g, ev, s, lim)
		if err != nil {
			return nil, fmt.Errorf("population: opponent %d (%s): %w", i+1, s, err)
		}
		out = append(out, pl)
	}
	return out, nil
}

func resolveOpponent(cfg Config, g games.Game, ev *games.Evaluator, s string, lim engine.Limits) (tournament.Player, error) {
	if external.IsSpec(s) {
		e, err := external.Parse(s)
		if err == nil {
			err = e.CheckCommand(g.Name())
		}
		return tournament.Player{Name: e.Name, Engine: e}, err
	}
	base, own, err := tournament.CutLimits(s)
	if err != nil {
		return tournament.Player{}, err
	}
	rec, recorded := cfg.OpponentWeights[base]
	if !recorded {
		evaluator := ""
		if base == "default" && cfg.TuneEngine == "" {
			evaluator = ev.Name
		}
		return tournament.BuiltinPlayer(g, evaluator, s, lim)
	}
	if own != (engine.Limits{}) {
		lim = own
	}
	oev, err := games.FindEvaluator(g, rec.Evaluator)
	if err != nil {
		return tournament.Player{}, err
	}
	w := make([]float64, len(oev.Features))
	for j, f := range oev.Features {
		v, ok := rec.Weights[f.Name]
		if !ok {
			return tournament.Player{}, fmt.Errorf("opponent-weights has no weight %s of evaluator %s (it has %s)", f.Name, oev.Name, strings.Join(slices.Sorted(maps.Keys(rec.Weights)), ", "))
		}
		w[j] = v
	}
	if err := oev.Check(w); err != nil {
		return tournament.Player{}, err
	}
	return tournament.Player{Name: s, Evaluator: oev, Weights: w, Limits: lim}, nil
}

// opponentPairs appends g's pairs against every opponent: pairs
// (opponent-pairs) each, g first in the first game of a pair, the k-th
// pair from the opening of place opening*pairs+k of StageOpponents in
// generation gen, the same k-th opening against every opponent; slot
// numbers g's share of the generation's games: the pair's keys are
// StageOpponents/gen/2*((slot*pairs+k)*n+o) and the next, for opponent o
// of n.
func (t *Tuner) opponentPairs(batch []game, gen, slot, opening int, g Genome) []game {
	pairs, n := t.cfg.OpponentConfig.pairs(), len(t.opponents)
	for k := 0; k < pairs; k++ {
		op := t.opening(StageOpponents, gen, opening*pairs+k)
		for o := range n {
			key := GameKey{StageOpponents, gen, 2 * ((slot*pairs+k)*n + o)}
			batch = appendPair(batch, key, g, Genome{ID: OpponentID(o)}, op)
		}
	}
	return batch
}

// opponentGames is the games one genome plays against the opponents
// (opponentPairs).
func (c Config) opponentGames() int { return 2 * c.OpponentConfig.pairs() * len(c.Opponents) }

// spsaIterationGames is the games of one SPSA iteration: a pair between
// its two sides, or each side's games against the opponents.
func (c Config) spsaIterationGames() int {
	if len(c.Opponents) == 0 {
		return 2
	}
	return 2 * c.opponentGames()
}

// opponentsPlan says how a tuned genome of c meets its opponents, after
// lead: "" without opponents (a Descriptor's Plan).
func (c Config) opponentsPlan(lead string) string {
	if len(c.Opponents) == 0 {
		return ""
	}
	return fmt.Sprintf("%s %d pairs against each of %d opponents (%s)", lead, c.OpponentConfig.pairs(), len(c.Opponents), strings.Join(c.OpponentNames(), ", "))
}
