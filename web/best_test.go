package web

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// showBest is the best genome as tune show --json gives it.
type showBest struct {
	Label     string             `json:"label"`
	Genome    int                `json:"genome"`
	Reference string             `json:"reference"`
	Source    string             `json:"source"`
	Confident bool               `json:"confident"`
	Summary   string             `json:"summary"`
	Weights   map[string]float64 `json:"weights"`
}

// TestBestEverywhere: the dashboard names the best genome that every
// command names (population.ChooseBest, through results.View): by the
// ladder for a run that has one, by the yardstick for one that has not,
// the reference for one that shows no gain; in the runs list, /api/runs,
// /api/runs/{id} and the run page, which shows the ladder's table and
// plot. Outside -short, the same as tune show --json.
func TestBestEverywhere(t *testing.T) {
	root := t.TempDir()
	ladder := makeRun(t, root, "ladder", 6, 6, 8, 1)
	if err := ladder.RecordLadder(fixtureLadder(6, 8, 200)); err != nil {
		t.Fatal(err)
	}
	ladder.SetStatus("done")
	makeRun(t, root, "yardstick", 14, 12, 8, 1) // generation 11: +110 [+70, +150], family-wise over 12: [+52, +168]
	makeRun(t, root, "no-gain", 6, 3, 8, 1)     // generation 2: +20 [-20, +60], family-wise over 3: [-29, +69]
	_, ts := newServer(t, root, Options{})

	var list []Summary
	_, body := get(t, ts.URL+"/api/runs")
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	byID := map[string]Summary{}
	for _, s := range list {
		byID[s.ID] = s
	}
	var tune string
	if !testing.Short() {
		tune = buildTune(t)
	}
	for _, c := range []struct {
		id, label, source string
		confident         bool
	}{{"ladder", "g6", "ladder", true}, {"yardstick", "g12", "yardstick", true}, {"no-gain", "defaults", "yardstick", false}} {
		t.Run(c.id, func(t *testing.T) {
			want, err := reports.Load(filepath.Join(root, c.id))
			if err != nil {
				t.Fatal(err)
			}
			if want.Best.Label != c.label || want.Best.Source != c.source || want.Best.Confident != c.confident {
				t.Fatalf("the fixture's best is %s", want.Best.Summary())
			}
			var detail Detail
			_, body := get(t, ts.URL+"/api/runs/"+c.id)
			if err := json.Unmarshal([]byte(body), &detail); err != nil {
				t.Fatal(err)
			}
			for where, b := range map[string]*results.BestJSON{"/api/runs": byID[c.id].Best, "/api/runs/" + c.id: detail.Best} {
				if b == nil {
					t.Fatalf("%s: no best", where)
				}
				if b.Label != want.Best.Label || b.Genome != want.Best.Genome || b.Confident != c.confident || b.Summary != want.Best.Summary() {
					t.Errorf("%s names %s (%s), reports.Load %s", where, b.Label, b.Summary, want.Best.Summary())
				}
				for i, f := range want.Evaluator.Features {
					if b.Weights[f.Name] != want.Best.Weights[i] {
						t.Errorf("%s: weight %s = %g, want %g", where, f.Name, b.Weights[f.Name], want.Best.Weights[i])
					}
				}
			}
			for i, w := range detail.Weights {
				if w.Value != want.Best.Weights[i] {
					t.Errorf("best_weights[%d] = %g, want %g", i, w.Value, want.Best.Weights[i])
				}
			}
			if float64(detail.Elo) != want.Best.Elo || float64(detail.EloLow) != want.Best.Low {
				t.Errorf("elo %v [%v], want %v [%v]", detail.Elo, detail.EloLow, want.Best.Elo, want.Best.Low)
			}
			_, page := get(t, ts.URL+"/runs/"+c.id)
			wantPage := []string{`id="best"`, strings.ReplaceAll(want.Best.Summary(), "+", "&#43;")}
			if c.id == "ladder" {
				wantPage = append(wantPage, `id="ladder"`, `id="plot-elo"`, "<td class=\"name\">g6</td>")
				if detail.Ladder == nil || len(detail.Ladder.Entries) != 3 || detail.Ladder.Strongest != "g6" ||
					detail.Ladder.Entries[2].Weights[want.Evaluator.Features[0].Name] != want.Best.Weights[0] {
					t.Errorf("/api/runs/ladder's ladder: %+v", detail.Ladder)
				}
				if len(detail.Plots) == 0 || !strings.HasSuffix(detail.Plots[0], "/elo.svg") {
					t.Errorf("plots %v: Elo against games spent first", detail.Plots)
				}
				if resp, svg := get(t, ts.URL+"/runs/ladder/plots/elo.svg"); resp.StatusCode != 200 || !strings.Contains(svg, "<svg") || !strings.Contains(svg, "champion, by the ladder") {
					t.Errorf("elo.svg: %d, or without the ladder's champions", resp.StatusCode)
				}
			} else if strings.Contains(page, `id="ladder"`) {
				t.Error("a ladder on the page of a run without one")
			}
			for _, w := range wantPage {
				if !strings.Contains(page, w) {
					t.Errorf("the run page lacks %q", w)
				}
			}
			if tune == "" {
				return
			}
			out, err := exec.Command(tune, "show", "--json", filepath.Join(root, c.id)).Output()
			if err != nil {
				t.Fatalf("tune show: %v", err)
			}
			var show struct {
				Best showBest `json:"best"`
			}
			if err := json.Unmarshal(out, &show); err != nil {
				t.Fatal(err)
			}
			got := showBest{detail.Best.Label, detail.Best.Genome, detail.Best.Reference, detail.Best.Source, detail.Best.Confident, detail.Best.Summary, detail.Best.Weights}
			if !reflect.DeepEqual(got, show.Best) {
				t.Errorf("the dashboard's best\n%+v\ntune show --json's\n%+v", got, show.Best)
			}
		})
	}
	// The runs list says the same.
	_, page := get(t, ts.URL+"/")
	for _, w := range []string{"g6 &#43;200 [&#43;140, &#43;260] over the defaults", "g12 &#43;110 [&#43;52, &#43;168] over the defaults",
		"defaults (strongest g3 &#43;20 [-29, &#43;69]: no gain shown)"} {
		if !strings.Contains(page, w) {
			t.Errorf("the runs list lacks %q", w)
		}
	}
}

