package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/results"
)

// storeGames reads the games recorded in the run store in dir.
func storeGames(t *testing.T, dir string) int {
	t.Helper()
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in, err := r.Info()
	if err != nil {
		t.Fatal(err)
	}
	return in.Games
}

// runsJSON runs tune runs ROOT --json and returns the line of dir.
func runsJSON(t *testing.T, root, dir string) results.RunLineJSON {
	t.Helper()
	code, out, errOut := tune(t, "", "runs", root, "--json")
	var lines []results.RunLineJSON
	if err := json.Unmarshal([]byte(out), &lines); code != 0 || err != nil {
		t.Fatalf("runs --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	for _, l := range lines {
		if l.Dir == dir {
			return l
		}
	}
	t.Fatalf("runs --json has no line for %s:\n%s", dir, out)
	return results.RunLineJSON{}
}

// TestCompareListed (issue 26): a real comparison of two tuners is listed
// by tune runs (text and JSON) as one line, done, its progress the games
// of its tuners' stores summed and its best the tuner whose last champion
// rates highest on the shared ladder, with each tuner's run beneath it;
// tune report DIR writes its page again; the dashboard lists it with its
// tuners and serves its page.
func TestCompareListed(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "cmp")
	code, out, errOut := tune(t, "", "--quiet", "compare", "--game", "tictactoe", "--budget-games", "30", "--depth", "1", "--algos", "genetic,spsa",
		"--pairs", "1", "--champions", "2", "--workers", "2", "--json", "--out", dir)
	var rows []results.CompareRow
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("compare: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if code, _, errOut := tune(t, "", "--quiet", "run", "--game", "nim", "--depth", "1", "--population", "4", "--generations", "1", "--games", "1",
		"--yardstick-pairs", "1", "--out", filepath.Join(root, "plain")); code != 0 {
		t.Fatal(errOut)
	}
	genetic, spsa := storeGames(t, filepath.Join(dir, "genetic")), storeGames(t, filepath.Join(dir, "spsa"))
	best := rows[0]
	if rows[1].Elo > best.Elo {
		best = rows[1]
	}
	code, out, errOut = tune(t, "", "runs", root)
	if code != 0 {
		t.Fatalf("runs: exit %d\n%s", code, errOut)
	}
	q := regexp.QuoteMeta
	for _, want := range []string{
		`(?m)^` + q(dir) + ` +tictactoe +compare: genetic,spsa +` + strconv.Itoa(genetic+spsa) + `/60 games +done +.*` + q(best.Champion),
		`(?m)^  ` + q(filepath.Join(dir, "genetic")) + ` +tictactoe +genetic +` + strconv.Itoa(genetic) + `/30 games +done `,
		`(?m)^  ` + q(filepath.Join(dir, "spsa")) + ` +tictactoe +spsa +` + strconv.Itoa(spsa) + `/30 games +done `,
		`(?m)^` + q(filepath.Join(root, "plain")) + ` +nim +genetic `,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("runs lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ladder") || strings.Count(out, "\n") != 5 {
		t.Errorf("runs lists other lines than a header, the comparison, its 2 tuners and the plain run:\n%s", out)
	}
	l := runsJSON(t, root, dir)
	if l.Algo != "compare" || l.Status != results.StatusDone || l.Games != genetic+spsa || l.Compare == nil || l.Compare.BestTuner != best.Algo ||
		l.BestElo != best.Elo || l.Best == nil || l.Best.Candidate != best.Champion || len(l.Compare.Tuners) != 2 ||
		l.Compare.Tuners[0].Games != genetic || l.Compare.Tuners[1].Games != spsa || l.Compare.Tuners[1].Status != results.StatusDone {
		t.Errorf("runs --json: %+v %+v; want done, %d + %d games, best %s %s", l, l.Compare, genetic, spsa, best.Algo, best.Champion)
	}
	page := filepath.Join(dir, "compare.html")
	os.Remove(page)
	if code, out, errOut := tune(t, "", "report", dir); code != 0 || strings.TrimSpace(out) != page {
		t.Fatalf("report: exit %d, %q, %s", code, out, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="tuner-genetic"`, `id="tuner-spsa"`, `<a href="genetic/report.html">`, `<div class="figure" id="plot-compare"><svg`, ">" + best.Champion + "<"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("compare.html lacks %s", want)
		}
	}
	serveComparison(t, root, genetic+spsa)
}

// serveComparison serves root (with the comparison cmp of genetic and
// SPSA, games games in all) with tune serve and checks that its list has
// the comparison with its tuners beneath it, and that the comparison's
// page and its tuners' pages are served.
func serveComparison(t *testing.T, root string, games int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	exit := make(chan int, 1)
	go func() {
		exit <- execute(ctx, []string{"serve", "--runs", root, "--listen", "127.0.0.1:0"}, strings.NewReader(""), out, io.Discard)
	}()
	defer func() {
		cancel()
		<-exit
	}()
	base := waitServing(t, out)
	get := func(path string) string {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %d %.300s", path, resp.StatusCode, body)
		}
		return string(body)
	}
	var list []struct {
		ID, Algo, Status, Comparison string
		Games                        int
		Tuners                       []string
	}
	if err := json.Unmarshal([]byte(get("api/runs")), &list); err != nil || len(list) != 4 {
		t.Fatalf("api/runs: %+v, %v", list, err)
	}
	c := list[0]
	if c.ID != "cmp" || c.Algo != "compare" || c.Status != "done" || c.Games != games || strings.Join(c.Tuners, " ") != "cmp:genetic cmp:spsa" ||
		list[1].ID != "cmp:genetic" || list[1].Comparison != "cmp" || list[2].ID != "cmp:spsa" || list[3].ID != "plain" {
		t.Errorf("api/runs: %+v", list)
	}
	for _, want := range []string{`<a href="/compare/cmp">cmp</a>`, `<tr id="run-cmp:genetic" class="tuner">`, "compare: genetic,spsa"} {
		if list := get(""); !strings.Contains(list, want) {
			t.Errorf("the list lacks %s", want)
		}
	}
	page := get("compare/cmp")
	for _, want := range []string{`<a href="/runs/cmp:genetic">genetic</a>`, `<a href="/runs/cmp:spsa">spsa</a>`, `id="plot-compare"><svg`, `<a href="/">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the comparison's page lacks %s", want)
		}
	}
	if run := get("runs/cmp:spsa"); !strings.Contains(run, `id="report"`) {
		t.Errorf("the tuner's run page: %.300s", run)
	}
}

// TestCompareKilled (issue 26): a real tune compare killed (SIGKILL) in
// its first tuner is listed interrupted, though its record still says
// running (no process holds it), with that tuner interrupted and the next
// pending, its progress the games of the first tuner's store.
func TestCompareKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it")
	}
	bin := buildTune(t)
	root := t.TempDir()
	dir := filepath.Join(root, "cmp")
	args := []string{"compare", "--game", "tictactoe", "--budget-games", "100000", "--depth", "2", "--algos", "genetic,spsa", "--workers", "1", "--quiet", "--out", dir}
	if !runUntil(t, bin, args, filepath.Join(dir, "genetic"), func(r *results.Run) bool {
		in, err := r.Info()
		return err == nil && in.Games >= 6
	}) {
		t.Fatal("the comparison ended before the kill")
	}
	data, err := os.ReadFile(filepath.Join(dir, results.CompareName))
	if err != nil || !strings.Contains(string(data), `"status": "running"`) {
		t.Fatalf("the record left: %s %v", data, err)
	}
	l := runsJSON(t, root, dir)
	games := storeGames(t, filepath.Join(dir, "genetic"))
	if l.Status != results.StatusInterrupted || l.Compare == nil || l.Compare.Tuners[0].Status != results.StatusInterrupted ||
		l.Compare.Tuners[1].Status != results.StatusPending || l.Games != games || l.Progress != strconv.Itoa(games)+"/200000 games" {
		t.Errorf("listed %+v %+v; want interrupted, the first tuner interrupted with its %d games, the second pending", l, l.Compare, games)
	}
	code, out, _ := tune(t, "", "runs", root)
	if code != 0 || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(dir)+` .* interrupted +- \(no shared ladder yet`).MatchString(out) {
		t.Errorf("runs:\n%s", out)
	}
}
