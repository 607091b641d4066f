package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
)

// ComparePage is the file of a comparison's page, in its directory.
const ComparePage = "compare.html"

// CompareFigure draws the comparison's ladder plot: the Elo of each
// tuner's champions on the shared ladder against the games spent, one
// curve per tuner (Comparison). ok is false until the ladder is rated.
func CompareFigure(v *results.CompareView) (fig Figure, ok bool) {
	if v.Ladder == nil {
		return Figure{}, false
	}
	var curves []CompareCurve
	for _, r := range v.Rows {
		curves = append(curves, CompareCurve{Name: r.Algo, Points: r.Entries})
	}
	return Comparison(curves, v.Ladder.Entries[v.Ladder.Reference].Elo), true
}

// CompareOptions say how a comparison's page links to its tuners' runs.
// The zero value links to their reports beside the page
// (<algo>/report.html) and adds nothing.
type CompareOptions struct {
	// Link is the address of the page of the tuner algo's run ("": no
	// link); nil links to <algo>/report.html.
	Link func(algo string) string
	// Head is inserted at the start of the page's body (the dashboard's
	// navigation).
	Head template.HTML
}

// CompareHTML renders the page of a comparison of tuners: one
// self-contained page (inline SVG and CSS, nothing fetched) with its
// settings and status, a row per tuner (its run's status, games, wall time
// and own best, and its last champion's Elo over the reference on the
// shared ladder, with the 95% interval), the ladder plot of every tuner
// (CompareFigure) and each tuner's champions on the shared ladder. Before
// the ladder is rated the page says so, and shows the rest.
func CompareHTML(v *results.CompareView, o CompareOptions) ([]byte, error) {
	if o.Link == nil {
		o.Link = func(algo string) string { return algo + "/report.html" }
	}
	d := compareData{Name: v.Name, Record: v.Record, Progress: v.Progress(), Head: o.Head, Config: v.Record.Config}
	if v.Evaluator != nil {
		d.Evaluator = v.Evaluator.Name
	}
	if c, ok := v.Best(); ok {
		d.Best = c.Summary()
		d.BestTuner = v.Rows[v.BestRow()].Algo
	}
	for i, t := range v.Tuners {
		d.Seconds += t.Info.Seconds
		link := o.Link(t.Algo)
		if t.Info.Status == results.StatusPending {
			link = "" // no run, no page yet
		}
		d.Tuners = append(d.Tuners, tunerRow(t, v.Rows[i], link, v.Record.BudgetGames))
	}
	if l := v.Ladder; l != nil {
		ref := l.Entries[l.Reference]
		d.Reference, d.Pairs = ref.Label, l.Pairs
		for _, e := range l.Entries {
			if !strings.Contains(e.Label, ":") {
				d.Others = append(d.Others, ladderRow(e, ref.Elo))
			}
		}
		for i, r := range v.Rows {
			for _, e := range r.Entries {
				d.Tuners[i].Ladder = append(d.Tuners[i].Ladder, ladderRow(e, ref.Elo))
			}
		}
		fig, _ := CompareFigure(v)
		svg, err := fig.SVG()
		if err != nil {
			return nil, err
		}
		if i := bytes.Index(svg, []byte("<svg")); i > 0 { // no XML prolog inside HTML
			svg = svg[i:]
		}
		d.Plot = template.HTML(svg)
	}
	var b bytes.Buffer
	if err := compareTemplate.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	return b.Bytes(), nil
}

// RefreshComparison reads the comparison in dir (results.OpenCompareView)
// and writes its page (CompareHTML) to dir/compare.html atomically,
// replacing the last one.
func RefreshComparison(dir string) error {
	v, err := results.OpenCompareView(dir)
	if err != nil {
		return err
	}
	page, err := CompareHTML(v, CompareOptions{})
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, ComparePage), page, true)
}

// compareData is what compareTemplate shows.
type compareData struct {
	Name, Evaluator, Progress, Config string
	Record                            results.CompareRecord
	Head                              template.HTML
	Seconds                           float64
	Best, BestTuner                   string
	Reference                         string // the shared ladder's reference; "" until rated
	Pairs                             int
	Tuners                            []compareTuner
	Others                            []compareLadderRow // the defaults and the start on the shared ladder
	Plot                              template.HTML
}

type compareTuner struct {
	Algo, Link, Status, Progress, Best, Champion, Elo string
	Games, Spent                                      int
	Seconds                                           float64
	Ladder                                            []compareLadderRow
}

type compareLadderRow struct {
	Label, WDL, Elo string
	Spent           int
}

// tunerRow is the row of tuner t, of row r, its run's page at link, its
// budget budget games.
func tunerRow(t results.CompareTuner, r results.CompareRow, link string, budget int) compareTuner {
	row := compareTuner{Algo: t.Algo, Link: link, Status: string(t.Info.Status), Games: t.Info.Games, Spent: r.Games, Seconds: t.Info.Seconds,
		Progress: fmt.Sprintf("%d/%d games", t.Info.Games, budget), Best: "–", Champion: "–", Elo: "–"}
	switch {
	case t.Damaged != "":
		row.Status, row.Best = "damaged", t.Damaged
	case t.View != nil:
		row.Progress, row.Best = t.View.Progress(), t.View.Best.Summary()
	}
	if len(r.Entries) > 0 {
		row.Champion, row.Elo = r.Champion, PageInterval(float64(r.Elo), float64(r.Low), float64(r.High))
	}
	return row
}

