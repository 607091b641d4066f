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

// TestWidenedIntervalNamed: a best whose interval is family-wise over
// several candidates says so beside it, since its own interval (on the
// ladder's row) is narrower; a plain interval says nothing more.
func TestWidenedIntervalNamed(t *testing.T) {
	c := Choice{Label: "g22", Genome: 545, Reference: "defaults", Source: "ladder", Candidate: "g22",
		Elo: 473, Low: 325, High: 620, Confident: true, Family: 12}
	want := "g22 (genome 545), +473 Elo [+325, +620] (95% family-wise over 12 candidates, wider than its own interval) over the defaults, by the ladder"
	if got := c.Summary(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	c.Family = 1
	if got := c.Summary(); strings.Contains(got, "family-wise") {
		t.Errorf("a plain interval named family-wise: %q", got)
	}
}