// TestLadderReplayed: a ladder played again on a finished run (tune
// ladder: no generation closes, the status stays) changes the best in the
// list and on the run page.
func TestLadderReplayed(t *testing.T) {
	root := t.TempDir()
	r := makeRun(t, root, "done", 4, 4, 8, 1)
	if err := r.RecordLadder(fixtureLadder(4, 8, 40)); err != nil { // not clear of the defaults
		t.Fatal(err)
	}
	r.SetStatus("done")
	s, ts := newServer(t, root, Options{Poll: 50 * time.Millisecond})
	runs, _ := s.Runs()
	if b := runs[0].Best; b == nil || b.Label != "defaults" || b.Source != "ladder" {
		t.Fatalf("before: %+v", b)
	}
	get(t, ts.URL+"/runs/done") // read the whole run once
	stream := openEvents(t, ts.URL+"/runs/done/events")
	stream.next(t, 5*time.Second)
	if err := r.RecordLadder(fixtureLadder(4, 8, 300)); err != nil {
		t.Fatal(err)
	}
	if ev := stream.until(t, "ladder", 5*time.Second); ev.sum.Best == nil || ev.sum.Best.Label != "g4" {
		t.Errorf("the event after the new ladder names %+v", ev.sum.Best)
	}
	runs, _ = s.Runs()
	if b := runs[0].Best; b == nil || b.Label != "g4" || !b.Confident {
		t.Errorf("after: %+v", b)
	}
	if _, page := get(t, ts.URL+"/runs/done"); !strings.Contains(page, "g4 (genome") || !strings.Contains(page, "&#43;300") {
		t.Error("the run page still shows the old ladder")
	}
}
