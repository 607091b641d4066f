package all_test

import (
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestEvaluatorsAreCopies: a caller that changes the evaluators it was
// handed (names, ranges, defaults, the feature list) changes nothing for
// the next caller.
func TestEvaluatorsAreCopies(t *testing.T) {
	for _, g := range all.Games() {
		t.Run(g.Name(), func(t *testing.T) {
			before := g.Evaluators()
			names := make([]string, len(before))
			for i, ev := range before {
				names[i] = ev.Name
			}
			wantFirst := before[0].Features[0]
			for _, ev := range before {
				ev.Name = "changed"
				ev.Features[0].Max, ev.Features[0].Default = 1e9, 1e9
				ev.Features = ev.Features[:0]
			}
			found, err := games.FindEvaluator(g, "")
			if err != nil {
				t.Fatal(err)
			}
			found.Features[0].Min = -1e9
			for i, ev := range g.Evaluators() {
				if ev.Name != names[i] || len(ev.Features) == 0 {
					t.Fatalf("evaluator %d is %q with %d features after a caller changed its copy", i, ev.Name, len(ev.Features))
				}
			}
			if got := g.Evaluators()[0].Features[0]; got != wantFirst {
				t.Fatalf("first feature is %+v after callers changed their copies, want %+v", got, wantFirst)
			}
		})
	}
}

// TestFind finds every game by name, in any case, and lists the names on a
// miss.
func TestFind(t *testing.T) {
	for _, name := range all.Names() {
		g, err := all.Find(name)
		if err != nil || g.Name() != name {
			t.Fatalf("Find(%q) = %v, %v", name, g, err)
		}
	}
	if _, err := all.Find("go"); err == nil {
		t.Fatal("Find(\"go\") found a game")
	}
}
