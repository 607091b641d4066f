package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/results"
)

// bayesParams are the three parameters of the chess engine that issue
// 58's experiment sets wrong: two piece values and the knights' mobility
// (in the engine's option units, half a centipawn a square), each line's
// start the wrong value and its range the box tuned; c_end about a
// twentieth of the range and fishtest's r_end for SPSA (Bayes reads the
// start, min and max alone). The known values are the engine's defaults.
const bayesParams = `knight, int, 540, 150, 600, 22, %[1]g
bishop, int, 165, 150, 600, 22, %[1]g
mobility-knight, int, 28, 0, 30, 1.5, %[1]g
`

var bayesKnown = map[string]struct{ value, min, max float64 }{
	"knight": {300, 150, 600}, "bishop": {300, 150, 600}, "mobility-knight": {8, 0, 30},
}

// TestExperimentBayesAgainstSPSA: issue 58's must-show. Three of the
// chess engine's parameters set wrong (bayesParams: 83 Elo below the
// known values at 2,000 nodes, measured over 100 pairs), exposed as `tune
// engine chess` UCI options through --tune-engine, fixed nodes: Bayes with
// 1,000 games (Thompson sampling, and expected improvement for the
// record) against SPSA with 3,000 (with fishtest's r_end 0.002, and with
// 0.02, a schedule that moves ten times as far). Each
// run's answer is its last champion; its distance to the known values is
// the root mean square of each parameter's error as a fraction of its
// range, and its result against the known values a match of 200 pairs on
// openings the runs did not draw. Bayes (its default, Thompson) must be
// at least as close as each SPSA run. Measured: docs/experiments.md,
// "Bayes against SPSA".
func TestExperimentBayesAgainstSPSA(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	dir := t.TempDir()
	engine := "cmd=" + bin + ",proto=uci,arg=engine,arg=chess,nodes=2000"
	dist := map[string]float64{}
	for _, tc := range []struct {
		name, algo string
		budget     int
		rEnd       float64
		more       []string
	}{
		{"bayes", "bayes", 1000, 0.002, nil},
		{"bayes-ei", "bayes", 1000, 0.002, []string{"--bayes-acquisition", "ei"}},
		{"spsa", "spsa", 3000, 0.002, nil},
		{"spsa-r0.02", "spsa", 3000, 0.02, nil},
	} {
		params := filepath.Join(dir, tc.name+".txt")
		if err := os.WriteFile(params, []byte(fmt.Sprintf(bayesParams, tc.rEnd)), 0o644); err != nil {
			t.Fatal(err)
		}
		run := filepath.Join(dir, tc.name)
		tuneFor(t, bin, append([]string{"run", "--game", "chess", "--algo", tc.algo, "--tune-engine", engine, "--params", params,
			"--budget-games", itoa(tc.budget), "--openings", "random:8", "--seed", "1", "--out", run}, tc.more...)...)
		w := lastChampion(t, run)
		d := knownDistance(w)
		dist[tc.name] = d
		var opts []string
		for name := range bayesKnown {
			opts = append(opts, fmt.Sprintf("option.%s=%g", name, w[name]))
		}
		elo, low, high := matchElo(t, bin, "chess", engine+",name=tuned,"+strings.Join(opts, ","), engine+",name=known", 200, 1, "4242")
		t.Logf("%s (%d games): knight %g, bishop %g, mobility-knight %g; distance %.3f; against the known values, 200 pairs: %+.1f [%+.1f, %+.1f]",
			tc.name, tc.budget, w["knight"], w["bishop"], w["mobility-knight"], d, elo, low, high)
	}
	for _, s := range []string{"spsa", "spsa-r0.02"} {
		if dist["bayes"] > dist[s] {
			t.Errorf("Bayes with 1,000 games ends %.3f from the known values, %s with 3,000 %.3f", dist["bayes"], s, dist[s])
		}
	}
}

// lastChampion is the weights of the champion of a run's last generation
// (what tune export --generation gives for it), by name.
func lastChampion(t *testing.T, dir string) map[string]float64 {
	t.Helper()
	v, err := results.OpenView(dir)
	if err != nil {
		t.Fatal(err)
	}
	best, _, err := results.Best(v.Generations, -1)
	if err != nil {
		t.Fatal(err)
	}
	w := map[string]float64{}
	for i, f := range v.Evaluator.Features {
		w[f.Name] = best.Weights[i]
	}
	return w
}

// knownDistance is the root mean square of each parameter's distance to
// its known value, as a fraction of its range.
func knownDistance(w map[string]float64) float64 {
	sum := 0.0
	for name, k := range bayesKnown {
		d := (w[name] - k.value) / (k.max - k.min)
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(bayesKnown)))
}
