package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
)

// The experiments of the efficacy issue: each tunes for up to 30,000 games
// (8 to 30 minutes on 2 cores), too long for CI, so they run only with
// GAMETUNE_EXPERIMENTS=1. They are the runs whose figures the note
// gives, run the same way.
func experiment(t *testing.T) {
	t.Helper()
	if os.Getenv("GAMETUNE_EXPERIMENTS") != "1" {
		t.Skip("a tuning experiment of up to 30,000 games: set GAMETUNE_EXPERIMENTS=1 to run it")
	}
}

// matchElo plays a weights file (an exported best, a random draw) against
// the defaults and returns the per-game Elo with its interval.
func matchElo(t *testing.T, bin, game, weights, defaults string, pairs, depth int, seed string) (elo, low, high float64) {
	t.Helper()
	p := start(t, bin, "match", "--game", game, "--a", weights, "--b", defaults, "--pairs", itoa(pairs),
		"--depth", itoa(depth), "--seed", seed, "--openings", "random:8", "--json", "--quiet")
	if code := p.exitCode(t, time.Hour); code != 0 {
		t.Fatalf("match: exit %d: %s", code, p.stderr)
	}
	// An infinite Elo is null in JSON: -Inf for a bound below, +Inf above,
	// and for the estimate the side the score is on.
	var m struct {
		Score float64  `json:"score"`
		Elo   *float64 `json:"elo"`
		Low   *float64 `json:"elo_low"`
		High  *float64 `json:"elo_high"`
	}
	if err := json.Unmarshal([]byte(p.stdout.String()), &m); err != nil {
		t.Fatal(err)
	}
	value := func(x *float64, inf float64) float64 {
		if x == nil {
			return inf
		}
		return *x
	}
	side := 1
	if m.Score < 0.5 {
		side = -1
	}
	return value(m.Elo, math.Inf(side)), value(m.Low, math.Inf(-1)), value(m.High, math.Inf(1))
}

func itoa(n int) string { return strconv.Itoa(n) }

func tuneFor(t *testing.T, bin string, args ...string) {
	t.Helper()
	p := start(t, bin, append(args, "--quiet")...)
	if code := p.exitCode(t, 2*time.Hour); code != 0 {
		t.Fatalf("run: exit %d: %s", code, p.stderr)
	}
	t.Log(p.stdout.String())
}

// TestExperimentOthelloFullFromDefaults: issue 26's "defaults that work".
// With default settings only, tune run --game othello --evaluator full
// --start default --budget-games 30000 --depth 4 over seeds 1 to 5: the
// exported best beats default:full with its interval above 0 in an
// independent match of 400 pairs at depth 4 on another seed's openings
// (one opening a pair) for at least 4 of them; about 6 minutes a seed on
// 2 cores. Measurements: docs/experiments.md#what-the-defaults-gain.
func TestExperimentOthelloFullFromDefaults(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	dir := t.TempDir()
	var gains []float64
	above := 0
	for seed := 1; seed <= 5; seed++ {
		run := filepath.Join(dir, fmt.Sprint("seed", seed))
		tuneFor(t, bin, "run", "--game", "othello", "--evaluator", "full", "--start", "default", "--budget-games", "30000",
			"--depth", "4", "--seed", itoa(seed), "--out", run)
		best := filepath.Join(dir, fmt.Sprint("best", seed, ".json"))
		if code, _, errOut := tune(t, "", "export", run, "-o", best); code != 0 {
			t.Fatal(errOut)
		}
		elo, low, high := matchElo(t, bin, "othello", best, "default:full", 400, 4, itoa(1000+seed))
		t.Logf("seed %d: independent match, 400 pairs at depth 4: %+.1f [%+.1f, %+.1f]", seed, elo, low, high)
		gains = append(gains, elo)
		if low > 0 {
			above++
		}
	}
	slices.Sort(gains)
	t.Logf("%d of 5 seeds above 0 with 95%% confidence; median gain %+.1f Elo", above, gains[2])
	if above < 4 {
		t.Fatalf("%d of 5 seeds gained with confidence, want at least 4", above)
	}
}

// TestExperimentCheckersCompare: issue 26's comparison. tune compare
// --game checkers --evaluator full --start default --budget-games 6000
// --depth 4, then every tuner's exported best against default:full, 200
// pairs at depth 4 on another seed's openings: none significantly worse
// than the defaults, at least two significantly better; 10 minutes on 2
// cores. Measurements: docs/experiments.md#what-the-defaults-gain.
func TestExperimentCheckersCompare(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	dir := t.TempDir()
	cmp := filepath.Join(dir, "cmp")
	tuneFor(t, bin, "compare", "--game", "checkers", "--evaluator", "full", "--start", "default", "--budget-games", "6000",
		"--depth", "4", "--out", cmp)
	better := 0
	for _, algo := range []string{"genetic", "knockout", "spsa", "cmaes", "texel"} {
		best := filepath.Join(dir, algo+".json")
		if code, _, errOut := tune(t, "", "export", filepath.Join(cmp, algo), "-o", best); code != 0 {
			t.Fatal(errOut)
		}
		elo, low, high := matchElo(t, bin, "checkers", best, "default:full", 200, 4, "4242")
		t.Logf("%s: independent match, 200 pairs at depth 4: %+.1f [%+.1f, %+.1f]", algo, elo, low, high)
		if high < 0 {
			t.Errorf("%s: its best is significantly worse than the defaults", algo)
		}
		if low > 0 {
			better++
		}
	}
	if better < 2 {
		t.Errorf("%d tuners significantly better than the defaults, want at least 2", better)
	}
}

