package web

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// A comparison of tuners (tune compare) in the runs folder is listed as
// one line (Summary with Algo "compare") with its tuners' runs beneath it;
// each tuner's run is a run of the catalog like any other, its id
// "<comparison>:<tuner>" (its directory's name below the comparison's),
// and the comparison has its page (/compare/{id}, reports.CompareHTML).
// Its shared ladder's run is read as a run is (entry.refresh: again only
// when its files change) but not listed.

// comparison is a comparison of tuners found in the runs folder.
type comparison struct {
	id, dir string
	ladder  *entry // the shared ladder's run (DIR/ladder), not listed
}

// foundDir is a directory findRuns found: a run (compare: the id of the
// comparison whose tuner's run it is, or "") or a comparison.
type foundDir struct{ id, dir, compare string }

// findRuns finds the runs directly below root (and root itself), and the
// comparisons there (and root itself) with their tuners' runs: the
// directories below a comparison holding a run, but its ladder's.
func findRuns(root string) (runs, comparisons []foundDir, err error) {
	addComparison := func(id, dir string) {
		comparisons = append(comparisons, foundDir{id: id, dir: dir})
		list, _ := os.ReadDir(dir)
		for _, e := range list {
			if d := filepath.Join(dir, e.Name()); results.Listed(e) && e.Name() != results.CompareLadder && results.IsRun(d) {
				runs = append(runs, foundDir{id: id + ":" + e.Name(), dir: d, compare: id})
			}
		}
	}
	rootID := filepath.Base(filepath.Clean(root))
	rootCompare := !results.IsRun(root) && results.IsComparison(root)
	switch {
	case results.IsRun(root):
		runs = append(runs, foundDir{id: rootID, dir: root})
	case rootCompare:
		addComparison(rootID, root) // its subdirectories are its tuners
	}
	list, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, fmt.Errorf("web: reading the runs folder: %w", err)
	}
	for _, e := range list {
		if d := filepath.Join(root, e.Name()); results.Listed(e) && !rootCompare {
			if results.IsRun(d) {
				runs = append(runs, foundDir{id: e.Name(), dir: d})
			} else if results.IsComparison(d) {
				addComparison(e.Name(), d)
			}
		}
	}
	return runs, comparisons, nil
}

// keepComparisons makes the catalog's comparisons those found, keeping
// what was read of the ones it had. c.mu must be held.
func (c *catalog) keepComparisons(list []foundDir) {
	old := c.comparisons
	c.comparisons = map[string]*comparison{}
	for _, f := range list {
		if x, ok := old[f.id]; ok && x.dir == f.dir {
			c.comparisons[f.id] = x
			continue
		}
		ld := filepath.Join(f.dir, results.CompareLadder)
		c.comparisons[f.id] = &comparison{id: f.id, dir: f.dir, ladder: &entry{id: f.id + ":" + results.CompareLadder, dir: ld}}
	}
}

// findComparison returns the comparison of id (scanning the folder again
// when it is not known), or nil.
func (c *catalog) findComparison(id string) *comparison {
	return lookup(c, func() *comparison { return c.comparisons[id] })
}

// listedComparisons returns the catalog's comparisons.
func (c *catalog) listedComparisons() []*comparison {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*comparison, 0, len(c.comparisons))
	for _, x := range c.comparisons {
		out = append(out, x)
	}
	return out
}

// tunerID is the id of the run of a comparison's tuner.
func tunerID(comparison, algo string) string { return comparison + ":" + algo }

