package population

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"gopkg.in/yaml.v3"
)

// Algo names a tuner.
type Algo string

// The tuners.
const (
	Genetic  Algo = "genetic"  // a genetic algorithm: genomes meet in pairs of games, the fitter breed
	Knockout Algo = "knockout" // knockout brackets of candidates drawn around the last winner
	SPSA     Algo = "spsa"     // simultaneous perturbation stochastic approximation, as fishtest runs it
	CMAES    Algo = "cmaes"    // covariance matrix adaptation (gonum's CmaEsChol)
	Texel    Algo = "texel"    // a logistic fit of the evaluation to game results
	Bayes    Algo = "bayes"    // Bayesian optimisation: a Gaussian process of Elo over a few parameters
)

// Bounds on a config's sizes, checked by Validate, so that a config can
// neither exhaust the memory of a 24 GiB machine nor run for ever by a
// typing slip. A generation holds its genomes, its games' specs and their
// results (without moves) in memory: MaxPopulationGames bounds that to
// 2*250 000 games, a few hundred MB.
const (
	MaxPopulation      = 100_000       // genomes of a genetic generation
	MaxGenerations     = 100_000       // generations of a genetic run
	MaxPopulationGames = 250_000       // population * games: at most 500 000 games a generation
	MaxCandidates      = 1024          // genomes of a knockout round
	MaxRounds          = 100_000       // knockout rounds
	MaxBestOf          = 1001          // games of a knockout match (before tie-breaks)
	MaxYardstickPairs  = 100_000       // colour-swapped pairs against the defaults
	MaxPlyCap          = 10_000        // max-plies: the ply cap of a game
	MaxLadderPairs     = 10_000        // pairs per pairing of the ladder
	MaxBudgetGames     = 1_000_000_000 // games of a run's budget
	MaxSPSAIterations  = 100_000_000   // SPSA iterations (one colour-swapped pair each)
	MaxSPSABlock       = 100_000       // SPSA iterations per generation
	MaxTexelRounds     = 1000          // Texel generations
	MaxTexelGames      = 100_000       // Texel self-play games per generation (their positions are held in memory)
)

// LadderShare is the share of a run's games its ladder costs when
// ladder-pairs is 0 (auto): a tenth.
const LadderShare = 0.1

// StartDefaults is the start key's value that starts a run from the
// evaluator's default weights.
const StartDefaults = "default"

// StartRandom is the start key's value that starts a run from one weight
// vector drawn uniformly in the features' ranges from the run seed
// (RandomStart). Tuning from it has to beat the defaults, not it.
const StartRandom = "random"

