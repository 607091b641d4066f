package population

import (
	"fmt"
	"reflect"

	"github.com/gametune/gametune/engine"
)

// Key is a key of a user's config: its YAML key, the flag of tune run that
// sets it when the flag's name differs, another name it is known by, and
// its one-line help.
type Key struct {
	Name  string
	Flag  string // "" when the flag is named Name
	Alias string // "" or a second name, as a flag and as a YAML key (pairs for games, which counts pairs)
	Help  string
}

// FlagName is the name of the flag that sets k.
func (k Key) FlagName() string {
	if k.Flag != "" {
		return k.Flag
	}
	return k.Name
}

// Keys are the keys a user's config may set, in Config's order, each with
// its help: the one place they are documented (tune run binds its flags
// from them). Config.Field finds the field of each.
var Keys = []Key{
	{Name: "game", Help: "game to tune (see 'tune games')"},
	{Name: "evaluator", Help: "evaluator to tune (default: the game's first)"},
	{Name: "algo", Help: "genetic, knockout, spsa, cmaes, texel or bayes"},
	{Name: "seed", Help: "run seed: the same seed and config give the same run"},
	{Name: "depth", Help: fmt.Sprintf("search depth of every game, 1-%d", engine.MaxDepth)},
	{Name: "nodes", Help: "node limit per move (instead of or with --depth)"},
	{Name: "openings", Help: "openings: random:N (N random plies, balanced), a file of positions, or 'start'"},
	{Name: "max-plies", Help: "ply cap of a game, drawn when reached (0: 400)"},
	{Name: "start", Help: "weights file to start from, 'default' for the evaluator's defaults, or 'random' for one weight vector drawn from the seed (none: a random population for genetic, zeros for knockout, the defaults for spsa, cmaes and texel)"},
	{Name: "yardstick-pairs", Help: "pairs of games of the best genome against the default weights"},
	{Name: "yardstick-every", Help: "measure the yardstick every g generations and at the last (0: spaced so that it costs about a twentieth of the tuning's games, skipped while the champion's weights are those measured last)"},
	{Name: "ladder-pairs", Help: "pairs per pairing of the ladder played at the end (0: about a tenth of the run's games; -1: no ladder)"},
	{Name: "verify", Help: "auto: when the run ends with a best that beats the reference (the start, or the defaults) with 95% confidence, play a pentanomial SPRT of the best against the reference at a deeper search (depth + 2, 4x the nodes) on fresh openings, to see whether the gain holds there; off: no verification"},
	{Name: "verify-bounds", Help: "the verification's SPRT: elo0,elo1[,alpha,beta][,model=normalized|logistic], in normalized Elo unless model=logistic, alpha and beta 0.05 unless given (0,10: no gain against a gain of 10 nElo)"},
	{Name: "verify-pairs", Help: fmt.Sprintf("the verification's cap on colour-swapped pairs, 1-%d (0: a twentieth of the run's games, at least %d pairs and at most %d; each deeper game costs several of the run's)", MaxVerifyPairs, MinVerifyPairs, MaxAutoVerifyPairs)},
	{Name: "budget-games", Help: "end the run at the first generation boundary after this many games (0: no budget)"},
	{Name: "budget-time", Help: "end the run at the first generation boundary after this much time, e.g. 8h or 90m (none: no budget)"},
	{Name: "opponents", Help: "players every tuned genome also meets, and the yardstick's best too: an external engine (cmd=PATH,proto=uci|gtp,...; see 'tune match --help') or a built-in one (default, default:EVALUATOR or a weights file, with its own ,depth=D or ,nodes=N); repeat the flag, or separate specs with ';' (genetic and cmaes: besides their own games; spsa: instead of theta+ against theta-; bayes: instead of the reference; not knockout or texel)"},
	{Name: "opponent-pairs", Help: fmt.Sprintf("pairs each tuned genome plays against each opponent, 1-%d (0: one)", MaxBestOf)},

	{Name: "population", Help: fmt.Sprintf("genetic: genomes per generation, 2-%d", MaxPopulation)},
	{Name: "generations", Help: "genetic: generations"},
	{Name: "games", Alias: "pairs", Help: "genetic: pairs each genome plays, one against each of that many opponents drawn from the others (a pair: two games from one opening, colours swapped; alias --pairs)"},
	{Name: "fitness", Help: "genetic: score (points per game) or exp (2^wins/games)"},
	{Name: "selection", Help: "genetic: roulette, sus or tournament"},
	{Name: "tournament-size", Help: "genetic: genomes per selection tournament"},
	{Name: "crossover", Help: "genetic: uniform, blend or none"},
	{Name: "redraw", Help: "genetic: probability that a child's weights are all re-drawn (a fresh start for that genome)"},
	{Name: "mutation-rate", Help: "genetic: probability of a Gaussian step per weight"},
	{Name: "sigma", Help: "genetic: Gaussian step as a fraction of the weight's range"},
	{Name: "elite", Help: "genetic: best genomes kept unchanged"},
	{Name: "converge", Help: "genetic: stop when diversity falls below this (0: never)"},

	{Name: "candidates", Help: fmt.Sprintf("knockout: candidates per round, 2-%d", MaxCandidates)},
	{Name: "rounds", Help: "knockout: rounds at most"},
	{Name: "best-of", Help: "knockout: games per match"},
	{Name: "ties", Help: "knockout: random or extra (extra pairs until one leads)"},
	{Name: "scale", Help: "knockout: scale of the ten-draw step around the winner"},
	{Name: "window", Help: "knockout: rounds of small moves that mean convergence (with a budget: wider draws, longer matches)"},
	{Name: "threshold", Help: "knockout: distance below which a move is small"},

	{Name: "spsa-iterations", Help: fmt.Sprintf("spsa: iterations N (one colour-swapped pair each), 1-%d", MaxSPSAIterations)},
	{Name: "spsa-block", Help: "spsa: iterations per generation, played in parallel from the same theta"},
	{Name: "spsa-a-ratio", Help: "spsa: A as a fraction of the iterations (fishtest: 0.1)"},
	{Name: "spsa-alpha", Help: "spsa: decay exponent of a_k (fishtest: 0.602)"},
	{Name: "spsa-gamma", Help: "spsa: decay exponent of c_k (fishtest: 0.101)"},
	{Name: "spsa-c-end", Help: "spsa: c_end of every feature as a fraction of its range, without --spsa-params"},
	{Name: "spsa-r-end", Help: "spsa: r_end of every feature, without --spsa-params"},
	{Name: "spsa-params", Help: "spsa and bayes: file of parameter lines 'name, int|float, start, min, max, c_end, r_end' or fishtest's 'name,start,min,max,c_end,r_end' (the features to tune; bayes uses their start, min and max)"},

	{Name: "texel-rounds", Help: "texel: rounds of self-play games then a fit"},
	{Name: "texel-games", Help: "texel: self-play games per round, counted against the budget"},
	{Name: "texel-opening-plies", Help: "texel: random plies after the opening of each self-play game"},
	{Name: "texel-positions-from", Flag: "positions-from", Help: "texel: also fit on the games of this run directory (repeatable)"},
	{Name: "texel-positions", Flag: "positions", Help: "texel: also fit on this file of positions with results: 'POSITION | 1-0', EPD with c9 \"1-0\";, 'POSITION [1.0]' or 'POSITION; 1.0' lines"},
	{Name: "texel-gate-pairs", Help: "texel: pairs each round's fit plays against the weights the round started from, kept only when it scores more than half (their positions join the next fit; -1: a twentieth of the round's games, at least 8; 0: none, the held-out loss alone decides)"},

	{Name: "cmaes-generations", Help: "cmaes: generations"},
	{Name: "cmaes-population", Help: "cmaes: candidates per generation (0: gonum's default, 4 + 3 ln n)"},
	{Name: "cmaes-pairs", Help: "cmaes: colour-swapped pairs of each candidate against the mean"},
	{Name: "cmaes-sigma", Help: "cmaes: initial step as a fraction of each range"},

	{Name: "bayes-rounds", Help: fmt.Sprintf("bayes: rounds, one candidate each, 1-%d", MaxBayesRounds)},
	{Name: "bayes-pairs", Help: "bayes: colour-swapped pairs each round's candidate plays against the reference (the start, or the defaults; with --opponents, opponent-pairs against each instead)"},
	{Name: "bayes-initial", Help: "bayes: rounds of a space-filling design (a Latin hypercube) before the model chooses (0: the parameters plus 2)"},
	{Name: "bayes-acquisition", Help: "bayes: how the model chooses each round's candidate: ei (expected improvement) or thompson (Thompson sampling)"},

	{Name: "tune-engine", Help: "tune this external engine's own options instead of an evaluator: cmd=PATH,proto=uci,... (see 'tune match --help'); needs --params"},
	{Name: "engine-params", Flag: "params", Help: "with --tune-engine: file of lines 'name, int|float, start, min, max, c_end, r_end' or fishtest's 'name,start,min,max,c_end,r_end' (as Stockfish's TUNE() prints them), one per engine option to tune; values within ±2147483647"},
}

// AliasFlag is the flag that name stands for: the key's flag when name is
// a key's alias (games for pairs), else name itself. tune run reads an alias
// as its flag, so either sets the one setting.
func AliasFlag(name string) string {
	for _, k := range Keys {
		if k.Alias != "" && k.Alias == name {
			return k.FlagName()
		}
	}
	return name
}

// Field returns a pointer to the field of c that the YAML key sets (a
// *string, *int, *int64, *uint64, *float64, *[]string, *Algo or *Specs,
// or for an internal key a map), nil for no such key.
func (c *Config) Field(key string) any {
	var p any
	yamlFields(reflect.ValueOf(c).Elem(), func(k string, v reflect.Value) {
		if k == key {
			p = v.Addr().Interface()
		}
	})
	return p
}

// CopyKey sets the field of c that the YAML key sets to its value in
// from.
func (c *Config) CopyKey(key string, from *Config) {
	reflect.ValueOf(c.Field(key)).Elem().Set(reflect.ValueOf(from.Field(key)).Elem())
}
