package reports

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// compareView is a comparison of genetic, spsa and cmaes on tic-tac-toe:
// genetic's run with 2 generations (6 games spent), spsa's with 1 (4),
// cmaes not started; rated, with the shared ladder (the defaults, the
// reference, at -5; genetic's champions at +5 and +45 [+15, +75], spsa's
// at +25 [-15, +65]).
func compareView(t *testing.T, rated bool) *results.CompareView {
	t.Helper()
	w := []float64{1, -1, 2, -2}
	tuner := func(algo string, spents ...int) results.CompareTuner {
		cfg := population.Defaults()
		cfg.Game, cfg.Algo, cfg.BudgetGames = "tictactoe", population.Algo(algo), 40
		var hist []population.Generation
		for i, s := range spents {
			hist = append(hist, population.Generation{Index: i, Best: i, Spent: s, Mean: w, Std: make([]float64, 4), Genomes: []population.Genome{{ID: i, Weights: w}}})
		}
		info := results.Info{Dir: "cmp/" + algo, Game: "tictactoe", Algo: algo, Status: "done", Games: spents[len(spents)-1], Seconds: 1.5, Generations: len(spents)}
		v, err := results.NewView(algo, cfg, info, hist, nil)
		if err != nil {
			t.Fatal(err)
		}
		return results.CompareTuner{Algo: algo, Info: info, View: v}
	}
	tuners := []results.CompareTuner{tuner("genetic", 3, 6), tuner("spsa", 4),
		{Algo: "cmaes", Info: results.Info{Game: "tictactoe", Algo: "cmaes", Status: results.StatusPending}}}
	rec := results.CompareRecord{Game: "tictactoe", Algos: []string{"genetic", "spsa", "cmaes"}, BudgetGames: 40, Seed: 3, Status: "done", Config: "game: tictactoe\n"}
	var l *population.Ladder
	if rated {
		l = &population.Ladder{Pairs: 2, Reference: 0, Best: 2, Entries: []population.LadderEntry{
			{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: w, Elo: -5, Low: -5, High: -5},
			{Label: "genetic:g1", Genome: 1_000_000_000, Spent: 3, Weights: w, Elo: 5, Low: -25, High: 35},
			{Label: "genetic:g2", Genome: 1_000_000_001, Generation: 1, Spent: 6, Weights: w, WDL: stats.WDL{Wins: 3, Draws: 1}, Elo: 45, Low: 15, High: 75},
			{Label: "spsa:g1", Genome: 2_000_000_000, Spent: 4, Weights: w, Elo: 25, Low: -15, High: 65},
		}}
	}
	v, err := results.NewCompareView("runs/cmp", rec, tuners, l)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCompareHTML: the comparison's page has a row per tuner (linked to
// its run's page, but the one not started), each rated tuner's Elo over
// the reference with its interval and its champions on the shared ladder,
// the best tuner marked, and the ladder plot with a curve per tuner;
// before the ladder is rated it says so and draws nothing.
func TestCompareHTML(t *testing.T) {
	page, err := CompareHTML(compareView(t, true), CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{
		`<title>gametune comparison cmp</title>`, `10/120 games`,
		`<tr id="tuner-genetic" class="best"><td class="name"><a href="genetic/report.html">genetic</a>`,
		`<tr id="tuner-spsa"><td class="name"><a href="spsa/report.html">spsa</a>`,
		`<tr id="tuner-cmaes"><td class="name">cmaes</td><td class="name"><span class="status">pending</span>`,
		`<td class="name">genetic:g2</td><td>&#43;50 [&#43;20, &#43;80]</td>`, `<td class="name">spsa:g1</td><td>&#43;30 [-10, &#43;70]</td>`,
		`id="ladder-genetic"`, `<td class="name">genetic:g2</td><td>6</td><td>3-1-0</td><td>&#43;50 [&#43;20, &#43;80]</td>`,
		`Best tuner on the shared ladder: <b>genetic</b>`, `Elo over the defaults [95%]`, `<pre>game: tictactoe`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	plot := regexp.MustCompile(`(?s)<div class="figure" id="plot-compare"><svg.*?</svg>`).FindString(html)
	for _, name := range []string{">genetic<", ">spsa<", ">cmaes<"} {
		if !strings.Contains(plot, name) {
			t.Errorf("the plot has no curve named %s", name)
		}
	}
	page, err = CompareHTML(compareView(t, false), CompareOptions{Link: func(algo string) string { return "/runs/cmp:" + algo }})
	if err != nil {
		t.Fatal(err)
	}
	if html := string(page); strings.Contains(html, "<svg") || !strings.Contains(html, "rates every tuner's champions when the last tuner has finished") ||
		!strings.Contains(html, `<a href="/runs/cmp:spsa">spsa</a>`) {
		t.Errorf("the page before the ladder:\n%s", html)
	}
}

// TestWriteRunsComparison: a comparison's line names its tuners, its
// progress in games and its best tuner's champion; its tuners' lines
// follow it, indented.
func TestWriteRunsComparison(t *testing.T) {
	nan := stats.Float(math.NaN())
	rated := compareView(t, true).Line()
	unrated := compareView(t, false).Line()
	unrated.Dir = "runs/cmp2"
	var b bytes.Buffer
	WriteRuns(&b, []results.RunLineJSON{{Info: results.Info{Dir: "runs/a", Game: "nim", Algo: "genetic"}, Progress: "1/2", BestElo: nan}, rated, unrated})
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		`^runs/a +nim +genetic +1/2 `,
		`^runs/cmp +tictactoe +compare: genetic,spsa,cmaes +10/120 games +done +genetic:g2 \+50 Elo \[\+20, \+80\] over the defaults$`,
		`^  cmp/genetic +tictactoe +genetic +6/40 games +done `,
		`^  cmp/spsa +tictactoe +spsa +4/40 games +done `,
		`^   +tictactoe +cmaes +0/40 games +pending +-$`,
		`^runs/cmp2 .* +- \(no shared ladder yet: it rates the tuners when the last has finished\)$`,
	}
	if len(rows) != 1+1+4+4 {
		t.Fatalf("%d rows, want a header, a run and two comparisons of 3 tuners:\n%s", len(rows), b.String())
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(rows[i+1]) {
			t.Errorf("row %d: %q does not match %s", i+1, rows[i+1], w)
		}
	}
}