// Config is everything that decides a tuning run's result. The run
// directory keeps it fully resolved; the number of workers is not part of
// it, since results never depend on it. Each tuner's settings are a
// section of their own, inlined: the YAML keys (and the flags) are flat.
type Config struct {
	Game      string `yaml:"game"`
	Evaluator string `yaml:"evaluator"`
	Algo      Algo   `yaml:"algo"` // Genetic, Knockout, SPSA, CMAES, Texel or Bayes
	Seed      uint64 `yaml:"seed"`
	Depth     int    `yaml:"depth"` // search depth of every game (or nodes)
	Nodes     int64  `yaml:"nodes"`
	Openings  string `yaml:"openings"`  // "" (the start), random:N, or a file of positions
	MaxPlies  int    `yaml:"max-plies"` // ply cap of a game; 0 means the tournament default
	Start     string `yaml:"start"`     // weights file to start from, "default" (the evaluator's defaults) or "random" (RandomStart); "" means a random population (genetic), zeros (knockout) or the defaults (SPSA, CMA-ES, Texel)
	// StartWeights and OpeningList are internal: they are filled from the
	// Start and Openings files when a run is created, so that a resumed
	// run needs neither file. ParseConfig reads them from a recorded
	// config; MergeConfig refuses them in a user's config.
	StartWeights map[string]float64 `yaml:"start-weights,omitempty"`
	OpeningList  []string           `yaml:"opening-list,omitempty"`
	// TrainingPool is filled in when a run is created: GrowingPool for a
	// run on random openings since training draws from a growing pool
	// (pool.go), FixedPool for one recorded before (ParseConfig), which
	// resumes as it began. Unlike the lists above it names no file, so a
	// recorded config copied as a user's may keep it: a resumed run keeps
	// its own (ResumeWith).
	TrainingPool string `yaml:"training-pool,omitempty"`

	YardstickPairs int `yaml:"yardstick-pairs"` // colour-swapped pairs against each panel member; 0 = none
	YardstickEvery int `yaml:"yardstick-every"` // every g generations (and the last); 0 = auto (YardstickPerMille, see yardstickEvery)

	// The ladder at the end of a run: pairs per pairing of its round robin
	// of the champions, the start and the defaults; 0 = chosen so that the
	// ladder costs about LadderShare of the run's games; -1 = no ladder.
	LadderPairs int `yaml:"ladder-pairs"`

	// The verification at the end of a run (verify.go): VerifyAuto plays
	// a pentanomial SPRT of the run's best against the reference at a
	// deeper search when the run ends with a confident best, VerifyOff
	// plays none. A config recorded before verification existed has no
	// verify key and reads as VerifyOff (ParseConfig), so that the run
	// resumes as it began. VerifyBounds is the test (stats.ParseSPRT:
	// elo0,elo1 in normalized Elo, alpha and beta 0.05 by default);
	// VerifyPairs caps its colour-swapped pairs, 0 = AutoVerifyPairs.
	Verify       string `yaml:"verify"`
	VerifyBounds string `yaml:"verify-bounds"`
	VerifyPairs  int    `yaml:"verify-pairs"`

	// Budgets: the run ends at the first generation (or round) boundary
	// where it has played BudgetGames games, or run BudgetTime in all
	// (a Go duration: 90m, 8h); 0 and "" mean no budget.
	BudgetGames int    `yaml:"budget-games"`
	BudgetTime  string `yaml:"budget-time"`

	OpponentConfig `yaml:",inline"`

	GeneticConfig  `yaml:",inline"`
	KnockoutConfig `yaml:",inline"`
	SPSAConfig     `yaml:",inline"`
	TexelConfig    `yaml:",inline"`
	CMAESConfig    `yaml:",inline"`
	BayesConfig    `yaml:",inline"`

	// SPSAParamList is internal: the SPSAParams file's lines, filled in
	// when a run is created (like OpeningList).
	SPSAParamList []string `yaml:"spsa-param-list,omitempty"`

	EngineConfig `yaml:",inline"`
}

// TunedEvaluator returns what c tunes in game g: the named evaluator, or, for a
// run tuning an external engine, the evaluator that stands for the
// engine's options (EngineEvaluator of EngineParamList).
func (c Config) TunedEvaluator(g games.Game) (*games.Evaluator, error) {
	if c.TuneEngine != "" {
		ev, _, err := EngineEvaluator(c.EngineParamList)
		return ev, err
	}
	ev, err := games.FindEvaluator(g, c.Evaluator)
	if err != nil {
		return nil, fmt.Errorf("population: %w", err)
	}
	return ev, nil
}

// StartIsReference reports whether tuning must beat the start weights
// (a file, or the defaults) rather than the defaults: false for a random
// start, which the ladder leaves out.
func (c Config) StartIsReference() bool { return c.Start != StartRandom }

// Defaults returns the configuration every run starts from before presets,
// files and flags.
func Defaults() Config {
	return Config{
		Algo: Genetic, Seed: 1, Depth: 4, Openings: "random:8",
		YardstickPairs: 10, Verify: VerifyAuto, VerifyBounds: DefaultVerifyBounds,
		GeneticConfig: GeneticConfig{Population: 16, Generations: 10, Games: 4, Fitness: "score", Selection: "roulette",
			TournamentSize: 3, Crossover: "uniform", Redraw: 0.05, MutationRate: 0.1, Sigma: 0.1, Elite: 1},
		KnockoutConfig: KnockoutConfig{Candidates: 8, Rounds: 10, BestOf: 5, Ties: "extra", Scale: 0.1, Window: 3, Threshold: 0.02},
		CMAESConfig:    CMAESConfig{CMAESGenerations: 30, CMAESPairs: 2, CMAESSigma: 0.1},
		BayesConfig:    BayesConfig{BayesRounds: 60, BayesPairs: 8, BayesAcquisition: AcquireThompson},
		TexelConfig:    TexelConfig{TexelRounds: 3, TexelGames: 500, TexelOpeningPlies: 8, TexelGatePairs: AutoTexelGatePairs},
		SPSAConfig: SPSAConfig{SPSAIterations: 1000, SPSABlock: 16, SPSAARatio: 0.1, SPSAAlpha: 0.602, SPSAGamma: 0.101,
			SPSACEnd: 0.05, SPSAREnd: 0.002},
	}
}