// ladderRow is the row of the shared ladder's entry e, its Elo over the
// reference's, ref.
func ladderRow(e population.LadderEntry, ref float64) compareLadderRow {
	return compareLadderRow{Label: e.Label, Spent: e.Spent, WDL: fmt.Sprintf("%d-%d-%d", e.Wins, e.Draws, e.Losses),
		Elo: PageInterval(e.Elo-ref, e.Low-ref, e.High-ref)}
}

// writeRunRow writes a line of the runs table (WriteRuns), indented by
// indent: a run's; or a comparison's (its algorithm "compare: " and its
// tuners, its best the best tuner's last champion on the shared ladder),
// then its tuners' lines, indented further.
func writeRunRow(w io.Writer, l results.RunLineJSON, indent string) {
	algo, best := l.Algo, BestLine(l.Best, EloInterval)
	c := l.Compare
	if c != nil {
		algo = "compare: " + strings.Join(c.Algos, ",")
		if l.Best == nil {
			best = "- (no shared ladder yet: it rates the tuners when the last has finished)"
		}
	}
	if l.Damaged != "" {
		best = "damaged: " + l.Damaged
	}
	fmt.Fprintf(w, "%s%s\t%s\t%s\t%s\t%s\t%s\n", indent, l.Dir, l.Game, algo, l.Progress, l.Status, best)
	if c != nil {
		for _, t := range c.Tuners {
			writeRunRow(w, t, indent+"  ")
		}
	}
}

// PageInterval writes an Elo difference with its 95% interval for a page
// (the report, the comparison, the dashboard): "+35 [+10, +60]", an
// infinite bound as ∞ (EloText), "–" for no Elo.
func PageInterval(elo, lo, hi float64) string {
	if math.IsNaN(elo) {
		return "–"
	}
	return fmt.Sprintf("%s [%s, %s]", EloText(elo), EloText(lo), EloText(hi))
}

var compareTemplate = template.Must(template.New("compare").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gametune comparison {{.Name}}</title>
<style>
` + PageStyle + figureStyle + `tr.best td { font-weight: bold; }
</style>
</head>
<body>{{.Head}}
<h1>gametune comparison {{.Name}}</h1>
<p>{{.Record.Game}}{{with .Evaluator}} · evaluator <b>{{.}}</b>{{end}} · {{range $i, $a := .Record.Algos}}{{if $i}}, {{end}}{{$a}}{{end}} · {{.Record.BudgetGames}} games each · seed {{.Record.Seed}} · <span class="status" id="compare-status">{{.Record.Status}}</span></p>
<p id="compare-progress">{{.Progress}} · {{printf "%.1f" .Seconds}} s of play</p>
<p id="compare-best">{{if .Best}}Best tuner on the shared ladder: <b>{{.BestTuner}}</b> ({{.Best}}){{else}}The shared ladder rates every tuner's champions when the last tuner has finished.{{end}}</p>

<h2>Tuners</h2>
<table id="compare-table">
<tr><th class="name">tuner</th><th class="name">status</th><th>progress</th><th>games spent</th><th>wall time</th><th class="name">last champion</th><th>Elo over the {{or .Reference "reference"}} [95%]</th><th class="name">its own best</th></tr>
{{range .Tuners}}<tr id="tuner-{{.Algo}}"{{if eq .Algo $.BestTuner}} class="best"{{end}}><td class="name">{{if .Link}}<a href="{{.Link}}">{{.Algo}}</a>{{else}}{{.Algo}}{{end}}</td><td class="name"><span class="status">{{.Status}}</span></td><td>{{.Progress}}</td><td>{{.Spent}}</td><td>{{printf "%.1f" .Seconds}} s</td><td class="name">{{.Champion}}</td><td>{{.Elo}}</td><td class="name">{{.Best}}</td></tr>
{{end}}</table>

{{if .Plot}}<h2>Elo of each tuner's champions against the games spent</h2>
<div class="figure" id="plot-compare">{{.Plot}}</div>

<h2>The shared ladder ({{.Pairs}} pairs per pairing, Elo over the {{.Reference}})</h2>
<table id="ladder-reference">
<tr><th class="name">player</th><th>W-D-L</th><th>Elo [95%]</th></tr>
{{range .Others}}<tr><td class="name">{{.Label}}</td><td>{{.WDL}}</td><td>{{.Elo}}</td></tr>
{{end}}</table>
{{range .Tuners}}<h3>{{.Algo}}</h3>
<table id="ladder-{{.Algo}}">
<tr><th class="name">champion</th><th>games spent</th><th>W-D-L</th><th>Elo [95%]</th></tr>
{{range .Ladder}}<tr><td class="name">{{.Label}}</td><td>{{.Spent}}</td><td>{{.WDL}}</td><td>{{.Elo}}</td></tr>
{{else}}<tr><td class="name" colspan="4">no champion rated</td></tr>
{{end}}</table>
{{end}}{{end}}
{{with .Config}}<h2>Settings every tuner shares</h2>
<pre>{{.}}</pre>{{end}}
</body>
</html>
`))
