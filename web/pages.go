package web

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"html/template"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

var funcs = template.FuncMap{
	"elo": func(f stats.Float) string { return reports.EloText(float64(f)) },
	// best is the runs list's line for a run's best: the genome handed out,
	// and when it is the reference (no gain shown), the strongest genome
	// measured against it.
	"best": func(s Summary) string {
		if s.Best == nil {
			return "–"
		}
		return reports.BestLine(s.Best, reports.PageInterval)
	},
	"rate": func(f stats.Float) string {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return "–"
		}
		return fmt.Sprintf("%.1f", float64(f))
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "–"
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	// percent is the run's progress in games, of those planned.
	"percent": func(s Summary) int {
		if s.GamesPlanned <= 0 {
			return 0
		}
		return min(100, 100*s.Games/s.GamesPlanned)
	},
	"planned": func(n int) string {
		if n <= 0 {
			return "?"
		}
		return strconv.Itoa(n)
	},
	"num": reports.NumberText,
}

// style is the dashboard's own pages' look: the report's, and the runs
// list's.
const style = `<style>
` + reports.PageStyle + `th a { color: inherit; text-decoration: none; }
td.best { text-align: left; white-space: nowrap; }
.status { display: inline-block; padding: 0.1em 0.6em; border-radius: 0.8em; background: #e8f0fe; }
.status.running { background: #e6f4ea; }
.status.damaged { background: #fce8e6; }
.damage { text-align: left; color: #a50e0e; }
progress { width: 6em; vertical-align: middle; }
tr.tuner td:first-child { padding-left: 1.8em; }
</style>`

// liveStyle is added to the report's page: the navigation and status line.
const liveStyle = `<style>
nav.dash { font-size: 0.9em; margin-bottom: 0.5em; }
#live { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: 0.4em 0; z-index: 1; }
#live .status.running { background: #e6f4ea; }
#live .status.damaged { background: #fce8e6; }
#live-note { color: #777; font-size: 0.85em; }
#live.fresh { animation: flash 1.5s; }
@keyframes flash { from { background: #fff3c4; } to { background: #fff; } }
</style>`