// preset is a named set of overrides applied on top of Defaults, and what
// it runs in words (tune run --help shows them).
type preset struct {
	doc   string
	apply func(*Config)
}

// presets rerun the experiments of two published tuning studies. A doc
// counts games and pairs in the words of the keys: a pair is two games from
// one opening with colours swapped, and the genetic games key counts pairs.
var presets = map[string]preset{
	// After an Othello tuning report: weights in [0, 2.5] by 0.1 (the
	// report evaluator's ranges), no Gaussian steps, no elite.
	"othello-report": {
		doc: "genetic tuning of Othello, evaluator report (four terms): 25 genomes, 35 generations, " +
			"each genome plays 5 pairs (10 games) against opponents drawn from the others, depth 6, " +
			"roulette selection, all weights re-drawn with probability 0.05",
		apply: func(c *Config) {
			c.Game, c.Evaluator, c.Algo = "othello", "report", Genetic
			c.Population, c.Generations, c.Games, c.Depth = 25, 35, 5, 6
			c.Fitness, c.Selection, c.Crossover = "score", "roulette", "uniform"
			c.Redraw, c.MutationRate, c.Elite = 0.05, 0, 0
		},
	},
	// After a checkers tuning paper: candidates drawn as sums of ten
	// uniform draws in [-1, 1].
	"checkers-paper": {
		doc: "knockout tuning of checkers, evaluator paper (material): up to 20 rounds of 8 candidates " +
			"drawn around the winner, best-of-5 games a match, ties broken at random, depth 6",
		apply: func(c *Config) {
			c.Game, c.Evaluator, c.Algo = "checkers", "paper", Knockout
			c.Candidates, c.Rounds, c.BestOf, c.Ties, c.Scale = 8, 20, 5, "random", 1
			c.Window, c.Threshold = 5, 0.01
			c.Depth = 6
		},
	},
}

