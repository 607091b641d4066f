package web

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/results"
)

// TestTablesPage: /tables/{game}/{evaluator} draws the built-in tables of
// an evaluator that has them, and answers 404, saying why, otherwise.
func TestTablesPage(t *testing.T) {
	_, ts := newServer(t, t.TempDir(), Options{})
	resp, body := get(t, ts.URL+"/tables/othello/patterns")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("status %d, %s: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	for _, want := range []string{"<title>Tables of othello/patterns</title>", `<section id="tables">`, "stage 7 (58-64 discs)", "best 1", `href="/"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(body, "<svg "); n < 8+11 {
		t.Errorf("%d pictures, want the 8 heatmaps and each class's strongest configurations", n)
	}
	for path, want := range map[string]string{
		"/tables/nosuch/patterns":   `unknown game "nosuch" (games: `,
		"/tables/othello/nosuch":    `othello has no evaluator "nosuch" (othello's evaluators with tables: [patterns])`,
		"/tables/othello/full":      "no tables to draw: othello/full: nothing to draw (othello's evaluators with tables: [patterns])",
		"/tables/tictactoe/lines":   "tictactoe has no evaluator with tables",
		"/tables/othello/patterns/": "404 page not found",
	} {
		resp, body := get(t, ts.URL+path)
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, want) {
			t.Errorf("%s: status %d, %q, want 404 and %q", path, resp.StatusCode, body, want)
		}
	}
}

// TestRunPageTables: the page of a run of an evaluator with tables shows
// its tables section; a tic-tac-toe run's page does not.
func TestRunPageTables(t *testing.T) {
	root := t.TempDir()
	cfg := fixtureConfig(2)
	cfg.Game, cfg.Evaluator, cfg.Depth = "othello", "patterns", 1
	r, err := results.Create(filepath.Join(root, "patterns"), cfg.Marshal(), cfg.Game, string(cfg.Algo), cfg.Seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := fixtureGeneration(0, 4, 104)
	if err := r.RecordGeneration(g); err != nil {
		t.Fatal(err)
	}
	if err := r.SetStatus("running"); err != nil {
		t.Fatal(err)
	}
	makeRun(t, root, "ttt", 2, 1, 4, 1)
	_, ts := newServer(t, root, Options{})
	resp, body := get(t, ts.URL+"/runs/patterns")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %.300s", resp.StatusCode, body)
	}
	_, section, ok := strings.Cut(body, `<section id="tables">`)
	section, _, closed := strings.Cut(section, "</section>")
	if !ok || !closed || !strings.Contains(section, "Tables of othello/patterns") || strings.Count(section, "<svg ") < 8+11 {
		t.Errorf("the run page's tables section:\n%.500s", section)
	}
	if _, body := get(t, ts.URL+"/runs/ttt"); strings.Contains(body, `id="tables"`) {
		t.Error("a tic-tac-toe run's page has a tables section")
	}
}
