// Package web is gametune's live dashboard: read-only web pages and a JSON
// API over the run stores in one folder, beside the static report.html and
// sharing its template and plots (package reports).
//
// The routes, all GET (HEAD too):
//
//	/                                   the runs list, sortable (?sort=elo&desc=1)
//	/runs/{id}                          one run: the report, live, and its last games
//	/runs/{id}/plots/{name}.svg|.png    a plot, drawn from the store, cached per generation
//	/runs/{id}/games                    the last games, in the game's record format
//	/runs/{id}/games/{stage}/{gen}/{i}  one game
//	/runs/{id}/events                   server-sent events: progress, generation, status, ladder
//	/api/runs, /api/runs/{id}           the same data as JSON, for scripts
//
// A run's id is its directory's name below the runs folder. Stores are
// opened read-only (results.OpenReadOnlyUnchecked) and kept open. A list
// request asks each run whether another connection committed to it
// (results.Run.DataVersion) and rereads only the runs that changed, and of
// those only what the list shows: the counts, the ladder and each
// generation's champion (results.Run.Champions), from which the run's best
// is chosen as every command chooses it (results.NewView). The API's JSON
// has the shapes of tune show --json (results.RunJSON's parts). A run's page reads the whole run, once per generation,
// status and ladder. The event streams poll the same cache at
// Options.Poll. Runs that cannot be read are listed as damaged, with the
// reason, and never stop the others from being served.
package web