// PresetNames returns the names of the presets, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PresetHelp describes every preset, one "name: what it runs;" line each,
// sorted by name, for tune run --help.
func PresetHelp() string {
	var b strings.Builder
	for _, n := range PresetNames() {
		line := "  " + n + ":"
		for _, w := range strings.Fields(presets[n].doc + ";") {
			if len(line)+1+len(w) > 80 {
				b.WriteString(line + "\n")
				line = "   "
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// ApplyPreset applies the named preset to c.
func ApplyPreset(c *Config, name string) error {
	p, ok := presets[name]
	if !ok {
		return fmt.Errorf("population: unknown preset %q (presets: %s)", name, strings.Join(PresetNames(), ", "))
	}
	p.apply(c)
	return nil
}

// internalKeys are filled in when a run is created (see Config).
var internalKeys = map[string]string{
	"opening-list":      "openings",
	"training-pool":     "openings",
	"start-weights":     "start",
	"spsa-param-list":   "spsa-params",
	"engine-param-list": "engine-params",
	"opponent-weights":  "opponents",
}

// copiedKeys are the internal keys a user's config may carry, copied from
// a recorded one: they name no file (a resumed run keeps its own).
var copiedKeys = map[string]bool{"training-pool": true}

// ParseConfig reads a recorded YAML config over Defaults, internal keys
// included; a key that does not exist, or a number that is not an integer
// for an integer key, is an error. A run on random openings recorded
// before training pools grew (no training-pool) trains on its fixed
// openings (FixedPool), as it began; a Texel run recorded before its
// rounds had gates (no texel-gate-pairs) has none; a run recorded before
// verification (no verify key) is not verified (VerifyOff).
func ParseConfig(data []byte) (Config, error) {
	c := Defaults()
	if err := mergeConfig(&c, data, true); err != nil {
		return Config{}, err
	}
	if c.TrainingPool == "" && tournament.IsRandomOpenings(c.Openings) {
		c.TrainingPool = FixedPool
	}
	if !slices.Contains(ConfigKeys(data), "texel-gate-pairs") {
		c.TexelGatePairs = 0
	}
	if !slices.Contains(ConfigKeys(data), "verify") {
		c.Verify = VerifyOff
	}
	return c, nil
}

// MergeConfig reads a user's YAML keys from data over c, each under its
// YAML name or its flag's name (positions for texel-positions,
// positions-from, params). A key that does not exist, one setting given
// under both names, an internal key (opening-list, start-weights: set openings
// and start instead), or a number that is not an integer for an integer
// key (population: 2.5, games: 1e9) is an error that names it and its
// line.
func MergeConfig(c *Config, data []byte) error {
	return mergeConfig(c, data, false)
}

// ConfigKeys lists the top-level keys of a user's YAML config data, in
// order, each by its YAML name (texel-positions for positions): the keys it sets (MergeConfig reads their values and reports what
// is wrong with them; ConfigKeys lists none of data that does not parse).
func ConfigKeys(data []byte) []string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	var keys []string
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		key := m.Content[i].Value
		if k, ok := flagKeys[key]; ok {
			key = k
		}
		keys = append(keys, key)
	}
	return keys
}

// integerKeys are the YAML keys of Config's integer fields.
var integerKeys = func() map[string]bool {
	keys := map[string]bool{}
	yamlFields(reflect.ValueOf(&Config{}).Elem(), func(key string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			keys[key] = true
		}
	})
	return keys
}()

// userKeys lists the keys a user's config may set, in Config's order.
func userKeys() []string {
	var keys []string
	yamlFields(reflect.ValueOf(&Config{}).Elem(), func(key string, _ reflect.Value) {
		if _, internal := internalKeys[key]; !internal {
			keys = append(keys, key)
		}
	})
	return keys
}

// yamlFields calls f with the YAML key and the value of each field of the
// struct v, in order, the fields of inlined sections in their place.
func yamlFields(v reflect.Value, f func(key string, v reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")
		if tag[0] == "" && len(tag) > 1 && tag[1] == "inline" {
			yamlFields(v.Field(i), f)
			continue
		}
		f(tag[0], v.Field(i))
	}
}

func mergeConfig(c *Config, data []byte, internal bool) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("population: config: %w", err)
	}
	if len(root.Content) == 0 {
		return nil // no document: nothing to set
	}
	if len(root.Content) == 1 && root.Content[0].Kind == yaml.MappingNode {
		if err := checkConfigKeys(c, root.Content[0], internal); err != nil {
			return err
		}
	}
	if err := root.Decode(c); err != nil {
		return fmt.Errorf("population: config: %v (keys: %s)", err, strings.Join(flagNames(), ", "))
	}
	// An empty list or map reads as one, but is written as none.
	if len(c.OpeningList) == 0 {
		c.OpeningList = nil
	}
	if len(c.StartWeights) == 0 {
		c.StartWeights = nil
	}
	if len(c.EngineParamList) == 0 {
		c.EngineParamList = nil
	}
	if len(c.SPSAParamList) == 0 {
		c.SPSAParamList = nil
	}
	if len(c.Opponents) == 0 {
		c.Opponents = nil
	}
	if len(c.OpponentWeights) == 0 {
		c.OpponentWeights = nil
	}
	return nil
}

// checkConfigKeys checks the keys of a config's mapping m and renames a
// key given by its flag's name (flagKeys) to its YAML key, so that m
// decodes into a Config. A key that does not exist, a setting given
// twice (under both its names), an internal key in a user's config, or a
// number that is not an integer for an integer key is an error naming the
// line.
func checkConfigKeys(c *Config, m *yaml.Node, internal bool) error {
	type given struct {
		line int
		as   string
	}
	seen := map[string]given{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" {
			continue // a YAML merge of an anchored mapping
		}
		as := k.Value
		if key, ok := flagKeys[as]; ok {
			k.Value = key
		}
		if first, ok := seen[k.Value]; ok {
			return fmt.Errorf("population: config: line %d: %s sets %s, set already on line %d (as %s)", k.Line, as, k.Value, first.line, first.as)
		}
		seen[k.Value] = given{k.Line, as}
		if instead, ok := internalKeys[k.Value]; ok && !internal && !copiedKeys[k.Value] {
			return fmt.Errorf("population: config: line %d: %s is filled in when a run is created; set %s instead", k.Line, k.Value, instead)
		}
		if c.Field(k.Value) == nil {
			return fmt.Errorf("population: config: line %d: unknown key %q (keys: %s)", k.Line, as, strings.Join(flagNames(), ", "))
		}
		if integerKeys[k.Value] && (v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int") {
			return fmt.Errorf("population: config: line %d: %s %q is not an integer (write digits only, e.g. %s: 16)", v.Line, as, v.Value, as)
		}
	}
	return nil
}

