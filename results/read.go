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
	out, index, err := r.generationRecords()
	if err != nil {
		return nil, err
	}
	if err := r.readGenomes(out, index, `SELECT generation, id, parents, weights, fitness, wins, draws, losses, `+r.priorColumns("")+` FROM genomes ORDER BY generation, pos`); err != nil {
		return nil, err
	}
	if err := r.readMatches(out, index); err != nil {
		return nil, err
	}
	if err := r.readYardsticks(out, index); err != nil {
		return nil, err
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
	generation, yard, genome := "spent, stop", "y.prev, y.prev_wins, y.prev_draws, y.prev_losses", r.priorColumns("x.")
	if r.version < 2 {
		generation, yard = "0, ''", "-4, 0, 0, 0"
	}
	rows, err := r.db.Query(`SELECT idx, mean, std, diversity, best, best_fitness, mean_fitness, worst_fitness, distance, converged, ` + generation + `,
		y.genome, y.wins, y.draws, y.losses, y.score, y.elo, y.elo_low, y.elo_high, ` + yard + `,
		x.id, x.parents, x.weights, x.fitness, x.wins, x.draws, x.losses, ` + genome + `
		FROM generations LEFT JOIN yardstick y ON y.generation = idx LEFT JOIN genomes x ON x.generation = idx AND x.id = y.genome
		ORDER BY idx, x.pos`)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	var out []population.Generation
	for rows.Next() {
		var g population.Generation
		var mean, std string
		var y struct {
			genome, wins, draws, losses, prev, prevWins, prevDraws, prevLosses sql.NullInt64
			score                                                              sql.NullFloat64
			elo, low, high                                                     sql.NullString
		}
		var x struct {
			id, wins, draws, losses, priorWins, priorDraws, priorLosses sql.NullInt64
			fitness                                                     sql.NullFloat64
			parents, weights                                            sql.NullString
		}
		if err := rows.Scan(&g.Index, &mean, &std, &g.Diversity, &g.Best, &g.BestFitness, &g.MeanFitness, &g.WorstFitness, &g.Distance, &g.Converged, &g.Spent, &g.Stop,
			&y.genome, &y.wins, &y.draws, &y.losses, &y.score, &y.elo, &y.low, &y.high, &y.prev, &y.prevWins, &y.prevDraws, &y.prevLosses,
			&x.id, &x.parents, &x.weights, &x.fitness, &x.wins, &x.draws, &x.losses, &x.priorWins, &x.priorDraws, &x.priorLosses); err != nil {
			return nil, wrap(err)
		}
		if n := len(out); n > 0 && out[n-1].Index == g.Index {
			return nil, fmt.Errorf("%w: generation %d's yardstick names genome %d twice", ErrDamaged, g.Index, y.genome.Int64)
		}
		json.Unmarshal([]byte(mean), &g.Mean)
		json.Unmarshal([]byte(std), &g.Std)
		if y.genome.Valid {
			g.Yardstick = &population.Yardstick{Genome: int(y.genome.Int64),
				WDL: stats.WDL{Wins: int(y.wins.Int64), Draws: int(y.draws.Int64), Losses: int(y.losses.Int64)}, Score: y.score.Float64,
				Elo: parseFloatText(y.elo.String), EloLow: parseFloatText(y.low.String), EloHigh: parseFloatText(y.high.String),
				Previous: int(y.prev.Int64), VsPrevious: stats.WDL{Wins: int(y.prevWins.Int64), Draws: int(y.prevDraws.Int64), Losses: int(y.prevLosses.Int64)}}
		}
		if x.id.Valid {
			c := population.Genome{ID: int(x.id.Int64), Fitness: x.fitness.Float64,
				WDL:   stats.WDL{Wins: int(x.wins.Int64), Draws: int(x.draws.Int64), Losses: int(x.losses.Int64)},
				Prior: stats.WDL{Wins: int(x.priorWins.Int64), Draws: int(x.priorDraws.Int64), Losses: int(x.priorLosses.Int64)}}
			json.Unmarshal([]byte(x.parents.String), &c.Parents)
			if len(c.Parents) == 0 {
				c.Parents = nil
			}
			json.Unmarshal([]byte(x.weights.String), &c.Weights)
			g.Genomes = []population.Genome{c}
		}
		out = append(out, g)
	}
	return out, wrap(rows.Err())
}

// generationRecords reads the generations table, in order, and returns the
// position in it of each generation index.
func (r *Run) generationRecords() ([]population.Generation, map[int]int, error) {
	extra := "spent, stop"
	if r.version < 2 {
		extra = "0, ''"
	}
	rows, err := r.db.Query(`SELECT idx, mean, std, diversity, best, best_fitness, mean_fitness, worst_fitness, distance, converged, ` + extra + ` FROM generations ORDER BY idx`)
	if err != nil {
		return nil, nil, wrap(err)
	}
	defer rows.Close()
	var out []population.Generation
	for rows.Next() {
		var g population.Generation
		var mean, std string
		if err := rows.Scan(&g.Index, &mean, &std, &g.Diversity, &g.Best, &g.BestFitness, &g.MeanFitness, &g.WorstFitness, &g.Distance, &g.Converged, &g.Spent, &g.Stop); err != nil {
			return nil, nil, wrap(err)
		}
		json.Unmarshal([]byte(mean), &g.Mean)
		json.Unmarshal([]byte(std), &g.Std)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, wrap(err)
	}
	index := map[int]int{}
	for i, g := range out {
		index[g.Index] = i
	}
	return out, index, nil
}