// readComparison reads the comparison x: its record, its tuners' runs as
// the runs list reads them (refreshed, each read again only when its files
// changed) and its shared ladder; and returns its view and the ids of its
// tuners' runs that exist, in order.
func (s *Server) readComparison(x *comparison, now time.Time) (*results.CompareView, []string, error) {
	rec, err := results.ReadCompareRecord(x.dir)
	if err != nil {
		return nil, nil, err
	}
	var tuners []results.CompareTuner
	var ids []string
	for _, a := range rec.Algos {
		t := results.CompareTuner{Algo: a, Info: results.Info{Game: rec.Game, Algo: a, Status: results.StatusPending}}
		s.catalog.mu.Lock()
		e := s.catalog.runs[tunerID(x.id, a)]
		s.catalog.mu.Unlock()
		if e != nil {
			ids = append(ids, e.id)
			switch snap := e.refresh(s.opts.Open, now); {
			case snap.run == nil:
				t.Info.Status, t.Damaged = "damaged", snap.sum.Damaged
			default:
				t.View, t.Info = &snap.run.View, snap.run.Info
			}
		}
		tuners = append(tuners, t)
	}
	var ladder *population.Ladder
	if results.IsRun(x.ladder.dir) {
		snap := x.ladder.refresh(s.opts.Open, now)
		if snap.run == nil {
			return nil, nil, fmt.Errorf("the shared ladder (%s): %s", results.CompareLadder, snap.sum.Damaged)
		}
		ladder = snap.run.Ladder
	}
	v, err := results.NewCompareView(x.dir, rec, tuners, ladder)
	return v, ids, err
}

// compareSummary is the runs list's line of the comparison x: its tuners'
// games and time summed, its best tuner's last champion as its best; or,
// when it cannot be read, why.
func (s *Server) compareSummary(x *comparison, now time.Time) Summary {
	nan := stats.Float(math.NaN())
	sum := Summary{ID: x.id, Algo: "compare", Stage: "game", Elo: nan, EloLow: nan, EloHigh: nan, GamesPerSecond: nan}
	v, ids, err := s.readComparison(x, now)
	if err != nil {
		sum.Status, sum.Damaged = "damaged", strings.ReplaceAll(err.Error(), x.dir, x.id)
		return sum
	}
	rec := v.Record
	sum.Game, sum.Status, sum.Algos, sum.Tuners = rec.Game, string(rec.Status), rec.Algos, ids
	sum.Done, sum.Planned, sum.Games, sum.Started, sum.Ended = v.Games(), rec.BudgetGames*len(rec.Algos), v.Games(), rec.Created, rec.Ended
	sum.GamesPlanned = sum.Planned
	if v.Evaluator != nil {
		sum.Eval = v.Evaluator.Name
	}
	for _, t := range v.Tuners {
		sum.Seconds += t.Info.Seconds
	}
	if sum.Seconds > 0 {
		sum.GamesPerSecond = stats.Float(float64(sum.Games) / sum.Seconds)
	}
	if rate := float64(sum.GamesPerSecond); rec.Status == results.StatusRunning && rate > 0 && sum.Planned > sum.Done {
		sum.ETA = now.UTC().Add(time.Duration(float64(sum.Planned-sum.Done) / rate * float64(time.Second))).Truncate(time.Second)
	}
	if b, _ := v.BestJSON(); b != nil {
		sum.Best, sum.Elo, sum.EloLow, sum.EloHigh = b, b.Elo, b.Low, b.High
	}
	return sum
}

