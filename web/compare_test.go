package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// makeTuner records the run of a comparison's tuner algo in dir: gens
// generations of 4 genomes, the last one spending games games (each
// recorded), left with status.
func makeTuner(t *testing.T, dir, algo string, gens, games int, status results.Status) {
	t.Helper()
	cfg := fixtureConfig(gens)
	cfg.Algo = population.Algo(algo)
	r, err := results.Create(dir, cfg.Marshal(), cfg.Game, algo, cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.SetStatus(results.StatusRunning)
	for k := range games {
		if err := r.RecordGame(fixtureGame(0, k)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range gens {
		g := fixtureGeneration(i, 4, 4)
		g.Spent = games * (i + 1) / gens
		if err := r.RecordGeneration(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.SetStatus(status); err != nil {
		t.Fatal(err)
	}
}

// makeComparison makes the comparison root/name of genetic, spsa and
// cmaes (40 games each) as tune compare leaves it: genetic's run done (2
// generations, 6 games), spsa's (1 generation, 4 games) with status
// spsa, cmaes not started; and when rated, the shared ladder (the
// defaults at 0; genetic's champions at +10 and +60 [+20, +100], spsa's at
// +25 [-15, +65]) and the record done. Without, the record is left
// running by a process that is gone.
func makeComparison(t *testing.T, root, name string, spsa results.Status, rated bool) {
	t.Helper()
	dir := filepath.Join(root, name)
	c, err := results.CreateComparison(dir, results.CompareRecord{Game: "tictactoe", Algos: []string{"genetic", "spsa", "cmaes"}, BudgetGames: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	makeTuner(t, filepath.Join(dir, "genetic"), "genetic", 2, 6, results.StatusDone)
	makeTuner(t, filepath.Join(dir, "spsa"), "spsa", 1, 4, spsa)
	if !rated {
		return
	}
	cfg := fixtureConfig(1)
	r, err := results.Create(filepath.Join(dir, results.CompareLadder), cfg.Marshal(), cfg.Game, "compare", cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w := []float64{1, 1, 1, 1}
	err = r.RecordLadder(population.Ladder{Pairs: 2, Reference: 0, Best: 2, BestLow: 20, BestHigh: 100, Entries: []population.LadderEntry{
		{Label: "defaults", Genome: population.DefaultsID, Generation: -1, Weights: w},
		{Label: "genetic:g1", Genome: 1_000_000_000, Spent: 3, Weights: w, Elo: 10, Low: -30, High: 50},
		{Label: "genetic:g2", Genome: 1_000_000_004, Generation: 1, Spent: 6, Weights: w, WDL: stats.WDL{Wins: 5, Draws: 1}, Elo: 60, Low: 20, High: 100},
		{Label: "spsa:g1", Genome: 2_000_000_000, Spent: 4, Weights: w, Elo: 25, Low: -15, High: 65},
	}})
	if err == nil {
		err = c.End(results.StatusDone)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestComparisonListed (issue 26): the dashboard lists a comparison of
// tuners as one line (its tuners' games summed, its best tuner's last
// champion) with its tuners' runs beneath it, one interrupted as
// interrupted, one whose record is damaged as damaged; and serves each
// comparison's page, plot and JSON, and its tuners' run pages.
func TestComparisonListed(t *testing.T) {
	root := t.TempDir()
	makeRun(t, root, "alpha", 5, 3, 6, 4)
	makeComparison(t, root, "cmp", results.StatusDone, true)
	makeComparison(t, root, "half", results.StatusInterrupted, false)
	os.MkdirAll(filepath.Join(root, "bad"), 0o755)
	os.WriteFile(filepath.Join(root, "bad", results.CompareName), []byte(`{"game": "nim"}`), 0o644)
	_, ts := newServer(t, root, Options{})

	_, list := get(t, ts.URL+"/")
	rows := regexp.MustCompile(`<tr (?:class="damaged" )?id="run-([^"]+)"`).FindAllStringSubmatch(list, -1)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r[1])
	}
	if got := strings.Join(ids, " "); got != "alpha cmp cmp:genetic cmp:spsa half half:genetic half:spsa bad" {
		t.Errorf("the list's rows: %s", got)
	}
	for _, want := range []string{
		`<tr id="run-cmp"><td class="name"><a href="/compare/cmp">cmp</a></td><td class="name">tictactoe · lines</td><td class="name">compare: genetic,spsa,cmaes</td><td class="name"><span class="status done">done</span></td><td><progress max="100" value="8"></progress> 10/120 games</td><td>10</td>`,
		`<tr id="run-cmp:genetic" class="tuner"><td class="name"><a href="/runs/cmp:genetic">cmp:genetic</a>`,
		`genetic:g2 &#43;60 [&#43;20, &#43;100] over the defaults`,
		`<tr id="run-half"><td class="name"><a href="/compare/half">half</a></td><td class="name">tictactoe · lines</td><td class="name">compare: genetic,spsa,cmaes</td><td class="name"><span class="status interrupted">interrupted</span>`,
		`bad/compare.json: no algos (want the tuners compared`,
	} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %s", want)
		}
	}

	_, body := get(t, ts.URL+"/api/runs")
	var sums []Summary
	if err := json.Unmarshal([]byte(body), &sums); err != nil || len(sums) != 8 {
		t.Fatalf("api/runs: %d, %v", len(sums), err)
	}
	if c := sums[1]; c.ID != "cmp" || c.Algo != "compare" || c.Games != 10 || c.Done != 10 || c.Planned != 120 || float64(c.Elo) != 60 ||
		strings.Join(c.Tuners, " ") != "cmp:genetic cmp:spsa" || sums[2].Comparison != "cmp" || sums[2].Games != 6 {
		t.Errorf("api/runs: %+v, %+v", c, sums[2])
	}

	cases := []struct {
		path, typ string
		code      int
		want      []string
	}{
		{"/compare/cmp", "text/html", 200, []string{`<a href="/">← all runs</a>`, `<a href="/api/compare/cmp">JSON</a>`, `id="compare-table"`,
			`<a href="/runs/cmp:genetic">genetic</a>`, `<td class="name">cmaes</td>`, `<div class="figure" id="plot-compare"><svg`, `&#43;60 [&#43;20, &#43;100]`}},
		{"/compare/half", "text/html", 200, []string{`id="compare-status">interrupted<`, `<a href="/runs/half:spsa">spsa</a>`, "when the last tuner has finished"}},
		{"/compare/cmp/plot.svg", "image/svg+xml", 200, []string{"<svg", ">genetic<", ">spsa<"}},
		{"/compare/cmp/plot.png", "image/png", 200, []string{"PNG"}},
		{"/compare/half/plot.svg", "text/plain", 404, []string{"not rated yet"}},
		{"/compare/cmp/plot.gif", "text/plain", 404, []string{"plot.svg or plot.png"}},
		{"/compare/nothing", "text/plain", 404, []string{`no comparison "nothing"`}},
		{"/compare/bad", "text/plain", 409, []string{"bad/compare.json: no algos"}},
		{"/api/compare/cmp", "application/json", 200, []string{`"algo": "compare"`, `"champion": "genetic:g2"`, `"elo": 60`, `"plot": "/compare/cmp/plot.svg"`, `"comparison": "cmp"`, `"label": "spsa:g1"`}},
		{"/runs/cmp:spsa", "text/html", 200, []string{`id="report"`, `data-events="/runs/cmp:spsa/events"`}},
		{"/api/runs/half:spsa", "application/json", 200, []string{`"status": "interrupted"`, `"comparison": "half"`}},
	}
	for _, c := range cases {
		resp, body := get(t, ts.URL+c.path)
		if resp.StatusCode != c.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.typ) {
			t.Errorf("%s: %d %s, want %d %s: %.300s", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.code, c.typ, body)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %s", c.path, w)
			}
		}
	}
}