var listTemplate = template.Must(template.New("list").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gametune runs</title>
` + style + `
</head>
<body>
<h1>gametune runs</h1>
<p>{{len .Runs}} runs in {{.Root}}{{if .Damaged}} · {{.Damaged}} damaged{{end}} · listed {{when .Now}}</p>
{{if .Runs}}<table id="runs">
<tr>{{range .Columns}}<th{{if .Left}} class="name"{{end}}><a href="?sort={{.Key}}{{if .Next}}&amp;desc=1{{end}}">{{.Title}}{{.Arrow}}</a></th>{{end}}</tr>
{{range .Runs}}{{if .Damaged}}<tr class="damaged" id="run-{{.ID}}"><td class="name">{{.ID}}</td><td class="damage" colspan="10"><span class="status damaged">damaged</span> {{.Damaged}}</td></tr>
{{else}}<tr id="run-{{.ID}}"{{if .Comparison}} class="tuner"{{end}}><td class="name"><a href="{{if eq .Algo "compare"}}/compare/{{else}}/runs/{{end}}{{.ID}}">{{.ID}}</a></td><td class="name">{{.Game}} · {{.Eval}}</td><td class="name">{{.Algo}}{{range $i, $a := .Algos}}{{if $i}},{{else}}: {{end}}{{$a}}{{end}}</td><td class="name"><span class="status {{.Status}}">{{.Status}}</span></td><td><progress max="100" value="{{percent .}}"></progress> {{.Games}}/{{planned .GamesPlanned}} games</td><td>{{.Games}}</td><td>{{rate .GamesPerSecond}}</td><td class="best"{{with .Best}} title="{{.Summary}}"{{end}}>{{best .}}</td><td>{{when .Started}}</td><td>{{if eq .Status "running"}}{{when .ETA}}{{else}}–{{end}}</td></tr>
{{end}}{{end}}</table>{{else}}<p>No runs yet: start one with <code>tune run --out {{.Root}}/NAME</code>.</p>{{end}}
</body>
</html>
`))

// listData is what listTemplate shows: the runs of the folder root (or
// one damaged run) at now.
type listData struct {
	Root    string
	Now     time.Time
	Runs    []Summary
	Damaged int
	Columns []column
}

// column is a sortable column of the runs list.
type column struct {
	Key, Title, Arrow string
	Left, Next        bool // left-aligned; the next click sorts descending
}

var columns = []struct {
	key, title string
	left       bool
}{
	{"id", "run", true}, {"game", "game · evaluator", true}, {"algo", "algorithm", true}, {"status", "status", true},
	{"progress", "progress", false}, {"games", "games", false}, {"rate", "games/s", false}, {"elo", "best, Elo [95%]", true},
	{"started", "started", false}, {"eta", "ETA", false},
}

// sortRuns orders the runs by key (an unknown key: by id), damaged runs
// last, ties by id.
func sortRuns(runs []Summary, key string, desc bool) {
	num := func(f stats.Float) float64 {
		if math.IsNaN(float64(f)) {
			return math.Inf(-1)
		}
		return float64(f)
	}
	less := func(a, b Summary) int {
		switch key {
		case "game":
			return strings.Compare(a.Game+" "+a.Eval, b.Game+" "+b.Eval)
		case "algo":
			return strings.Compare(a.Algo, b.Algo)
		case "status":
			return strings.Compare(a.Status, b.Status)
		case "progress":
			fa, fb := float64(a.Games)/math.Max(1, float64(a.GamesPlanned)), float64(b.Games)/math.Max(1, float64(b.GamesPlanned))
			return cmpFloat(fa, fb)
		case "games":
			return a.Games - b.Games
		case "rate":
			return cmpFloat(num(a.GamesPerSecond), num(b.GamesPerSecond))
		case "elo":
			return cmpFloat(num(a.Elo), num(b.Elo))
		case "started":
			return a.Started.Compare(b.Started)
		case "eta":
			return a.ETA.Compare(b.ETA)
		}
		return 0
	}
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if (a.Damaged != "") != (b.Damaged != "") {
			return b.Damaged != ""
		}
		c := less(a, b)
		if desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
		return a.ID < b.ID
	})
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Server) listPage(w http.ResponseWriter, r *http.Request) {
	runs, err := s.Runs()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	key, desc := r.URL.Query().Get("sort"), r.URL.Query().Get("desc") == "1"
	sortRuns(runs, key, desc)
	runs = nestTuners(runs)
	if key == "" {
		key = "id"
	}
	d := listData{Root: s.catalog.root, Now: time.Now(), Runs: runs}
	for _, x := range runs {
		if x.Damaged != "" {
			d.Damaged++
		}
	}
	for _, c := range columns {
		col := column{Key: c.key, Title: c.title, Left: c.left}
		if c.key == key {
			col.Arrow, col.Next = " ▲", !desc
			if desc {
				col.Arrow = " ▼"
			}
		}
		d.Columns = append(d.Columns, col)
	}
	render(w, listTemplate, d)
}

func render(w http.ResponseWriter, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}

// The run page: the report (reports.LivePage) between headTemplate and
// tailTemplate, or waitTemplate's page until a generation has closed.
var headTemplate = template.Must(template.New("head").Funcs(funcs).Parse(liveStyle + `
<nav class="dash"><a href="/">← all runs</a> · <a href="/api/runs/{{.ID}}">JSON</a></nav>
<div id="live" data-events="/runs/{{.ID}}/events" data-page="/runs/{{.ID}}" data-updates="0">
<span id="live-status" class="status {{.Status}}">{{.Status}}</span> ·
<span id="live-done">{{.Done}}</span> of <span id="live-planned">{{.Planned}}</span> {{.Stage}}s ·
<span id="live-games">{{.Games}}</span> of <span id="live-games-planned">{{planned .GamesPlanned}}</span> games ·
<span id="live-rate">{{rate .GamesPerSecond}}</span> games/s
<span id="live-eta-part"{{if ne .Status "running"}} hidden{{end}}>· ETA <span id="live-eta">{{when .ETA}}</span></span>
<span id="live-note"></span>
</div>
<div id="report" data-done="{{.Done}}">
`))

var tailTemplate = template.Must(template.New("tail").Funcs(funcs).Parse(`
<h2>Last games</h2>
{{if .Games}}<p><a href="/runs/{{.ID}}/games" download>Download the last {{len .Games}} games</a> ({{.Format}}). Genome −1 is the default weights.</p>
<table id="last-games">
<tr><th class="name">game</th><th>first</th><th>second</th><th class="name">result</th><th class="name">reason</th><th>plies</th><th>seconds</th><th class="name"></th></tr>
{{range .Games}}<tr><td class="name">{{.Key}}</td><td>{{.First}}</td><td>{{.Second}}</td><td class="name">{{.Outcome}}</td><td class="name">{{.Reason}}</td><td>{{.Plies}}</td><td>{{printf "%.2f" .Seconds}}</td><td class="name"><a href="{{.URL}}" download>{{$.Format}}</a></td></tr>
{{end}}</table>{{else}}<p>No game finished yet.</p>{{end}}
</div>
<script src="/live.js"></script>
`))

var waitTemplate = template.Must(template.New("wait").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gametune run {{.Name}}</title>
` + style + `
</head>
<body>{{.Head}}<h1>gametune run {{.Name}}</h1>
<p>No {{.Stage}} has finished yet: the report appears here when the first one does.</p>
<h2>Config</h2>
<pre>{{.Config}}</pre>
{{.Tail}}</body>
</html>
`))

