package population

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gametune/gametune/games"
)

// The registry of tuners. Everything the rest of gametune knows about one
// tuner (its section of a Config with its defaults, keys and help, how its
// length and games are sized to a budget, how it is validated, its Method,
// and how the reports show it) is its Descriptor, made in the tuner's own
// file and registered here, once, as database/sql drivers register
// themselves. Code elsewhere asks the registry (TunerOf, Tuners) and never
// switches on the algorithm's name: TestNoSwitchOnTheAlgorithm in
// cmd/tune/house_test.go fails on a switch on an Algo, a case of one
// tuner or a comparison with one tuner's name anywhere but in this file.

// Descriptor describes one tuner. Fields marked optional may be nil.
type Descriptor struct {
	Algo Algo
	// Generation is what one of its generations is called: "generation",
	// "round" or "block".
	Generation string
	// LengthKey is the key of its length (generations, rounds,
	// spsa-iterations, ...) and Longest the most of it Validate allows:
	// what a budget whose games cannot be counted in advance gives it.
	LengthKey string
	Longest   int
	// Section is its section of a Config with its defaults (the type of
	// an inlined field of Config; Defaults sets it); Keys are the
	// section's keys with their help, in the section's order.
	Section any
	Keys    []Key
	// Resumable, optional, are the section's keys of when it stops, which
	// a resumed run may change (CheckResume).
	Resumable []string
	// Later, optional, are the section's keys added after runs were
	// recorded, each off at its zero value: a recorded config without
	// one reads it as zero (ParseConfig), and a resume that leaves it
	// out keeps the run's (ResumeWith).
	Later []string
	// Validate checks the section (c is valid otherwise).
	Validate func(c Config) error
	// Foreign, optional, refuses a config of another tuner that sets
	// keys only this one reads.
	Foreign func(c Config) error
	// Opponents says whether it takes opponents; OpponentGames, optional,
	// checks what they add to a generation of a valid config.
	Opponents     bool
	OpponentGames func(c Config) error
	// Resolve, optional, checks c against the evaluator tuned, when a
	// run is set up (Resolve).
	Resolve func(c Config, ev *games.Evaluator) error
	// Generations, optional, is its planned length in generations,
	// budgets aside (nil: the value of its LengthKey).
	Generations func(c Config) int
	// GenerationGames estimates the games of one generation, the
	// yardstick's aside (ev may be nil: no tuned feature).
	GenerationGames func(c Config, ev *games.Evaluator) int
	// TuningGames, optional, estimates the games of its planned length
	// without the yardstick's (nil: Generations times GenerationGames).
	TuningGames func(c Config, ev *games.Evaluator) int
	// SizeToBudget, optional, sizes its length (set to Longest before)
	// so that the tuning's games reach target games of budget-games
	// (nil: the budget ends a run of the longest length). explicit says
	// whether a key was given.
	SizeToBudget func(c *Config, target int, explicit func(key string) bool)
	// New makes its Method for a tuner, at the start of Run.
	New func(t *Tuner) (Method, error)
	// Plan says in words what one generation plays (reports.Plan).
	Plan func(c Config) string
	// Report names the views of a run the reports draw for it: Line (its
	// terms on the terminal's line per generation), Figures (after the
	// Elo figure every run draws) and History (tables); reports holds a
	// drawer for each name, so tuners may share views.
	Report ReportViews
}

// ReportViews are the names of a tuner's views in the reports (see
// Descriptor.Report).
type ReportViews struct {
	Line    string
	Figures []string
	History []string
	Bracket bool // the report draws the last generation's bracket
}

// registry holds the tuners, in the order --algo lists them.
var registry []*Descriptor

// init registers the tuners: a new tuner is its own file (its section,
// its Descriptor, its Method) and a line here, and its section inlined in
// Config.
func init() {
	for _, d := range []*Descriptor{geneticTuner(), knockoutTuner(), spsaTuner(), cmaesTuner(), texelTuner(), bayesTuner()} {
		register(d)
		Algos = append(Algos, d.Algo)
	}
	Keys = configKeys()
	flagKeys = flagAliases()
}

// register adds d to the registry; it panics (a programmer's mistake) on
// a descriptor without its required parts or a name given twice.
func register(d *Descriptor) {
	if d.Algo == "" || d.Section == nil || d.Validate == nil ||
		d.GenerationGames == nil || d.New == nil || d.Plan == nil || d.LengthKey == "" || d.Longest < 1 {
		panic(fmt.Sprintf("population: tuner %q is not fully described", d.Algo))
	}
	if _, ok := TunerOf(d.Algo); ok {
		panic(fmt.Sprintf("population: tuner %q registered twice", d.Algo))
	}
	registry = append(registry, d)
}

// Defaults sets c's section of d's tuner to its defaults (d.Section).
func (d *Descriptor) Defaults(c *Config) {
	section := reflect.ValueOf(d.Section)
	reflect.ValueOf(c).Elem().FieldByName(section.Type().Name()).Set(section)
}

// TunerOf returns the descriptor of algo; false for an unknown one.
func TunerOf(algo Algo) (*Descriptor, bool) {
	for _, d := range registry {
		if d.Algo == algo {
			return d, true
		}
	}
	return nil, false
}

// Tuners returns the registered tuners, in the order --algo lists them.
func Tuners() []*Descriptor { return append([]*Descriptor(nil), registry...) }

// AlgoNames lists the tuners' names in words, those of which takes says
// yes (nil: every one), the last after conj: "genetic, knockout, spsa,
// cmaes, texel or bayes".
func AlgoNames(takes func(*Descriptor) bool, conj string) string {
	var names []string
	for _, d := range registry {
		if takes == nil || takes(d) {
			names = append(names, string(d.Algo))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// tuner is the descriptor of c's algorithm; nil for an unknown one
// (Validate refuses it).
func (c Config) tuner() *Descriptor {
	d, _ := TunerOf(c.Algo)
	return d
}

// laterKeys are the tuners' keys added after runs were recorded
// (Descriptor.Later).
func laterKeys() []string {
	var keys []string
	for _, d := range registry {
		keys = append(keys, d.Later...)
	}
	return keys
}

// configKeys are Keys: the keys every run shares, each tuner's section's
// in Config's order, then the external engine's.
func configKeys() []Key {
	keys := append([]Key(nil), commonKeys...)
	for i := range keys {
		if keys[i].Name == "algo" {
			keys[i].Help = AlgoNames(nil, "or")
		}
	}
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		for _, d := range registry {
			if t.Field(i).Type == reflect.TypeOf(d.Section) {
				keys = append(keys, d.Keys...)
			}
		}
	}
	return append(keys, engineKeys...)
}
