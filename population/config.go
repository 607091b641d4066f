package population

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is everything that decides a tuning run's result. The run
// directory keeps it fully resolved; the number of workers is not part of
// it, since results never depend on it.
type Config struct {
	Game      string `yaml:"game"`
	Evaluator string `yaml:"evaluator"`
	Algo      string `yaml:"algo"` // genetic or knockout
	Seed      uint64 `yaml:"seed"`
	Depth     int    `yaml:"depth"` // search depth of every game (or nodes)
	Nodes     int64  `yaml:"nodes"`
	Openings  string `yaml:"openings"`  // "" (the start), random:N, or a file of positions
	MaxPlies  int    `yaml:"max-plies"` // ply cap of a game; 0 means the tournament default
	Start     string `yaml:"start"`     // weights file to start from; "" means random (genetic) or zeros (knockout)
	// StartWeights and OpeningList are filled from the Start and Openings
	// files when a run is created, so that a resumed run needs neither file.
	StartWeights map[string]float64 `yaml:"start-weights,omitempty"`
	OpeningList  []string           `yaml:"opening-list,omitempty"`

	YardstickPairs int `yaml:"yardstick-pairs"` // colour-swapped pairs against the defaults; 0 = none
	YardstickEvery int `yaml:"yardstick-every"` // every g generations (and the last)

	// Genetic algorithm.
	Population     int     `yaml:"population"`
	Generations    int     `yaml:"generations"`
	Games          int     `yaml:"games"`     // opponents each genome meets (a colour-swapped pair each)
	Fitness        string  `yaml:"fitness"`   // score or exp
	Selection      string  `yaml:"selection"` // roulette, sus or tournament
	TournamentSize int     `yaml:"tournament-size"`
	Crossover      string  `yaml:"crossover"` // uniform, blend or none
	Redraw         float64 `yaml:"redraw"`    // probability that a child's weights are all re-drawn (the report's mutation)
	MutationRate   float64 `yaml:"mutation-rate"`
	Sigma          float64 `yaml:"sigma"` // Gaussian step, as a fraction of each range
	Elite          int     `yaml:"elite"`
	Converge       float64 `yaml:"converge"` // stop when diversity falls below this; 0 = never

	// Knockout tuner.
	Candidates int     `yaml:"candidates"`
	Rounds     int     `yaml:"rounds"`
	BestOf     int     `yaml:"best-of"`
	Ties       string  `yaml:"ties"`  // random or extra
	Scale      float64 `yaml:"scale"` // multiplies the sum of ten uniform draws in [-1, 1]
	Window     int     `yaml:"window"`
	Threshold  float64 `yaml:"threshold"` // stop when the last Window distances are all below it
}

// Defaults returns the configuration every run starts from before presets,
// files and flags.
func Defaults() Config {
	return Config{
		Algo: "genetic", Seed: 1, Depth: 4, Openings: "random:8",
		YardstickPairs: 10, YardstickEvery: 1,
		Population: 16, Generations: 10, Games: 4, Fitness: "score", Selection: "roulette",
		TournamentSize: 3, Crossover: "uniform", Redraw: 0.05, MutationRate: 0.1, Sigma: 0.1, Elite: 1,
		Candidates: 8, Rounds: 10, BestOf: 5, Ties: "random", Scale: 0.1, Window: 3, Threshold: 0.02,
	}
}

// Presets rerun the source documents' experiments. Each is a set of
// overrides applied on top of Defaults.
var Presets = map[string]func(*Config){
	// The Othello report: 25 genomes, 35 generations, 10 games each, depth
	// 6, weights in [0, 2.5] by 0.1 (the report evaluator's ranges),
	// roulette selection, re-draw mutation 0.05.
	"othello-report": func(c *Config) {
		c.Game, c.Evaluator, c.Algo = "othello", "report", "genetic"
		c.Population, c.Generations, c.Games, c.Depth = 25, 35, 5, 6
		c.Fitness, c.Selection, c.Crossover = "score", "roulette", "uniform"
		c.Redraw, c.MutationRate, c.Elite = 0.05, 0, 0
	},
	// The checkers report: the paper evaluator, knockout tournaments of
	// best-of-5 matches, ties at random, weights drawn as sums of ten
	// uniform draws in [-1, 1].
	"checkers-paper": func(c *Config) {
		c.Game, c.Evaluator, c.Algo = "checkers", "paper", "knockout"
		c.Candidates, c.Rounds, c.BestOf, c.Ties, c.Scale = 8, 20, 5, "random", 1
		c.Window, c.Threshold = 5, 0.01
		c.Depth = 6
	},
}