// GameLine is a recorded game in the run page and the API.
type GameLine struct {
	Key        string   `json:"key"` // stage/generation/index
	Stage      string   `json:"stage"`
	Generation int      `json:"generation"`
	Index      int      `json:"index"`
	First      int      `json:"first"` // genome ids; -1: the default weights
	Second     int      `json:"second"`
	Opening    string   `json:"opening"`
	Outcome    string   `json:"outcome"`
	Reason     string   `json:"reason"`
	Plies      int      `json:"plies"`
	Moves      []string `json:"moves"`
	Seconds    float64  `json:"seconds"`
	URL        string   `json:"url"` // the game in the game's record format
}

func gameLine(id string, g population.GameResult) GameLine {
	return GameLine{
		Key: g.Key.String(), Stage: g.Key.Stage, Generation: g.Key.Generation, Index: g.Key.Index,
		First: g.First, Second: g.Second, Opening: g.Record.Opening, Outcome: g.Record.Outcome.String(),
		Reason: string(g.Record.Reason), Plies: g.Record.Plies, Moves: g.Record.Moves, Seconds: g.Record.Duration.Seconds(),
		URL: fmt.Sprintf("/runs/%s/games/%s/%d/%d", id, g.Key.Stage, g.Key.Generation, g.Key.Index),
	}
}

// recordFormat is the file extension, name and MIME type of the game's
// record format.
func recordFormat(game string) (ext, name, mime string) {
	if g, err := all.Find(game); err == nil {
		if r, ok := g.(games.Recorder); ok {
			return r.RecordFormat()
		}
	}
	return "txt", "one line per game", "text/plain; charset=utf-8"
}

// lastGamesOf reads the run's last games (open, read, close).
func (s *Server) lastGamesOf(e *entry) (list []population.GameResult, err error) {
	err = e.withReader(s.opts.Open, func(st RunReader) error {
		list, err = st.LastGames(s.opts.LastGames)
		return err
	})
	return list, err
}

