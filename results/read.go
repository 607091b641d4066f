package results

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// Info is a run's record.
type Info struct {
	Dir         string    `json:"dir"`
	Game        string    `json:"game"`
	Algo        string    `json:"algo"`
	Seed        uint64    `json:"seed"`
	Version     string    `json:"version"`
	Status      Status    `json:"status"`
	Created     time.Time `json:"created"`
	Started     time.Time `json:"started,omitzero"`
	Ended       time.Time `json:"ended,omitzero"`
	Seconds     float64   `json:"seconds"` // running time over every session
	Games       int       `json:"games"`
	Generations int       `json:"generations"`
}

// Info reads the run's record and counts.
func (r *Run) Info() (Info, error) {
	in := Info{Dir: r.dir}
	var seed int64
	var created string
	var started, ended sql.NullString
	err := r.db.QueryRow(`SELECT game, algo, seed, version, status, created, started, ended, seconds FROM run WHERE id = 1`).
		Scan(&in.Game, &in.Algo, &seed, &in.Version, &in.Status, &created, &started, &ended, &in.Seconds)
	if err != nil {
		return in, wrap(err)
	}
	in.Seed = uint64(seed)
	if in.Status == StatusRunning && r.lock == nil && !writerWorking(r.dir) {
		in.Status = StatusInterrupted // its writer died without recording how it ended
	}
	in.Created, _ = time.Parse(time.RFC3339, created)
	if started.Valid {
		in.Started, _ = time.Parse(time.RFC3339, started.String)
	}
	if ended.Valid {
		in.Ended, _ = time.Parse(time.RFC3339, ended.String)
	}
	if err := r.db.QueryRow(`SELECT COUNT(*) FROM games`).Scan(&in.Games); err != nil {
		return in, wrap(err)
	}
	if err := r.db.QueryRow(`SELECT COUNT(*) FROM generations`).Scan(&in.Generations); err != nil {
		return in, wrap(err)
	}
	return in, nil
}