// priorColumns selects a genome's prior record from the genomes table
// (named with prefix in the query), or zeros in a store older than them.
func (r *Run) priorColumns(prefix string) string {
	if r.version < 2 {
		return "0, 0, 0"
	}
	return prefix + "prior_wins, " + prefix + "prior_draws, " + prefix + "prior_losses"
}

// readGenomes adds to out the genomes that query selects: its columns are
// generation, id, parents, weights, fitness, wins, draws, losses and the
// prior record's three (priorColumns).
func (r *Run) readGenomes(out []population.Generation, index map[int]int, query string) error {
	rows, err := r.db.Query(query)
	if err != nil {
		return wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var gen int
		var x population.Genome
		var parents, weights string
		if err := rows.Scan(&gen, &x.ID, &parents, &weights, &x.Fitness, &x.Wins, &x.Draws, &x.Losses, &x.Prior.Wins, &x.Prior.Draws, &x.Prior.Losses); err != nil {
			return wrap(err)
		}
		json.Unmarshal([]byte(parents), &x.Parents)
		if len(x.Parents) == 0 {
			x.Parents = nil
		}
		json.Unmarshal([]byte(weights), &x.Weights)
		if i, ok := index[gen]; ok {
			out[i].Genomes = append(out[i].Genomes, x)
		}
	}
	return wrap(rows.Err())
}

// readMatches adds their knockout brackets to the generations of out.
func (r *Run) readMatches(out []population.Generation, index map[int]int) error {
	rows, err := r.db.Query(`SELECT generation, round, a, b, score_a, score_b, games, winner, tie_break FROM matches ORDER BY generation, pos`)
	if err != nil {
		return wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var gen int
		var m tournament.BracketMatch
		if err := rows.Scan(&gen, &m.Round, &m.A, &m.B, &m.ScoreA, &m.ScoreB, &m.Games, &m.Winner, &m.TieBreak); err != nil {
			return wrap(err)
		}
		if i, ok := index[gen]; ok {
			out[i].Matches = append(out[i].Matches, m)
		}
	}
	return wrap(rows.Err())
}

// readYardsticks adds their yardstick matches to the generations of out.
func (r *Run) readYardsticks(out []population.Generation, index map[int]int) error {
	extra := "prev, prev_wins, prev_draws, prev_losses"
	if r.version < 2 {
		extra = "-4, 0, 0, 0"
	}
	rows, err := r.db.Query(`SELECT generation, genome, wins, draws, losses, score, elo, elo_low, elo_high, ` + extra + ` FROM yardstick`)
	if err != nil {
		return wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var gen int
		var y population.Yardstick
		var elo, lo, hi string
		if err := rows.Scan(&gen, &y.Genome, &y.Wins, &y.Draws, &y.Losses, &y.Score, &elo, &lo, &hi, &y.Previous, &y.VsPrevious.Wins, &y.VsPrevious.Draws, &y.VsPrevious.Losses); err != nil {
			return wrap(err)
		}
		y.Elo, y.EloLow, y.EloHigh = parseFloatText(elo), parseFloatText(lo), parseFloatText(hi)
		if i, ok := index[gen]; ok {
			out[i].Yardstick = &y
		}
	}
	return wrap(rows.Err())
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

// List finds the runs in the directories directly below root (and root
// itself), sorted by directory. Directories that are not runs are skipped;
// runs that cannot be read are returned with their error.
func List(root string) ([]Info, []error) {
	var dirs []string
	if _, err := os.Stat(filepath.Join(root, DBName)); err == nil {
		dirs = append(dirs, root)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, []error{fmt.Errorf("results: %w", err)}
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") { // hidden: a run being created
			if _, err := os.Stat(filepath.Join(root, e.Name(), DBName)); err == nil {
				dirs = append(dirs, filepath.Join(root, e.Name()))
			}
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
	// Read-only, sharing the WAL with a writer if one runs; in a directory
	// that cannot be written (no room for the WAL index), as an immutable
	// file.
	var firstErr error
	for _, mode := range []string{"mode=ro", "immutable=1"} {
		db, err := sql.Open("sqlite", "file:"+path+"?"+mode+"&_pragma=busy_timeout(10000)")
		if err != nil {
			return nil, wrap(err)
		}
		db.SetMaxOpenConns(1)
		r := &Run{dir: dir, db: db}
		err = r.check(checkPages)
		if err == nil {
			return r, nil
		}
		db.Close()
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
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
	rows, err := r.db.Query(`SELECT label, genome, generation, spent, weights, wins, draws, losses, elo, elo_low, elo_high, pairs, draw_elo, reference, best, best_low, best_high FROM ladder ORDER BY pos`)
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	var l population.Ladder
	for rows.Next() {
		var e population.LadderEntry
		var weights, elo, lo, hi, bestLo, bestHi string
		if err := rows.Scan(&e.Label, &e.Genome, &e.Generation, &e.Spent, &weights, &e.Wins, &e.Draws, &e.Losses, &elo, &lo, &hi,
			&l.Pairs, &l.DrawElo, &l.Reference, &l.Best, &bestLo, &bestHi); err != nil {
			return nil, wrap(err)
		}
		json.Unmarshal([]byte(weights), &e.Weights)
		e.Elo, e.Low, e.High = parseFloatText(elo), parseFloatText(lo), parseFloatText(hi)
		l.BestLow, l.BestHigh = parseFloatText(bestLo), parseFloatText(bestHi)
		l.Entries = append(l.Entries, e)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err)
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