// whole finds the run of the request's {id}, as run does, and reads it
// whole (entry.whole): the run is nil when it is damaged, and the entry
// nil when there is none (answered 404).
func (s *Server) whole(w http.ResponseWriter, r *http.Request) (*entry, *reports.Run, snapshot) {
	e, snap := s.run(w, r)
	if e == nil {
		return nil, nil, snap
	}
	run, snap := e.whole(s.opts.Open)
	if run != nil {
		s.catalog.keepWhole(e)
	}
	return e, run, snap
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	e, run, snap := s.whole(w, r)
	if e == nil {
		return
	}
	if run == nil {
		render(w, listTemplate, listData{Root: s.catalog.root, Now: time.Now(), Runs: []Summary{snap.sum}, Damaged: 1})
		return
	}
	gamesList, _ := s.lastGamesOf(e)
	var head, tail bytes.Buffer
	if err := headTemplate.Execute(&head, snap.sum); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, format, _ := recordFormat(snap.sum.Game)
	td := struct {
		ID, Format string
		Games      []GameLine
	}{ID: e.id, Format: format}
	for _, g := range gamesList {
		td.Games = append(td.Games, gameLine(e.id, g))
	}
	if err := tailTemplate.Execute(&tail, td); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// The report is rendered once per generation and status; the head and
	// tail (counts, last games) every time.
	page, err := e.cached(snap.view, "page", func() ([]byte, error) {
		return reports.LivePage(run, headMark, tailMark)
	})
	if errors.Is(err, reports.ErrNoData) {
		render(w, waitTemplate, map[string]any{
			"Name": e.id, "Stage": snap.sum.Stage, "Config": string(run.Config.Marshal()),
			"Head": template.HTML(head.String()), "Tail": template.HTML(tail.String()),
		})
		return
	}
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	page = bytes.Replace(page, []byte(headMark), head.Bytes(), 1)
	page = bytes.Replace(page, []byte(tailMark), tail.Bytes(), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

// headMark and tailMark hold the places of the head and tail in the cached
// report.
const (
	headMark = "<!--gametune-live-head-->"
	tailMark = "<!--gametune-live-tail-->"
)

func (s *Server) plot(w http.ResponseWriter, r *http.Request) {
	e, run, snap := s.whole(w, r)
	if e == nil {
		return
	}
	if run == nil {
		damaged(w, snap.sum)
		return
	}
	file := r.PathValue("file")
	name, ext, _ := strings.Cut(file, ".")
	if ext != "svg" && ext != "png" {
		http.Error(w, "404: plots are NAME.svg or NAME.png", http.StatusNotFound)
		return
	}
	figs, err := run.Figures()
	if errors.Is(err, reports.ErrNoData) {
		http.Error(w, "404: "+err.Error(), http.StatusNotFound)
		return
	}
	var fig *reports.Figure
	var names []string
	for i := range figs {
		names = append(names, figs[i].Name)
		if figs[i].Name == name {
			fig = &figs[i]
		}
	}
	if fig == nil {
		http.Error(w, fmt.Sprintf("404: no plot %q (this run has %s)", name, strings.Join(names, ", ")), http.StatusNotFound)
		return
	}
	data, err := e.cached(snap.view, "plot/"+file, func() ([]byte, error) {
		if ext == "svg" {
			return fig.SVG()
		}
		return fig.PNG()
	})
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if ext == "svg" {
		w.Header().Set("Content-Type", "image/svg+xml")
	} else {
		w.Header().Set("Content-Type", "image/png")
	}
	w.Header().Set("Cache-Control", "no-cache")
	tag := fnv.New64a()
	fmt.Fprint(tag, snap.view)
	w.Header().Set("ETag", fmt.Sprintf(`"%s-%d-%x"`, file, snap.sum.Done, tag.Sum64()))
	if r.Header.Get("If-None-Match") == w.Header().Get("ETag") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(data)
}

// writeGames writes games in the record format of the run's game.
func writeGames(w http.ResponseWriter, id, game, name string, list []population.GameResult) {
	g, err := all.Find(game)
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	ext, _, mime := recordFormat(game)
	var b bytes.Buffer
	rw := tournament.NewRecordWriter(g, &b)
	player := func(id int) string {
		switch id {
		case population.DefaultsID:
			return "default weights"
		case population.StartID, population.RandomStartID:
			return "start weights"
		}
		if o, ok := population.OpponentIndex(id); ok {
			return "opponent " + strconv.Itoa(o+1)
		}
		return "genome " + strconv.Itoa(id)
	}
	for i := len(list) - 1; i >= 0; i-- { // oldest first in a file
		x := list[i]
		if err := rw.WriteGame(g, player(x.First), player(x.Second), x.Record); err != nil {
			http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", mime)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.%s"`, id, name, ext))
	w.Write(b.Bytes())
}

// readable finds the run of the request's {id}, as run does, and answers
// 409 and returns nil when it is damaged.
func (s *Server) readable(w http.ResponseWriter, r *http.Request) (*entry, snapshot) {
	e, snap := s.run(w, r)
	if e != nil && snap.run == nil {
		damaged(w, snap.sum)
		return nil, snap
	}
	return e, snap
}

// damaged answers 409 for a run that cannot be read, with the reason.
func damaged(w http.ResponseWriter, sum Summary) {
	http.Error(w, "409: the run is damaged: "+sum.Damaged, http.StatusConflict)
}

func (s *Server) lastGames(w http.ResponseWriter, r *http.Request) {
	e, snap := s.readable(w, r)
	if e == nil {
		return
	}
	list, err := s.lastGamesOf(e)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeGames(w, e.id, snap.sum.Game, "last-games", list)
}

func (s *Server) oneGame(w http.ResponseWriter, r *http.Request) {
	e, snap := s.readable(w, r)
	if e == nil {
		return
	}
	gen, err1 := strconv.Atoi(r.PathValue("gen"))
	idx, err2 := strconv.Atoi(r.PathValue("index"))
	if err1 != nil || err2 != nil {
		http.Error(w, "400: a game is /runs/ID/games/STAGE/GENERATION/INDEX with numbers", http.StatusBadRequest)
		return
	}
	key := population.GameKey{Stage: r.PathValue("stage"), Generation: gen, Index: idx}
	var g population.GameResult
	found := false
	err := e.withReader(s.opts.Open, func(st RunReader) (err error) {
		g, found, err = st.Game(key)
		return err
	})
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if !found {
		http.Error(w, fmt.Sprintf("404: the run has no game %s", key), http.StatusNotFound)
		return
	}
	writeGames(w, e.id, snap.sum.Game, fmt.Sprintf("%s-%d-%d", key.Stage, key.Generation, key.Index), []population.GameResult{g})
}

// Detail is one run in the API: its summary (with its best genome), the
// best's weights with their defaults and ranges, the ladder, the
// yardstick history (the shapes of tune show --json), plots and last
// games.
type Detail struct {
	Summary
	Config    string                  `json:"config,omitempty"`
	Weights   []results.WeightJSON    `json:"best_weights,omitempty"`
	Ladder    *results.LadderJSON     `json:"ladder,omitempty"`
	Yardstick []results.YardstickJSON `json:"yardstick,omitempty"`
	Plots     []string                `json:"plots,omitempty"` // addresses of the SVG plots (.png also)
	LastGames []GameLine              `json:"last_games,omitempty"`

	// Verification is the best verified at a deeper search (as tune show
	// --json gives it); omitted when the run has none.
	Verification *results.VerificationJSON `json:"verification,omitempty"`
}

func (s *Server) detail(e *entry) Detail {
	run, snap := e.whole(s.opts.Open)
	d := Detail{Summary: snap.sum}
	if run == nil {
		return d
	}
	s.catalog.keepWhole(e)
	d.Config = string(run.Config.Marshal())
	d.Weights, d.Ladder, d.Yardstick = run.WeightsJSON(), run.LadderJSON(), run.YardstickJSON()
	d.Verification = run.VerificationJSON()
	if figs, err := run.Figures(); err == nil {
		for _, f := range figs {
			d.Plots = append(d.Plots, fmt.Sprintf("/runs/%s/plots/%s.svg", e.id, f.Name))
		}
	}
	list, _ := s.lastGamesOf(e)
	for _, g := range list {
		d.LastGames = append(d.LastGames, gameLine(e.id, g))
	}
	return d
}
