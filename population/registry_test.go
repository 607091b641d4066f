package population

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRegistry: every tuner is registered once, in --algo's order, with
// its section inlined in Config, its keys those of its section's fields
// (and found in Keys), its length key one of them, and its defaults
// touching its own section alone.
func TestRegistry(t *testing.T) {
	want := []Algo{Genetic, Knockout, SPSA, CMAES, Texel, Bayes}
	var got []Algo
	for _, d := range Tuners() {
		got = append(got, d.Algo)
	}
	if !slices.Equal(got, want) || !slices.Equal(Algos, want) {
		t.Fatalf("registered %v (Algos %v), want %v", got, Algos, want)
	}
	if s := AlgoNames(nil, "or"); s != "genetic, knockout, spsa, cmaes, texel or bayes" {
		t.Errorf("AlgoNames: %q", s)
	}
	if s := AlgoNames(func(d *Descriptor) bool { return d.Opponents }, "and"); s != "genetic, spsa, cmaes and bayes" {
		t.Errorf("the tuners with opponents: %q", s)
	}
	inKeys := map[string]bool{}
	for _, k := range Keys {
		inKeys[k.Name] = true
	}
	config := reflect.TypeOf(Config{})
	for _, d := range Tuners() {
		section := reflect.TypeOf(d.Section)
		if f, ok := config.FieldByName(section.Name()); !ok || !f.Anonymous || f.Type != section {
			t.Errorf("%s: its section %s is not inlined in Config", d.Algo, section.Name())
		}
		var fields, keys []string
		for i := range section.NumField() {
			name, _, _ := strings.Cut(section.Field(i).Tag.Get("yaml"), ",")
			fields = append(fields, name)
		}
		for _, k := range d.Keys {
			keys = append(keys, k.Name)
			if !inKeys[k.Name] || !strings.HasPrefix(k.Help, string(d.Algo)+":") && !strings.HasPrefix(k.Help, "spsa and bayes:") {
				t.Errorf("%s: key %s is not in Keys, or its help does not begin with the tuner's name: %q", d.Algo, k.Name, k.Help)
			}
		}
		if !slices.Equal(keys, fields) || !slices.Contains(keys, d.LengthKey) {
			t.Errorf("%s: keys %v, want its section's %v, the length key %s among them", d.Algo, keys, fields, d.LengthKey)
		}
		for _, k := range append(slices.Clone(d.Resumable), d.Later...) {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: its resumable or later key %s is not one of its section's", d.Algo, k)
			}
		}
		var c Config
		d.Defaults(&c)
		blank := Config{}
		reflect.ValueOf(&blank).Elem().FieldByName(section.Name()).Set(reflect.ValueOf(&c).Elem().FieldByName(section.Name()))
		if !reflect.DeepEqual(c, blank) {
			t.Errorf("%s: its defaults set more than its section", d.Algo)
		}
		if c, ok := TunerOf(d.Algo); !ok || c != d {
			t.Errorf("TunerOf(%s) does not find it", d.Algo)
		}
	}
	if _, ok := TunerOf("annealing"); ok {
		t.Error("TunerOf finds a tuner never registered")
	}
}
