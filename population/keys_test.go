package population

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestKeys: Keys documents every key a user's config may set, once, each
// with its help, a flag name of its own and a field.
func TestKeys(t *testing.T) {
	var names []string
	flags := map[string]bool{}
	var c Config
	for _, k := range Keys {
		if k.Help == "" {
			t.Errorf("%s has no help", k.Name)
		}
		if flags[k.FlagName()] {
			t.Errorf("flag --%s twice", k.FlagName())
		}
		flags[k.FlagName()] = true
		if c.Field(k.Name) == nil {
			t.Errorf("%s names no field of Config", k.Name)
		}
		names = append(names, k.Name)
	}
	if want := userKeys(); !slices.Equal(names, want) {
		t.Errorf("Keys are\n%v\nwant the user's keys in Config's order\n%v", names, want)
	}
	if c.Field("opening-list") == nil || c.Field("no-such-key") != nil {
		t.Error("Field does not find the internal keys, or finds a key that does not exist")
	}
}

// TestCopyKey: CopyKey sets one field, of any kind, and leaves the others.
func TestCopyKey(t *testing.T) {
	from := Defaults()
	from.Algo, from.Seed, from.Nodes, from.Sigma, from.TexelPositionsFrom, from.Game = SPSA, 9, 1000, 0.5, []string{"a", "b"}, "chess"
	c := Defaults()
	for _, k := range []string{"algo", "seed", "nodes", "sigma", "texel-positions-from"} {
		c.CopyKey(k, &from)
	}
	if c.Algo != SPSA || c.Seed != 9 || c.Nodes != 1000 || c.Sigma != 0.5 || !slices.Equal(c.TexelPositionsFrom, []string{"a", "b"}) || c.Game != "" {
		t.Fatalf("after copying: %+v", c)
	}
}

// testSources finds games in the registry and reads files from disk.
type testSources struct{}

func (testSources) Game(name string) (games.Game, error) { return all.Find(name) }
func (testSources) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
func (testSources) RunGames(string, int) (string, []GameResult, error) {
	return "", nil, nil
}

// TestValidatedOnce: a run (Resolve, New, Run to its end, ladder
// included) validates its config once, in Resolve: the plan carries the
// validation to everything made from it.
func TestValidatedOnce(t *testing.T) {
	n := 0
	validated = func() { n++ }
	defer func() { validated = nil }()
	cfg := smallGenetic()
	cfg.Generations, cfg.LadderPairs = 2, 1
	runResolved(t, cfg)
	if n != 1 {
		t.Fatalf("the config was validated %d times, want once", n)
	}
}

// TestConfigFlagNames: a user's config takes every key under its flag's
// name (positions, positions-from, params), as the help says ("keys are
// the flag names"), and under its YAML name; ConfigKeys names either by
// the YAML name; one setting given under both names is an error naming
// both.
func TestConfigFlagNames(t *testing.T) {
	data := []byte("algo: texel\npositions: labelled.epd\npositions-from: [run1, run2]\ntune-engine: cmd=x,proto=uci\nparams: params.txt\n")
	c := Defaults()
	if err := MergeConfig(&c, data); err != nil {
		t.Fatal(err)
	}
	if c.TexelPositions != "labelled.epd" || !slices.Equal(c.TexelPositionsFrom, []string{"run1", "run2"}) || c.EngineParams != "params.txt" {
		t.Fatalf("read %q %q %q", c.TexelPositions, c.TexelPositionsFrom, c.EngineParams)
	}
	if got, want := ConfigKeys(data), []string{"algo", "texel-positions", "texel-positions-from", "tune-engine", "engine-params"}; !slices.Equal(got, want) {
		t.Fatalf("ConfigKeys %v, want %v", got, want)
	}
	for _, k := range Keys {
		d := Defaults()
		if err := MergeConfig(&d, []byte(k.FlagName()+": 1\n")); err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("flag name %s refused in a config: %v", k.FlagName(), err)
		}
	}
	d := Defaults()
	err := MergeConfig(&d, []byte("texel-positions: a\npositions: b\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "positions") || !strings.Contains(err.Error(), "texel-positions") {
		t.Fatalf("a setting under both names: %v", err)
	}
	if err := MergeConfig(&d, []byte("game: chess\npositoins: a\n")); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "positoins") {
		t.Fatalf("an unknown key: %v", err)
	}
	if err := MergeConfig(&d, []byte("population: x\n")); err == nil || !strings.Contains(err.Error(), "population") {
		t.Fatalf("a key of the wrong type: %v", err)
	}
}