// Generations reads every closed generation, in order, with its genomes,
// yardstick and bracket.
func (r *Run) Generations() ([]population.Generation, error) {
	var out []population.Generation
	err := r.eachRow(`SELECT `+r.generationColumns()+` FROM generations ORDER BY idx`, func(rows *sql.Rows) error {
		var g population.Generation
		var j generationJSON
		if err := rows.Scan(j.fields(&g)...); err != nil {
			return err
		}
		j.decode(&g)
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	index := map[int]int{}
	for i, g := range out {
		index[g.Index] = i
	}
	for _, read := range []func([]population.Generation, map[int]int) error{r.readGenomes, r.readMatches, r.readYardsticks} {
		if err := read(out, index); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Champions reads every closed generation, in order, as Generations does,
// but of its genomes only the one its yardstick measured (none when it
// played no yardstick match) and without its bracket: what naming a run's
// best needs (population.ChooseBest chooses the same genome from it as from
// Generations). It reads one genome per generation instead of every one,
// for lists of many runs.
func (r *Run) Champions() ([]population.Generation, error) {
	// One statement: on the dashboard's first list of a folder, the cost
	// of a run is mostly the statements run on it.
	query := `SELECT ` + r.generationColumns() + `, ` + r.yardstickColumns("y.") + `, ` + r.genomeColumns("x.") + `
		FROM generations LEFT JOIN yardstick y ON y.generation = idx LEFT JOIN genomes x ON x.generation = idx AND x.id = y.genome
		ORDER BY idx, x.pos`
	var out []population.Generation
	err := r.eachRow(query, func(rows *sql.Rows) error {
		var g population.Generation
		var j generationJSON
		var y yardstickRow
		var x genomeRow
		if err := rows.Scan(append(append(j.fields(&g), y.fields()...), x.fields()...)...); err != nil {
			return err
		}
		if n := len(out); n > 0 && out[n-1].Index == g.Index {
			return fmt.Errorf("%w: generation %d's yardstick names genome %d twice", ErrDamaged, g.Index, y.genome.Int64)
		}
		j.decode(&g)
		g.Yardstick = y.yardstick()
		if x.id.Valid {
			g.Genomes = []population.Genome{x.genome()}
		}
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachRow runs query with args and calls scan on each row of its answer.
// An error of scan ends the reading and is returned (SQLite's wrapped in
// the package's prefix, an ErrDamaged one as it is).
func (r *Run) eachRow(query string, scan func(*sql.Rows) error, args ...any) error {
	rows, err := r.db.Query(query, args...)
	if err != nil {
		return wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			if errors.Is(err, ErrDamaged) {
				return err
			}
			return wrap(err)
		}
	}
	return wrap(rows.Err())
}

// generationColumns selects a generation's record from the generations
// table, in the order of generationJSON.fields (zeros for the columns a
// store older than them lacks).
func (r *Run) generationColumns() string {
	extra := "spent, stop"
	if r.version < 2 {
		extra = "0, ''"
	}
	return "idx, mean, std, diversity, best, best_fitness, mean_fitness, worst_fitness, distance, converged, " + extra
}

// generationJSON holds the columns of a generation kept as JSON text.
type generationJSON struct{ mean, std string }

// fields are the destinations of generationColumns: g's fields, and the
// mean and spread as JSON in j.
func (j *generationJSON) fields(g *population.Generation) []any {
	return []any{&g.Index, &j.mean, &j.std, &g.Diversity, &g.Best, &g.BestFitness, &g.MeanFitness, &g.WorstFitness, &g.Distance, &g.Converged, &g.Spent, &g.Stop}
}

func (j *generationJSON) decode(g *population.Generation) {
	json.Unmarshal([]byte(j.mean), &g.Mean)
	json.Unmarshal([]byte(j.std), &g.Std)
}

// genomeColumns selects a genome from the genomes table (named with prefix
// in the query), in the order of genomeRow.fields: its prior record is
// zeros in a store older than it.
func (r *Run) genomeColumns(prefix string) string {
	prior := prefix + "prior_wins, " + prefix + "prior_draws, " + prefix + "prior_losses"
	if r.version < 2 {
		prior = "0, 0, 0"
	}
	return prefix + "id, " + prefix + "parents, " + prefix + "weights, " + prefix + "fitness, " + prefix + "wins, " + prefix + "draws, " + prefix + "losses, " + prior
}

// genomeRow is a genome as the genomes table holds it, NULL when a LEFT
// JOIN found none (id not Valid).
type genomeRow struct {
	id, wins, draws, losses, priorWins, priorDraws, priorLosses sql.NullInt64
	fitness                                                     sql.NullFloat64
	parents, weights                                            sql.NullString
}

func (x *genomeRow) fields() []any {
	return []any{&x.id, &x.parents, &x.weights, &x.fitness, &x.wins, &x.draws, &x.losses, &x.priorWins, &x.priorDraws, &x.priorLosses}
}

func (x *genomeRow) genome() population.Genome {
	c := population.Genome{ID: int(x.id.Int64), Fitness: x.fitness.Float64,
		WDL:   stats.WDL{Wins: int(x.wins.Int64), Draws: int(x.draws.Int64), Losses: int(x.losses.Int64)},
		Prior: stats.WDL{Wins: int(x.priorWins.Int64), Draws: int(x.priorDraws.Int64), Losses: int(x.priorLosses.Int64)}}
	json.Unmarshal([]byte(x.parents.String), &c.Parents)
	if len(c.Parents) == 0 {
		c.Parents = nil
	}
	json.Unmarshal([]byte(x.weights.String), &c.Weights)
	return c
}

// yardstickColumns selects a yardstick match from the yardstick table
// (named with prefix in the query), in the order of yardstickRow.fields:
// its match against the previous champion is none in a store older than
// it.
func (r *Run) yardstickColumns(prefix string) string {
	prev := prefix + "prev, " + prefix + "prev_wins, " + prefix + "prev_draws, " + prefix + "prev_losses"
	if r.version < 2 {
		prev = "-4, 0, 0, 0"
	}
	return prefix + "genome, " + prefix + "wins, " + prefix + "draws, " + prefix + "losses, " + prefix + "score, " +
		prefix + "elo, " + prefix + "elo_low, " + prefix + "elo_high, " + prev
}

// yardstickRow is a yardstick match as the yardstick table holds it, NULL
// when a LEFT JOIN found none (genome not Valid).
type yardstickRow struct {
	genome, wins, draws, losses, prev, prevWins, prevDraws, prevLosses sql.NullInt64
	score                                                              sql.NullFloat64
	elo, low, high                                                     sql.NullString
}

func (y *yardstickRow) fields() []any {
	return []any{&y.genome, &y.wins, &y.draws, &y.losses, &y.score, &y.elo, &y.low, &y.high, &y.prev, &y.prevWins, &y.prevDraws, &y.prevLosses}
}

// yardstick is the match; nil for none.
func (y *yardstickRow) yardstick() *population.Yardstick {
	if !y.genome.Valid {
		return nil
	}
	return &population.Yardstick{Genome: int(y.genome.Int64),
		WDL: stats.WDL{Wins: int(y.wins.Int64), Draws: int(y.draws.Int64), Losses: int(y.losses.Int64)}, Score: y.score.Float64,
		Elo: parseFloatText(y.elo.String), EloLow: parseFloatText(y.low.String), EloHigh: parseFloatText(y.high.String),
		Previous: int(y.prev.Int64), VsPrevious: stats.WDL{Wins: int(y.prevWins.Int64), Draws: int(y.prevDraws.Int64), Losses: int(y.prevLosses.Int64)}}
}

// readGenomes adds their genomes to the generations of out, index giving
// the place in out of each generation.
func (r *Run) readGenomes(out []population.Generation, index map[int]int) error {
	return r.eachRow(`SELECT generation, `+r.genomeColumns("")+` FROM genomes ORDER BY generation, pos`, func(rows *sql.Rows) error {
		var gen int
		var x genomeRow
		if err := rows.Scan(append([]any{&gen}, x.fields()...)...); err != nil {
			return err
		}
		if i, ok := index[gen]; ok {
			out[i].Genomes = append(out[i].Genomes, x.genome())
		}
		return nil
	})
}

// readMatches adds their knockout brackets to the generations of out.
func (r *Run) readMatches(out []population.Generation, index map[int]int) error {
	return r.eachRow(`SELECT generation, round, a, b, score_a, score_b, games, winner, tie_break FROM matches ORDER BY generation, pos`, func(rows *sql.Rows) error {
		var gen int
		var m tournament.BracketMatch
		if err := rows.Scan(&gen, &m.Round, &m.A, &m.B, &m.ScoreA, &m.ScoreB, &m.Games, &m.Winner, &m.TieBreak); err != nil {
			return err
		}
		if i, ok := index[gen]; ok {
			out[i].Matches = append(out[i].Matches, m)
		}
		return nil
	})
}

// readYardsticks adds their yardstick matches to the generations of out,
// with their games against the run's opponents (none in a store older
// than them).
func (r *Run) readYardsticks(out []population.Generation, index map[int]int) error {
	err := r.eachRow(`SELECT generation, `+r.yardstickColumns("")+` FROM yardstick`, func(rows *sql.Rows) error {
		var gen int
		var y yardstickRow
		if err := rows.Scan(append([]any{&gen}, y.fields()...)...); err != nil {
			return err
		}
		if i, ok := index[gen]; ok {
			out[i].Yardstick = y.yardstick()
		}
		return nil
	})
	if err != nil || r.version < 3 {
		return err
	}
	return r.eachRow(`SELECT generation, opponent, wins, draws, losses FROM yardstick_opponents ORDER BY generation, opponent`, func(rows *sql.Rows) error {
		var gen, o int
		var w stats.WDL
		if err := rows.Scan(&gen, &o, &w.Wins, &w.Draws, &w.Losses); err != nil {
			return err
		}
		i, ok := index[gen]
		if !ok || out[i].Yardstick == nil {
			return nil
		}
		y := out[i].Yardstick
		if o < 0 || o >= population.MaxOpponents || o != len(y.VsOpponents) {
			return fmt.Errorf("%w: generation %d's yardstick has games against opponent %d after %d opponents", ErrDamaged, gen, o, len(y.VsOpponents))
		}
		y.VsOpponents = append(y.VsOpponents, w)
		return nil
	})
}

// DataVersion returns a number that changes whenever a commit to the run
// by another connection (another process's included) becomes visible to
// this one (SQLite's PRAGMA data_version): a reader compares it with the
// one it saw to learn, for the cost of one statement, whether the run
// changed. Its value means nothing else, and differs between two opens of
// the same run.
func (r *Run) DataVersion() (int64, error) {
	var v int64
	err := r.db.QueryRow(`PRAGMA data_version`).Scan(&v)
	return v, wrap(err)
}

// IsRun reports whether dir holds a run: its database.
func IsRun(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, DBName))
	return err == nil
}

// Listed reports whether a listing looks into e: a directory, but not a
// hidden one (its name begins with a dot: a run being created).
func Listed(e os.DirEntry) bool { return e.IsDir() && !strings.HasPrefix(e.Name(), ".") }

// List finds the runs in the directories directly below root (and root
// itself), sorted by directory. Directories that are not runs are skipped;
// runs that cannot be read are returned with their error.
func List(root string) ([]Info, []error) {
	var dirs []string
	if IsRun(root) {
		dirs = append(dirs, root)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, []error{fmt.Errorf("results: %w", err)}
	}
	for _, e := range entries {
		if d := filepath.Join(root, e.Name()); Listed(e) && IsRun(d) {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	var out []Info
	var errs []error
	for _, d := range dirs {
		r, err := OpenReadOnly(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		in, err := r.Info()
		r.Close()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, in)
	}
	return out, errs
}

// OpenReadOnly opens a run for reading only: for listing, showing and
// exporting, including runs in directories that cannot be written. It
// checks every page of the database (PRAGMA quick_check), which costs a
// read of the whole file.
func OpenReadOnly(dir string) (*Run, error) {
	return openReadOnly(dir, true)
}

// OpenReadOnlyUnchecked opens a run for reading only, as OpenReadOnly does,
// but without reading the whole database to check its pages: for readers
// of many runs that read a few rows of each (the dashboard's runs list),
// whose cost must not grow with the runs' games. Damaged pages are
// reported by the reads that meet them.
func OpenReadOnlyUnchecked(dir string) (*Run, error) {
	return openReadOnly(dir, false)
}

func openReadOnly(dir string, checkPages bool) (*Run, error) {
	path := filepath.Join(dir, DBName)
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("results: no run directory %s", dir)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w: %s has no %s", ErrNotRun, dir, DBName)
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	// A read-only open creates no file. While no writer works on the run
	// (the shared lock is held: none can start) and its database holds all
	// of it (no WAL or journal beside it: a writer removes its WAL when it
	// ends), the file is read as immutable, which creates nothing.
	// Otherwise it is read sharing the WAL a writer keeps (it exists
	// already); and in a directory that cannot be written (no room for the
	// WAL index), as an immutable file.
	modes := []string{"mode=ro", "immutable=1"}
	shared := readLock(dir)
	if shared != nil && !exists(path+"-wal") && !exists(path+"-journal") {
		modes = []string{"immutable=1"}
	}
	var firstErr error
	for _, mode := range modes {
		db, err := sql.Open("sqlite", fileURI(path, mode+"&_pragma=busy_timeout(10000)"))
		if err != nil {
			shared.Close()
			return nil, wrap(err)
		}
		db.SetMaxOpenConns(1)
		r := &Run{dir: dir, db: db}
		err = r.check(checkPages)
		if err == nil {
			if mode == "immutable=1" {
				r.shared = shared
			} else {
				shared.Close()
			}
			return r, nil
		}
		db.Close()
		if firstErr == nil {
			firstErr = err
		}
	}
	shared.Close()
	return nil, firstErr
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// CountGames counts the recorded games of one stage and generation.
func (r *Run) CountGames(stage string, generation int) (int, error) {
	var n int
	err := r.db.QueryRow(`SELECT COUNT(*) FROM games WHERE stage = ? AND generation = ?`, stage, generation).Scan(&n)
	return n, wrap(err)
}

// ErrDamaged is wrapped by CheckWeights's error.
var ErrDamaged = errors.New("results: the run's records are damaged")

// CheckWeights checks that every genome, mean and spread recorded in hist
// holds one weight per feature of the run's evaluator (n features), so
// that readers index them without fear.
func CheckWeights(hist []population.Generation, n int) error {
	for _, g := range hist {
		if len(g.Mean) != n || len(g.Std) != n {
			return fmt.Errorf("%w: generation %d has %d means and %d spreads for %d features", ErrDamaged, g.Index, len(g.Mean), len(g.Std), n)
		}
		for _, x := range g.Genomes {
			if len(x.Weights) != n {
				return fmt.Errorf("%w: genome %d of generation %d has %d weights for %d features", ErrDamaged, x.ID, g.Index, len(x.Weights), n)
			}
		}
	}
	return nil
}

// Ladder reads the run's ladder: nil when it has none (yet).
func (r *Run) Ladder() (*population.Ladder, error) {
	if r.version < 2 {
		return nil, nil
	}
	var l population.Ladder
	err := r.eachRow(`SELECT label, genome, generation, spent, weights, wins, draws, losses, elo, elo_low, elo_high, pairs, draw_elo, reference, best, best_low, best_high FROM ladder ORDER BY pos`, func(rows *sql.Rows) error {
		var e population.LadderEntry
		var weights, elo, lo, hi, bestLo, bestHi string
		if err := rows.Scan(&e.Label, &e.Genome, &e.Generation, &e.Spent, &weights, &e.Wins, &e.Draws, &e.Losses, &elo, &lo, &hi,
			&l.Pairs, &l.DrawElo, &l.Reference, &l.Best, &bestLo, &bestHi); err != nil {
			return err
		}
		json.Unmarshal([]byte(weights), &e.Weights)
		e.Elo, e.Low, e.High = parseFloatText(elo), parseFloatText(lo), parseFloatText(hi)
		l.BestLow, l.BestHigh = parseFloatText(bestLo), parseFloatText(bestHi)
		l.Entries = append(l.Entries, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(l.Entries) == 0 {
		return nil, nil
	}
	if l.Best < 0 || l.Best >= len(l.Entries) || l.Reference < 0 || l.Reference >= len(l.Entries) {
		return nil, fmt.Errorf("%w: the ladder's best or reference entry is out of range", ErrDamaged)
	}
	return &l, nil
}

// RecordedStop returns why the run ended after generation index, as
// recorded ("" for none).
func (r *Run) RecordedStop(index int) (string, bool, error) {
	var stop string
	err := r.db.QueryRow(`SELECT stop FROM generations WHERE idx = ?`, index).Scan(&stop)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return stop, err == nil, wrap(err)
}
