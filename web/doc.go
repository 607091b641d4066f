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
//	/runs/{id}/events                   server-sent events: progress, generation, status
//	/api/runs, /api/runs/{id}           the same data as JSON, for scripts
//
// A run's id is its directory's name below the runs folder. Stores are
// opened read-only (results.OpenReadOnly) and kept open; a list request
// only stats each run's database files and rereads a run when they changed,
// and its generations only when their count changed. The event streams
// poll the same cache at Options.Poll. Runs that cannot be read are listed
// as damaged, with the reason, and never stop the others from being served.
package web