// TestExperimentChessTextbook: chess textbook at depth 3, from the
// defaults (13,500 games) (the best is never significantly worse than
// them) and from random weights (26,500 games; the ladder rates the last champion well
// above the first, and the material values come out in order).
func TestExperimentChessTextbook(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	budget := map[string]string{"default": "13500", "random": "26500"}
	for _, kind := range []string{"default", "random"} {
		dir := t.TempDir()
		run := filepath.Join(dir, "run")
		args := []string{"run", "--game", "chess", "--evaluator", "textbook", "--depth", "3", "--population", "16", "--games", "4",
			"--generations", "1000", "--budget-games", budget[kind], "--yardstick-pairs", "10", "--yardstick-every", "5", "--elite", "2",
			"--selection", "tournament", "--crossover", "blend", "--mutation-rate", "0.3", "--sigma", "0.05", "--seed", "5", "--out", run}
		if kind == "default" {
			args = append(args, "--start", "default")
		}
		tuneFor(t, bin, args...)
		best := filepath.Join(dir, "best.json")
		if code, _, errOut := tune(t, "", "export", run, "-o", best); code != 0 {
			t.Fatal(errOut)
		}
		elo, low, high := matchElo(t, bin, "chess", best, "default:textbook", 200, 3, "777")
		t.Logf("%s: independent match, 200 pairs at depth 3: %+.1f [%+.1f, %+.1f]", kind, elo, low, high)
		if kind == "default" && high < 0 {
			t.Fatalf("from the defaults, the best is significantly worse than them: %+.1f [%+.1f, %+.1f]", elo, low, high)
		}
		if kind == "random" {
			checkRandomChess(t, run)
		}
	}
}

// checkRandomChess: from random weights, the ladder rates the last
// champion at least +200 Elo above generation 0's and not significantly
// below the defaults, and its material values come out in order (pawn <
// knight, bishop < rook < queen).
func checkRandomChess(t *testing.T, run string) {
	t.Helper()
	_, out, _ := tune(t, "", "show", run, "--json")
	var show struct {
		Ladder struct {
			Entries []struct {
				Label   string             `json:"label"`
				Elo     float64            `json:"elo"`
				High    *float64           `json:"elo_high"` // null: +Inf
				Weights map[string]float64 `json:"weights"`
			} `json:"entries"`
		} `json:"ladder"`
	}
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatal(err)
	}
	e := show.Ladder.Entries
	var g0, last = -1, len(e) - 1
	for i, x := range e {
		if x.Label == population.ChampionLabel(0) {
			g0 = i
		}
	}
	if g0 < 0 || last <= g0 {
		t.Fatalf("ladder %+v", e)
	}
	if gain := e[last].Elo - e[g0].Elo; gain < 200 {
		t.Errorf("the last champion is %+.0f Elo over generation 0's, want at least +200", gain)
	}
	if h := e[last].High; h != nil && *h < 0 {
		t.Errorf("the last champion is significantly below the defaults: %+.0f Elo, at most %+.0f", e[last].Elo, *h)
	}
	w := e[last].Weights
	if !(w["pawn"] < w["knight"] && w["pawn"] < w["bishop"] && w["knight"] < w["rook"] && w["bishop"] < w["rook"] && w["rook"] < w["queen"]) {
		t.Errorf("material values out of order: %v", w)
	}
}

// TestExperimentChessRandomDraws measures what the random-start figure of
// the efficacy issue stands on: how far single random draws of chess
// textbook weights (RandomStart, seeds 1-24, the draws of --start random)
// start below the defaults, 20 pairs each at depth 3. Every tuner reaches
// the defaults' level from such a start, and none was shown past it at
// depth 3, so a gain over generation 0 is mostly this distance. The test
// fails unless the draws spread over more than 200 Elo with one of them
// within 200 Elo of the defaults: then whether a run gains +200 over its
// start depends on its seed.
func TestExperimentChessRandomDraws(t *testing.T) {
	experiment(t)
	bin := buildTune(t)
	dir := t.TempDir()
	g, _ := findGame("chess")
	ev, _ := games.FindEvaluator(g, "textbook")
	var elos []float64
	for seed := uint64(1); seed <= 24; seed++ {
		path := filepath.Join(dir, fmt.Sprintf("draw%d.json", seed))
		var b bytes.Buffer
		if err := games.WriteWeights(&b, g, ev, population.RandomStart(ev, seed), nil); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		elo, low, high := matchElo(t, bin, "chess", path, "default:textbook", 20, 3, "4242")
		t.Logf("draw %2d: %+5.0f [%+.0f, %+.0f] against the defaults", seed, elo, low, high)
		elos = append(elos, elo)
	}
	slices.Sort(elos)
	t.Logf("24 draws: median %+.0f, from %+.0f to %+.0f Elo; %d at or below -200",
		(elos[11]+elos[12])/2, elos[0], elos[23], sort.SearchFloat64s(elos, -200+1e-9))
	if elos[23]-elos[0] <= 200 || elos[23] <= -200 {
		t.Errorf("draws from %+.0f to %+.0f Elo: the gain over a random start would not depend on the seed", elos[0], elos[23])
	}
}
