package web

import (
	"fmt"
	"html/template"
	"net/http"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/reports"
)

var tablesTemplate = template.Must(template.New("tables").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
` + style + `<style>
` + reports.TablesStyle + `</style>
</head>
<body>
<nav class="dash"><a href="/">← all runs</a></nav>
<h1>{{.Title}}</h1>
<p>The built-in tables of the evaluator, with its default weights: a run that tunes it shows its own on its page.</p>
{{.Section}}
</body>
</html>
`))

// tablesPage serves /tables/{game}/{evaluator}: the pictures of the tables
// of a game's built-in evaluator (reports.TablesSection) with its default
// weights; 404 for an unknown game or evaluator, or one without tables.
func (s *Server) tablesPage(w http.ResponseWriter, r *http.Request) {
	name, evName := r.PathValue("game"), r.PathValue("evaluator")
	g, err := all.Find(name)
	if err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusNotFound)
		return
	}
	ev, err := games.FindEvaluator(g, evName)
	if err != nil || evName == "" {
		http.Error(w, fmt.Sprintf("web: %s has no evaluator %q (%s)", g.Name(), evName, tableEvaluators(g)), http.StatusNotFound)
		return
	}
	section, err := reports.TablesSection(g, ev, ev.Defaults())
	if err != nil {
		http.Error(w, fmt.Sprintf("web: %v: nothing to draw (%s)", err, tableEvaluators(g)), http.StatusNotFound)
		return
	}
	render(w, tablesTemplate, map[string]any{
		"Title":   fmt.Sprintf("Tables of %s/%s", g.Name(), ev.Name),
		"Section": section,
	})
}

// tableEvaluators says which of g's evaluators have tables to draw.
func tableEvaluators(g games.Game) string {
	var names []string
	for _, ev := range g.Evaluators() {
		if len(ev.Tables) > 0 && ev.Pictures != nil {
			names = append(names, ev.Name)
		}
	}
	if len(names) == 0 {
		return g.Name() + " has no evaluator with tables"
	}
	return fmt.Sprintf("%s's evaluators with tables: %v", g.Name(), names)
}