// ApplyPreset applies the named preset to c.
func ApplyPreset(c *Config, name string) error {
	p, ok := Presets[name]
	if !ok {
		names := make([]string, 0, len(Presets))
		for n := range Presets {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("population: unknown preset %q (presets: %s)", name, strings.Join(names, ", "))
	}
	p(c)
	return nil
}

// ParseConfig reads a YAML config over Defaults; a key that does not exist
// is an error.
func ParseConfig(data []byte) (Config, error) {
	c := Defaults()
	if err := MergeConfig(&c, data); err != nil {
		return Config{}, err
	}
	return c, nil
}

// MergeConfig reads YAML keys from data over c; a key that does not exist
// is an error that names it.
func MergeConfig(c *Config, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && err.Error() != "EOF" {
		return fmt.Errorf("population: config: %v (keys are those of 'tune run --help', e.g. population, generations)", err)
	}
	return nil
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
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("population: "+format, args...)
	}
	prob := func(name string, p float64) error {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return bad("%s %g is not a probability in [0, 1]", name, p)
		}
		return nil
	}
	if c.Game == "" {
		return bad("no game (set --game or the config's game)")
	}
	if c.Depth < 0 || c.Nodes < 0 || (c.Depth == 0 && c.Nodes == 0) {
		return bad("a search needs depth >= 1 or nodes >= 1 (depth %d, nodes %d)", c.Depth, c.Nodes)
	}
	if c.Depth > 30 {
		return bad("depth %d is more than 30", c.Depth)
	}
	if c.MaxPlies < 0 {
		return bad("max-plies %d is negative", c.MaxPlies)
	}
	if c.YardstickPairs < 0 || c.YardstickEvery < 1 {
		return bad("yardstick-pairs must be >= 0 and yardstick-every >= 1 (got %d, %d)", c.YardstickPairs, c.YardstickEvery)
	}
	switch c.Algo {
	case "genetic":
		if c.Population < 2 {
			return bad("population %d: need at least 2 genomes", c.Population)
		}
		if c.Generations < 1 {
			return bad("generations %d: need at least 1", c.Generations)
		}
		if c.Games < 1 || c.Games > c.Population-1 {
			return bad("games %d: each genome meets 1 to population-1 = %d opponents", c.Games, c.Population-1)
		}
		switch c.Fitness {
		case "score", "exp":
		default:
			return bad("unknown fitness %q (score or exp)", c.Fitness)
		}
		switch c.Selection {
		case "roulette", "sus":
		case "tournament":
			if c.TournamentSize < 2 || c.TournamentSize > c.Population {
				return bad("tournament-size %d: 2 to population (%d)", c.TournamentSize, c.Population)
			}
		default:
			return bad("unknown selection %q (roulette, sus or tournament)", c.Selection)
		}
		switch c.Crossover {
		case "uniform", "blend", "none":
		default:
			return bad("unknown crossover %q (uniform, blend or none)", c.Crossover)
		}
		if err := prob("redraw", c.Redraw); err != nil {
			return err
		}
		if err := prob("mutation-rate", c.MutationRate); err != nil {
			return err
		}
		if math.IsNaN(c.Sigma) || c.Sigma < 0 || c.Sigma > 1 {
			return bad("sigma %g out of range [0, 1] (a fraction of each weight's range)", c.Sigma)
		}
		if c.Elite < 0 || c.Elite >= c.Population {
			return bad("elite %d: 0 to population-1 = %d", c.Elite, c.Population-1)
		}
		if math.IsNaN(c.Converge) || c.Converge < 0 {
			return bad("converge %g must be >= 0", c.Converge)
		}
	case "knockout":
		if c.Candidates < 2 || c.Candidates > 1024 {
			return bad("candidates %d: 2 to 1024", c.Candidates)
		}
		if c.Rounds < 1 {
			return bad("rounds %d: need at least 1", c.Rounds)
		}
		if c.BestOf < 1 {
			return bad("best-of %d: need at least 1 game", c.BestOf)
		}
		switch c.Ties {
		case "random", "extra":
		default:
			return bad("unknown ties %q (random or extra)", c.Ties)
		}
		if math.IsNaN(c.Scale) || c.Scale <= 0 {
			return bad("scale %g must be > 0", c.Scale)
		}
		if c.Window < 1 || math.IsNaN(c.Threshold) || c.Threshold < 0 {
			return bad("window %d must be >= 1 and threshold %g >= 0", c.Window, c.Threshold)
		}
	default:
		return bad("unknown algo %q (genetic or knockout)", c.Algo)
	}
	return nil
}

// Diff lists the settings that differ from c to d, as "key: old -> new".
func (c Config) Diff(d Config) []string {
	var a, b map[string]any
	yaml.Unmarshal(c.Marshal(), &a)
	yaml.Unmarshal(d.Marshal(), &b)
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
			out = append(out, fmt.Sprintf("%s: %v -> %v", k, a[k], b[k]))
		}
	}
	sort.Strings(out)
	return out
}