// flagKeys maps the flag name of each key whose flag is named otherwise
// (positions, positions-from, params), and each key's alias (pairs), to its
// YAML key: a user's config takes either, since its keys are documented as
// the flag names.
var flagKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range Keys {
		if k.Flag != "" {
			m[k.Flag] = k.Name
		}
		if k.Alias != "" {
			m[k.Alias] = k.Name
		}
	}
	return m
}()

// flagNames lists the keys of a user's config by their flags' names.
func flagNames() []string {
	names := make([]string, len(Keys))
	for i, k := range Keys {
		names[i] = k.FlagName()
	}
	return names
}

// PlannedGenerations is the number of generations (rounds, iteration
// blocks, fit steps) the config plans, budgets aside.
func (c Config) PlannedGenerations() int {
	switch c.Algo {
	case Knockout:
		return c.Rounds
	case Texel:
		return c.TexelRounds
	case CMAES:
		return c.CMAESGenerations
	case Bayes:
		return c.BayesRounds
	case SPSA:
		return (c.SPSAIterations + max(c.SPSABlock, 1) - 1) / max(c.SPSABlock, 1)
	}
	return c.Generations
}

// Budgeted reports whether a run of c ends by a budget (budget-games or
// budget-time) rather than by its length alone.
func (c Config) Budgeted() bool { return c.BudgetGames > 0 || c.BudgetTime != "" }

// ExpectedGenerations is how many generations a run of c is expected to
// close, having closed done of them in games games and seconds of running
// time: its planned length; with a budget, the generations done scaled to
// the budget at the pace so far (the nearer of the games and the time
// budget), at least done and at most the planned length. Before its first
// generation a budgeted run expects its planned length.
func (c Config) ExpectedGenerations(done, games int, seconds float64) int {
	planned := c.PlannedGenerations()
	if !c.Budgeted() || done == 0 {
		return planned
	}
	expected := math.Inf(1)
	if c.BudgetGames > 0 && games > 0 {
		expected = float64(done) * float64(c.BudgetGames) / float64(games)
	}
	if d, err := c.TimeBudget(); err == nil && d > 0 && seconds > 0 {
		expected = min(expected, float64(done)*d.Seconds()/seconds)
	}
	if math.IsInf(expected, 1) {
		return planned
	}
	return max(done, min(planned, int(math.Ceil(expected))))
}

// GenerationOf names generation i (from 0) for a person: "generation 3/10"
// (or round, block) against the planned length, or "generation 3" when a
// budget ends the run (a length sized to a budget says nothing).
func (c Config) GenerationOf(i int) string {
	if c.Budgeted() {
		return fmt.Sprintf("%s %d", c.GenerationName(), i+1)
	}
	return fmt.Sprintf("%s %d/%d", c.GenerationName(), i+1, c.PlannedGenerations())
}

// GenerationName is what a generation of c's tuner is called: a "round"
// of knockout, Texel or Bayes, a "block" of SPSA iterations, else a
// "generation".
func (c Config) GenerationName() string {
	switch c.Algo {
	case Knockout, Texel, Bayes:
		return "round"
	case SPSA:
		return "block"
	}
	return "generation"
}

// TimeBudget is the budget-time key as a duration: 0 when none.
func (c Config) TimeBudget() (time.Duration, error) {
	if c.BudgetTime == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(c.BudgetTime)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("population: budget-time %q is not a positive duration (write e.g. 90m, 8h, 1h30m)", c.BudgetTime)
	}
	return d, nil
}

// Marshal writes c as YAML.
func (c Config) Marshal() []byte {
	data, err := yaml.Marshal(c)
	if err != nil {
		panic(err) // a struct of plain fields always marshals
	}
	return data
}

