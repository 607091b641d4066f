package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament"
)

// EloText writes an Elo rating for a page: signed and rounded, "+∞" and
// "−∞" for the infinities, "–" for none (NaN).
func EloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "+∞"
	case math.IsInf(x, -1):
		return "−∞"
	}
	return fmt.Sprintf("%+.0f", math.Round(x)+0)
}

// NumberText writes a weight for a page: four significant digits.
func NumberText(x float64) string { return fmt.Sprintf("%.4g", x) }

// PageStyle is the look the report shares with the dashboard's pages:
// fonts, headings, tables and the config's block, as CSS rules.
const PageStyle = `body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
th { background: #f4f4f4; }
td.name, th.name { text-align: left; }
pre { background: #f7f7f7; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
`

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"elo": EloText,
	"num": NumberText,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gametune run {{.Name}}</title>
<style>
` + PageStyle + `.figure { margin: 1em 0; }
.figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
.status { display: inline-block; padding: 0.1em 0.6em; border-radius: 0.8em; background: #e8f0fe; }
.bracket { display: flex; gap: 1.5em; align-items: center; overflow-x: auto; }
.round { display: flex; flex-direction: column; justify-content: space-around; gap: 0.8em; }
.match { border: 1px solid #bbb; border-radius: 4px; min-width: 11em; font-size: 0.9em; }
.match div { padding: 0.2em 0.5em; display: flex; justify-content: space-between; }
.match .won { font-weight: bold; background: #eaf6ea; }
.match .tie { font-size: 0.75em; color: #777; padding-top: 0; }
` + TablesStyle + `</style>
</head>
<body>
<h1>gametune run {{.Name}}</h1>
<p>{{.Game}} · evaluator <b>{{.Evaluator}}</b> · {{.Algo}} · seed {{.Seed}} · <span class="status">{{.Status}}</span></p>
<p id="plan">{{.Plan}}</p>
<p>{{.Done}} of {{.Planned}} {{.Stage}}s · {{.Games}}{{if .GamesPlanned}} of about {{.GamesPlanned}}{{end}} games · {{printf "%.1f" .Seconds}} s of play{{if .GamesPerSecond}} · {{printf "%.1f" .GamesPerSecond}} games/s{{end}}{{if .Started}} · started {{.Started}}{{end}}{{if .Ended}} · ended {{.Ended}}{{end}}</p>

{{with .Figures}}{{with index . 0}}<div class="figure" id="plot-{{.Name}}"><h3>{{.Title}}</h3>{{.SVG}}</div>{{end}}{{end}}

<h2>Best weights</h2>
<p id="best">Best: {{.BestSummary}}</p>
{{with .Verification}}<p id="verification">Verification at a deeper search: {{.}}</p>
{{end}}<table id="best-weights">
<tr><th class="name">feature</th><th>weight</th><th>default</th><th>range</th><th class="name">meaning</th></tr>
{{range .Weights}}<tr><td class="name">{{.Name}}</td><td>{{num .Value}}</td><td>{{num .Default}}</td><td>[{{num .Min}}, {{num .Max}}]</td><td class="name">{{.Doc}}</td></tr>
{{end}}</table>

{{if .Ladder}}<h2>Ladder ({{.LadderPairs}} pairs per pairing, the defaults = 0)</h2>
<table id="ladder">
<tr><th class="name">player</th><th>games spent</th><th>W-D-L</th><th>Elo</th><th>95% interval</th></tr>
{{range .Ladder}}<tr><td class="name">{{.Label}}</td><td>{{.Spent}}</td><td>{{.Wins}}-{{.Draws}}-{{.Losses}}</td><td>{{elo .Elo}}</td><td>[{{elo .Low}}, {{elo .High}}]</td></tr>
{{end}}</table>{{end}}

<h2>Yardstick</h2>
{{if .Yardstick}}<table id="yardstick">
<tr><th>{{.Stage}}</th><th>genome</th><th>vs defaults</th><th>score</th><th>rating</th><th>95% interval</th></tr>
{{range .Yardstick}}<tr><td>{{.Generation}}</td><td>{{.Genome}}</td><td>{{.Wins}}-{{.Draws}}-{{.Losses}}</td><td>{{printf "%.1f%%" .Score}}</td><td>{{elo .Elo}}</td><td>[{{elo .Low}}, {{elo .High}}]</td></tr>
{{end}}</table>{{else}}<p>No yardstick match was played.</p>{{end}}

<h2>History in {{.Algo}}'s terms</h2>
{{range .History}}<h3>{{.Title}}</h3>
<table id="{{.ID}}">
<tr>{{range $i, $h := .Head}}<th{{if eq $i 0}} class="name"{{end}}>{{$h}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if eq $i 0}} class="name"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
<h2>Plots</h2>
{{range $i, $f := .Figures}}{{if $i}}<div class="figure" id="plot-{{$f.Name}}"><h3>{{$f.Title}}</h3>{{$f.SVG}}</div>
{{end}}{{end}}
{{.Tables}}
{{if .Bracket}}<h2>Last knockout bracket ({{.Stage}} {{.BracketRound}})</h2>
<div class="bracket" id="bracket">
{{range .Bracket}}<div class="round">
{{range .}}<div class="match">{{if .Bye}}<div class="won"><span>genome {{.A}}</span><span>bye</span></div>{{else}}<div{{if eq .Winner .A}} class="won"{{end}}><span>genome {{.A}}</span><span>{{.ScoreA}}</span></div><div{{if eq .Winner .B}} class="won"{{end}}><span>genome {{.B}}</span><span>{{.ScoreB}}</span></div>{{if .TieBreak}}<div class="tie">tie broken: {{.TieBreak}}</div>{{end}}{{end}}</div>
{{end}}</div>
{{end}}</div>{{end}}

<h2>Config</h2>
<pre>{{.Config}}</pre>
</body>
</html>
`))

type weightRow struct {
	Name, Doc                string
	Value, Default, Min, Max float64
}

type yardRow struct {
	Generation, Genome  int
	Wins, Draws, Losses int
	Score               float64
	Elo, Low, High      float64
}

type figureHTML struct {
	Name, Title string
	SVG         template.HTML
}

type matchHTML struct {
	A, B, Winner   int
	ScoreA, ScoreB float64
	Bye            bool
	TieBreak       string
}

type reportData struct {
	Name, Game, Evaluator, Algo, Status, Stage, Config, Plan string
	Seed                                                     uint64
	Done, Planned, Games, GamesPlanned                       int
	Seconds, GamesPerSecond                                  float64
	Started, Ended                                           string
	BestSummary                                              string
	Verification                                             string // verificationHTML
	Weights                                                  []weightRow
	Ladder                                                   []population.LadderEntry
	LadderPairs                                              int
	Yardstick                                                []yardRow
	History                                                  []Table
	Figures                                                  []figureHTML
	Bracket                                                  [][]matchHTML
	BracketRound                                             int
	Tables                                                   template.HTML // TablesSection, for an evaluator with tables
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// HTML renders the run's report: one self-contained page (inline SVG and
// CSS, nothing fetched) with the config, status and timings, the best
// weights with their ranges, the yardstick table, the run's history in its
// tuner's terms (History), every plot (Figures) and the last knockout
// bracket, and the pictures of its evaluator's tables, if it has any
// (TablesSection, with the best weights). A finished run has done all it planned; a running
// one says how many games it is expected to play (ExpectedGames).
func HTML(r *Run) ([]byte, error) {
	figs, err := r.Figures()
	if err != nil {
		return nil, err
	}
	planned, gamesPlanned := r.Config.ExpectedGenerations(len(r.Generations), r.Info.Games, r.Info.Seconds), 0
	if r.Info.Status == results.StatusDone {
		planned = len(r.Generations)
	} else {
		gamesPlanned = r.Config.ExpectedGames(r.Evaluator, r.Info.Games, r.Info.Seconds)
	}
	d := reportData{
		Name: r.Name, Game: r.Config.Game, Evaluator: r.Evaluator.Name, Algo: string(r.Config.Algo), Status: string(r.Info.Status),
		Stage: r.stage(), Config: configText(r.Config), Plan: Plan(r.Config), Seed: r.Config.Seed,
		Done: len(r.Generations), Planned: planned, Games: r.Info.Games, GamesPlanned: gamesPlanned, Seconds: r.Info.Seconds,
		History: r.History(0, 8),
		Started: stamp(r.Info.Started), Ended: stamp(r.Info.Ended),
	}
	if d.Status == "" {
		d.Status = "unknown"
	}
	if r.Info.Seconds > 0 {
		d.GamesPerSecond = float64(r.Info.Games) / r.Info.Seconds
	}
	d.BestSummary, d.Verification = r.Best.Summary(), verificationHTML(r.Verification)
	for i, f := range r.Evaluator.Features {
		d.Weights = append(d.Weights, weightRow{f.Name, f.Doc, r.Best.Weights[i], f.Default, f.Min, f.Max})
	}
	if l := r.Ladder; l != nil {
		d.Ladder, d.LadderPairs = l.Entries, l.Pairs
	}
	for _, g := range r.Generations {
		if y := g.Yardstick; y != nil {
			d.Yardstick = append(d.Yardstick, yardRow{GenerationNumber(g.Index), y.Genome, y.Wins, y.Draws, y.Losses, 100 * y.Score, y.Elo, y.EloLow, y.EloHigh})
		}
	}
	for _, f := range figs {
		svg, err := f.SVG()
		if err != nil {
			return nil, err
		}
		// Drop the XML prolog: the SVG is inlined in HTML.
		if i := bytes.Index(svg, []byte("<svg")); i > 0 {
			svg = svg[i:]
		}
		d.Figures = append(d.Figures, figureHTML{f.Name, f.Title, template.HTML(svg)})
	}
	if ev := r.Evaluator; len(ev.Tables) > 0 && ev.Pictures != nil {
		if d.Tables, err = TablesSection(r.Game, ev, r.Best.Weights); err != nil {
			return nil, err
		}
	}
	if r.Knockout() {
		last := r.Generations[len(r.Generations)-1]
		d.BracketRound = GenerationNumber(last.Index)
		d.Bracket = bracketColumns(last.Matches)
	}
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	return b.Bytes(), nil
}

func bracketColumns(matches []tournament.BracketMatch) [][]matchHTML {
	byRound := map[int][]matchHTML{}
	var rounds []int
	for _, m := range matches {
		if _, ok := byRound[m.Round]; !ok {
			rounds = append(rounds, m.Round)
		}
		byRound[m.Round] = append(byRound[m.Round], matchHTML{A: m.A, B: m.B, Winner: m.Winner, ScoreA: m.ScoreA, ScoreB: m.ScoreB, Bye: m.B == tournament.Bye, TieBreak: m.TieBreak})
	}
	sort.Ints(rounds)
	var out [][]matchHTML
	for _, r := range rounds {
		out = append(out, byRound[r])
	}
	return out
}

// WriteHTML writes the run's report to path atomically.
func WriteHTML(r *Run, path string) error {
	data, err := HTML(r)
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, data, true)
}

// configText is c as YAML for the report, its own tuner's settings only
// (population.Config.OwnSettings), the genetic games key marked as
// the count of pairs it is.
func configText(c population.Config) string {
	games := fmt.Sprintf("\ngames: %d\n", c.Games)
	return strings.Replace("\n"+string(c.OwnSettings()), games, fmt.Sprintf("\ngames: %d # genetic: pairs per genome (%d games), alias pairs\n", c.Games, 2*c.Games), 1)[1:]
}