// withComparisons adds to the runs list the line of every comparison of
// the folder (compareSummary), its tuners' runs being in runs already.
func (s *Server) withComparisons(runs []Summary, now time.Time) []Summary {
	for _, x := range s.catalog.listedComparisons() {
		runs = append(runs, s.compareSummary(x, now))
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
	return runs
}

// nestTuners places the runs of each comparison's tuners right beneath
// its line, in the order of its tuners, keeping the order of the other
// lines.
func nestTuners(runs []Summary) []Summary {
	tuners := map[string]Summary{}
	for _, r := range runs {
		if r.Comparison != "" {
			tuners[r.ID] = r
		}
	}
	out := make([]Summary, 0, len(runs))
	placed := map[string]bool{}
	for _, r := range runs {
		if r.Comparison != "" {
			continue
		}
		out = append(out, r)
		for _, id := range r.Tuners {
			if t, ok := tuners[id]; ok && t.Comparison == r.ID {
				out, placed[id] = append(out, t), true
			}
		}
	}
	for _, r := range runs { // a tuner whose comparison is not listed
		if r.Comparison != "" && !placed[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// compareHead is the navigation added to a comparison's page.
var compareHead = template.Must(template.New("compare-head").Parse(`<style>nav.dash { font-size: 0.9em; margin-bottom: 0.5em; }</style>
<nav class="dash"><a href="/">← all runs</a> · <a href="/api/compare/{{.}}">JSON</a></nav>
`))

// comparison finds the comparison of the request's {id} and reads it; it
// answers 404 when there is none and 409 when it cannot be read, and then
// returns nil.
func (s *Server) comparison(w http.ResponseWriter, r *http.Request) (*comparison, *results.CompareView, []string) {
	x := s.catalog.findComparison(r.PathValue("id"))
	if x == nil {
		http.Error(w, fmt.Sprintf("404: no comparison %q in this folder", r.PathValue("id")), http.StatusNotFound)
		return nil, nil, nil
	}
	s.catalog.scan() // the tuners' runs that started since the last look
	v, ids, err := s.readComparison(x, time.Now())
	if err != nil {
		http.Error(w, "409: the comparison cannot be read: "+strings.ReplaceAll(err.Error(), x.dir, x.id), http.StatusConflict)
		return nil, nil, nil
	}
	return x, v, ids
}

func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	x, v, ids := s.comparison(w, r)
	if x == nil {
		return
	}
	var head bytes.Buffer
	if err := compareHead.Execute(&head, url.PathEscape(x.id)); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	link := func(algo string) string {
		for _, id := range ids {
			if id == tunerID(x.id, algo) {
				return "/runs/" + url.PathEscape(id)
			}
		}
		return "" // not started: no page yet
	}
	page, err := reports.CompareHTML(v, reports.CompareOptions{Link: link, Head: template.HTML(head.String())})
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

// comparePlot serves the comparison's ladder plot (reports.CompareFigure)
// as plot.svg or plot.png.
func (s *Server) comparePlot(w http.ResponseWriter, r *http.Request) {
	x, v, _ := s.comparison(w, r)
	if x == nil {
		return
	}
	fig, ok := reports.CompareFigure(v)
	file := r.PathValue("file")
	var data []byte
	var err error
	switch {
	case file != "plot.svg" && file != "plot.png":
		http.Error(w, "404: a comparison's plot is plot.svg or plot.png", http.StatusNotFound)
		return
	case !ok:
		http.Error(w, "404: the shared ladder is not rated yet: it rates every tuner's champions when the last tuner has finished", http.StatusNotFound)
		return
	case file == "plot.svg":
		w.Header().Set("Content-Type", "image/svg+xml")
		data, err = fig.SVG()
	default:
		w.Header().Set("Content-Type", "image/png")
		data, err = fig.PNG()
	}
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// CompareDetail is one comparison in the API: its line of the runs list,
// its record, a row per tuner (the shared ladder's ratings, as tune
// compare --json prints them), the shared ladder and its tuners' lines.
type CompareDetail struct {
	Summary
	Record results.CompareRecord `json:"record"`
	Rows   []results.CompareRow  `json:"rows"`
	Ladder *results.LadderJSON   `json:"ladder,omitempty"`
	Plot   string                `json:"plot,omitempty"` // the address of the ladder plot (SVG; .png also)
	Runs   []Summary             `json:"runs"`           // its tuners' runs
}

func (s *Server) apiCompare(w http.ResponseWriter, r *http.Request) {
	x, v, ids := s.comparison(w, r)
	if x == nil {
		return
	}
	now := time.Now()
	d := CompareDetail{Summary: s.compareSummary(x, now), Record: v.Record, Rows: v.Rows}
	for _, id := range ids {
		s.catalog.mu.Lock()
		e := s.catalog.runs[id]
		s.catalog.mu.Unlock()
		if e != nil {
			d.Runs = append(d.Runs, e.refresh(s.opts.Open, now).sum)
		}
	}
	if v.Ladder != nil && v.Evaluator != nil {
		lv := results.View{Ladder: v.Ladder, Evaluator: v.Evaluator}
		d.Ladder = lv.LadderJSON()
		d.Plot = "/compare/" + url.PathEscape(x.id) + "/plot.svg"
	}
	writeJSON(w, d)
}