// Validate checks every field; errors name the field and what is accepted.
// The settings common to every tuner are checked here, the chosen tuner's
// by its section.
func (c Config) Validate() error {
	if validated != nil {
		validated()
	}
	if c.Game == "" {
		return bad("no game (the config's game)")
	}
	if (len(c.TexelPositionsFrom) > 0 || c.TexelPositions != "") && c.Algo != Texel {
		return bad("texel-positions-from and texel-positions feed Texel's fit: they need algo texel, not %s", c.Algo)
	}
	if err := c.EngineConfig.validate(); err != nil {
		return err
	}
	if err := (engine.Limits{Depth: c.Depth, Nodes: c.Nodes}).Check(); errors.Is(err, engine.ErrNoLimit) {
		return bad("a search needs depth >= 1 or nodes >= 1 (depth %d, nodes %d)", c.Depth, c.Nodes)
	} else if err != nil {
		return bad("%v", err)
	}
	if c.MaxPlies < 0 || c.MaxPlies > MaxPlyCap {
		return bad("max-plies %d: 0 (the default cap) to %d", c.MaxPlies, MaxPlyCap)
	}
	if c.YardstickPairs < 0 || c.YardstickPairs > MaxYardstickPairs || c.YardstickEvery < 0 {
		return bad("yardstick-pairs must be 0 to %d and yardstick-every >= 0 (0: auto; got %d, %d)", MaxYardstickPairs, c.YardstickPairs, c.YardstickEvery)
	}
	if c.LadderPairs < -1 || c.LadderPairs > MaxLadderPairs {
		return bad("ladder-pairs %d: 1 to %d pairs, 0 for a tenth of the run's games, or -1 for no ladder", c.LadderPairs, MaxLadderPairs)
	}
	if err := c.validateVerify(); err != nil {
		return err
	}
	if c.BudgetGames < 0 || c.BudgetGames > MaxBudgetGames {
		return bad("budget-games %d: 1 to %d games, or 0 for no budget", c.BudgetGames, MaxBudgetGames)
	}
	if _, err := c.TimeBudget(); err != nil {
		return err
	}
	if c.TrainingPool != "" && c.TrainingPool != GrowingPool && c.TrainingPool != FixedPool {
		return bad("training-pool %q: %s (random openings drawn from a pool that grows) or %s (the run's own openings)", c.TrainingPool, GrowingPool, FixedPool)
	}
	for name, w := range c.StartWeights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return bad("start-weights: %s is %g, not a finite number", name, w)
		}
	}
	if err := c.OpponentConfig.validate(c.Algo); err != nil {
		return err
	}
	if err := c.checkOpponentGames(); err != nil {
		return err
	}
	switch c.Algo {
	case Genetic:
		return c.GeneticConfig.validate()
	case Knockout:
		return c.KnockoutConfig.validate()
	case SPSA:
		return c.SPSAConfig.validate(c.BudgetGames)
	case CMAES:
		return c.CMAESConfig.validate(c.BudgetGames)
	case Texel:
		return c.TexelConfig.validate(c.BudgetGames)
	case Bayes:
		return c.BayesConfig.validate(c.BudgetGames, c.bayesRoundGames())
	}
	return bad("unknown algo %q (genetic, knockout, spsa, cmaes, texel or bayes)", c.Algo)
}

// validated, when a test sets it, is called by every Validate: a run
// validates its config once (see Plan).
var validated func()

// bad is an error of a config's value: format says which and what is
// accepted.
func bad(format string, args ...any) error {
	return fmt.Errorf("population: "+format, args...)
}

// check is bad(format, args...) unless ok, and nil when ok.
func check(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return bad(format, args...)
}

// firstError is the first of errs that is not nil: a section's checks in
// the order they are stated.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// probability checks that p is a probability.
func probability(name string, p float64) error {
	if math.IsNaN(p) || p < 0 || p > 1 {
		return bad("%s %g is not a probability in [0, 1]", name, p)
	}
	return nil
}

// Diff lists the settings that differ from c to d, as "key: old -> new".
func (c Config) Diff(d Config) []string {
	a, b := c.fields(), d.fields()
	var out []string
	for _, k := range diffKeys(a, b) {
		out = append(out, fmt.Sprintf("%s: %v -> %v", k, a[k], b[k]))
	}
	return out
}

