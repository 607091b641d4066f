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
// from them). Config.Field finds the field of each. They are the keys
// every run shares (commonKeys), each tuner's section's (its Descriptor's
// Keys) and the external engine's (engineKeys), put together when the
// tuners are registered (registry.go).
var Keys []Key

// commonKeys are the keys of the settings every run shares.
var commonKeys = []Key{
	{Name: "game", Help: "game to tune (see 'tune games')"},
	{Name: "evaluator", Help: "evaluator to tune (default: the game's first)"},
	{Name: "algo", Help: "the tuner (see AlgoNames; configKeys writes them in)"},
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
}

// engineKeys are the keys of tuning an external engine's options.
var engineKeys = []Key{
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
