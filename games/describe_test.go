package games_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/tictactoe"
)

// TestDescribe: a game's description names its evaluators in order with
// their features, and reads in JSON with the documented keys.
func TestDescribe(t *testing.T) {
	g := tictactoe.Game()
	d := games.Describe(g)
	if d.Name != g.Name() || d.Start != g.Start().String() || len(d.Evaluators) != len(g.Evaluators()) {
		t.Fatalf("description %+v", d)
	}
	for i, e := range g.Evaluators() {
		if d.Evaluators[i].Name != e.Name || len(d.Evaluators[i].Features) != len(e.Features) {
			t.Errorf("evaluator %d: %+v", i, d.Evaluators[i])
		}
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"name":`, `"doc":`, `"notation":`, `"start":`, `"evaluators":[`, `"features":[`, `"default":`, `"min":`, `"max":`, `"step":`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("the JSON lacks %s: %s", key, data)
		}
	}
}

// TestWriteDescriptions: a game, its evaluators (the first the default)
// and a table of their features.
func TestWriteDescriptions(t *testing.T) {
	d := games.Description{Name: "g", Doc: "a game", Notation: "n", Start: "s", Evaluators: []games.EvaluatorDescription{
		{Name: "e", Doc: "first", Features: []games.Feature{{Name: "f", Doc: "a feature", Default: 1, Min: 0, Max: 2, Step: 0.5}, {Name: "longer", Doc: "b", Max: 10}}},
		{Name: "e2", Doc: "second"},
		{Name: "e3", Doc: "third", Strongest: true},
	}}
	var b strings.Builder
	games.WriteDescriptions(&b, []games.Description{d, {Name: "h", Doc: "another", Notation: "m", Start: "t"}})
	want := `g: a game
  notation: n
  start: s
  evaluator e (default): first
    feature  default  min  max  step  meaning
    f        1        0    2    0.5   a feature
    longer   0        0    10   0     b
  evaluator e2: second
    feature  default  min  max  step  meaning
  evaluator e3 (the strongest: tune engine's default): third
    feature  default  min  max  step  meaning

h: another
  notation: m
  start: t
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestStrongest: the evaluator an engine plays is the last with tables
// (chess pst, Othello and checkers patterns), else the first.
func TestStrongest(t *testing.T) {
	for name, want := range map[string]string{"chess": "pst", "othello": "patterns", "checkers": "patterns", "tictactoe": "lines"} {
		g, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := games.Strongest(g).Name; got != want {
			t.Errorf("%s: strongest %s, want %s", name, got, want)
		}
		d := games.Describe(g)
		for _, e := range d.Evaluators {
			if e.Strongest != (e.Name == want) {
				t.Errorf("%s: evaluator %s marked strongest %v", name, e.Name, e.Strongest)
			}
		}
	}
}