// fields is the config as its YAML keys and values.
func (c Config) fields() map[string]any {
	var m map[string]any
	yaml.Unmarshal(c.Marshal(), &m)
	return m
}

// diffKeys lists, sorted, the keys whose values differ between a and b.
func diffKeys(a, b map[string]any) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if fmt.Sprint(a[k]) != fmt.Sprint(b[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// resumableKeys are the settings a run may change when it is resumed: when
// it stops, and its verification (played after its last generation, its
// games keyed by pair alone). Every other setting decides which games are
// played and how, so changing it would mix the stored games of one run
// with those of another.
var resumableKeys = map[string]bool{
	"generations": true, "rounds": true, "converge": true, "window": true, "threshold": true,
	"budget-games": true, "budget-time": true,
	"verify": true, "verify-bounds": true, "verify-pairs": true,
}

// ErrNotResumable is wrapped by CheckResume's error.
var ErrNotResumable = errors.New("population: a run cannot go on with this config")

// ResumeWith reads a user's config (YAML keys over Defaults, as
// MergeConfig) to go on with a run recorded with config c: what c resolved
// from files (the opening list, the start weights) carries over where the
// config names the same files, and so does the verify key when the config
// leaves it out (a run recorded before verification stays unverified, as
// the copy of its config it was started with says nothing of it). It
// returns that config and how it differs from c (Diff), and an error
// wrapping ErrNotResumable when it changes more than CheckResume allows.
func (c Config) ResumeWith(data []byte) (Config, []string, error) {
	want := Defaults()
	if err := MergeConfig(&want, data); err != nil {
		return Config{}, nil, err
	}
	if want.Openings == c.Openings {
		want.OpeningList, want.TrainingPool = c.OpeningList, c.TrainingPool
	}
	if want.Start == c.Start {
		want.StartWeights = c.StartWeights
	}
	if slices.Equal(want.Opponents, c.Opponents) {
		want.OpponentWeights = c.OpponentWeights
	}
	if !slices.Contains(ConfigKeys(data), "verify") {
		want.Verify = c.Verify // a run recorded before verification stays unverified
	}
	if !slices.Contains(ConfigKeys(data), "texel-gate-pairs") {
		want.TexelGatePairs = c.TexelGatePairs // a Texel run recorded before gates stays without them
	}
	diff := c.Diff(want)
	if len(diff) == 0 {
		return want, nil, nil
	}
	return want, diff, c.CheckResume(want)
}

// CheckResume reports whether a run recorded with config c may go on with
// config d: only the settings of when it stops (generations, rounds,
// converge, window, threshold, budget-games, budget-time) may differ. The error names the others.
func (c Config) CheckResume(d Config) error {
	var bad []string
	for _, k := range diffKeys(c.fields(), d.fields()) {
		if !resumableKeys[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: it changes %s, which decide the games already recorded (only generations, rounds, converge, window, threshold, the budgets and the verification may change); start a new run instead", ErrNotResumable, strings.Join(bad, ", "))
	}
	return nil
}

// sections are the tuners' own sections of a Config, by algorithm.
var sections = map[Algo]any{Genetic: GeneticConfig{}, Knockout: KnockoutConfig{}, SPSA: SPSAConfig{}, CMAES: CMAESConfig{}, Texel: TexelConfig{}, Bayes: BayesConfig{}}

// OwnSettings is c as YAML without the other tuners' sections: the
// settings every run shares and its own tuner's, in Marshal's order, for
// a reader (a run's report). The run's config.yaml keeps every key.
func (c Config) OwnSettings() []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(c.Marshal(), &doc); err != nil || len(doc.Content) == 0 {
		return c.Marshal()
	}
	others := map[string]bool{}
	for algo, section := range sections {
		if algo == c.Algo {
			continue
		}
		t := reflect.TypeOf(section)
		for i := range t.NumField() {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" {
				others[name] = true
			}
		}
	}
	own := map[string]bool{}
	if t := reflect.TypeOf(sections[c.Algo]); t != nil {
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			own[name] = true
		}
	}
	m := doc.Content[0]
	kept := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if key := m.Content[i].Value; !others[key] || own[key] {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
	out, err := yaml.Marshal(m)
	if err != nil {
		return c.Marshal()
	}
	return out
}
