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
//	/compare/{id}                       a comparison of tuners (tune compare): its table,
//	                                    the ladder plot of every tuner, its tuners' runs
//	/compare/{id}/plot.svg|.png         its ladder plot
//	/api/compare/{id}                   the same as JSON
//	/tables/{game}/{evaluator}          the pictures of a built-in evaluator's tables
//
// A run's id is its directory's name below the runs folder; a
// comparison's tuner's run's, "<comparison>:<tuner>", and it is listed
// beneath its comparison's line. No run's
// store is kept open between requests (a server over thousands of runs
// holds no file of theirs): a read opens the store read-only
// (results.OpenReadOnlyUnchecked), reads and closes it, and the server
// keeps only summaries. A list request stats each run's files and rereads
// only the runs whose files changed (or changed in the last 30 seconds: a
// commit becomes visible to readers a moment after its WAL write), and of
// those only what the list shows: the counts, the ladder and each
// generation's champion (results.Run.Champions), from which the run's best
// is chosen as every command chooses it (results.NewView). The API's JSON
// has the shapes of tune show --json (results.RunJSON's parts). A run's
// page reads the whole run, once per generation, status and ladder; the
// last few runs shown keep it, with their rendered plots. The event
// streams poll the same cache at Options.Poll. Runs that cannot be read
// are listed as damaged, with the reason, and never stop the others from
// being served.
package web
