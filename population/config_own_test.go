package population

import (
	"strings"
	"testing"
)

// TestOwnSettings: a run's settings for a reader hold what every run
// shares and its own tuner's section, none of the other tuners'.
func TestOwnSettings(t *testing.T) {
	for _, tc := range []struct {
		algo      Algo
		want, not []string
	}{
		{SPSA, []string{"game: ", "seed: ", "spsa-iterations: ", "spsa-c-end: "}, []string{"\npopulation: ", "cmaes-sigma: ", "texel-rounds: ", "candidates: "}},
		{Genetic, []string{"game: ", "population: ", "selection: "}, []string{"spsa-iterations: ", "cmaes-sigma: ", "candidates: "}},
		{Knockout, []string{"depth: ", "candidates: ", "best-of: "}, []string{"spsa-c-end: ", "\npopulation: ", "texel-games: "}},
	} {
		c := Defaults()
		c.Game, c.Algo = "othello", tc.algo
		got := "\n" + string(c.OwnSettings())
		for _, w := range tc.want {
			if !strings.Contains(got, "\n"+strings.TrimPrefix(w, "\n")) {
				t.Errorf("%s: no %q in\n%s", tc.algo, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, "\n"+strings.TrimPrefix(n, "\n")) {
				t.Errorf("%s: another tuner's %q in\n%s", tc.algo, n, got)
			}
		}
		if full := string(c.Marshal()); !strings.Contains(full, "cmaes-sigma: ") {
			t.Errorf("Marshal lost a section: %s", full)
		}
	}
}
