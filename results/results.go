// Package results is gametune's run store: one SQLite database (run.db,
// through the pure-Go modernc.org/sqlite driver) per run directory, holding
// the run's resolved config and status, every finished game, every closed
// generation with its genomes, yardstick and bracket. Each game is committed
// the moment it finishes (WAL journal, synchronous=FULL: a committed game
// survives a crash of the process and of the machine), so a crash loses at
// most the games in flight; a Run satisfies population.Store, so a resumed
// run finds the games already played and replays none.
//
// Every reader of a run (tune show, runs, export, ladder, the report, the
// dashboard) reads it through one View: the config parsed, the game and
// evaluator found, the weights checked and the best chosen once
// (ReadView, OpenView, NewView). The JSON shapes of a run, its ladder and
// its best (RunJSON, LadderJSON, BestJSON, with stats.Float for numbers that may
// be infinite) are defined here once, for the commands and the dashboard
// alike. Export writes the best weights in the formats game programs read.
package results

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SchemaVersion is the database layout this package writes (PRAGMA
// user_version). Older layouts are migrated; newer ones refused.
const SchemaVersion = 3

// DBName and ConfigName are the files of a run directory.
const (
	DBName     = "run.db"
	ConfigName = "config.yaml"
	LockName   = "run.lock"
)

var (
	ErrNotRun = errors.New("results: not a gametune run directory")
	ErrExists = errors.New("results: the run directory exists already")
	ErrInUse  = errors.New("results: the run is in use by another process")
)

const schema = `
CREATE TABLE run (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	game TEXT NOT NULL, algo TEXT NOT NULL, seed INTEGER NOT NULL,
	version TEXT NOT NULL, config TEXT NOT NULL,
	status TEXT NOT NULL, created TEXT NOT NULL, started TEXT, ended TEXT,
	seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE games (
	stage TEXT NOT NULL, generation INTEGER NOT NULL, idx INTEGER NOT NULL,
	first INTEGER NOT NULL, second INTEGER NOT NULL,
	opening TEXT NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL,
	plies INTEGER NOT NULL, moves TEXT NOT NULL, nodes INTEGER NOT NULL,
	seconds REAL NOT NULL,
	PRIMARY KEY (stage, generation, idx)
);
CREATE TABLE generations (
	idx INTEGER PRIMARY KEY,
	mean TEXT NOT NULL, std TEXT NOT NULL, diversity REAL NOT NULL,
	best INTEGER NOT NULL, best_fitness REAL NOT NULL, mean_fitness REAL NOT NULL,
	worst_fitness REAL NOT NULL, distance REAL NOT NULL, converged INTEGER NOT NULL,
	spent INTEGER NOT NULL DEFAULT 0, stop TEXT NOT NULL DEFAULT ''
);
CREATE TABLE genomes (
	generation INTEGER NOT NULL, pos INTEGER NOT NULL, id INTEGER NOT NULL,
	parents TEXT NOT NULL, weights TEXT NOT NULL, fitness REAL NOT NULL,
	wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
	prior_wins INTEGER NOT NULL DEFAULT 0, prior_draws INTEGER NOT NULL DEFAULT 0, prior_losses INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (generation, pos)
);
CREATE TABLE yardstick (
	generation INTEGER PRIMARY KEY, genome INTEGER NOT NULL,
	wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
	score REAL NOT NULL, elo TEXT NOT NULL, elo_low TEXT NOT NULL, elo_high TEXT NOT NULL,
	prev INTEGER NOT NULL DEFAULT -4, prev_wins INTEGER NOT NULL DEFAULT 0,
	prev_draws INTEGER NOT NULL DEFAULT 0, prev_losses INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE matches (
	generation INTEGER NOT NULL, pos INTEGER NOT NULL, round INTEGER NOT NULL,
	a INTEGER NOT NULL, b INTEGER NOT NULL, score_a REAL NOT NULL, score_b REAL NOT NULL,
	games INTEGER NOT NULL, winner INTEGER NOT NULL, tie_break TEXT NOT NULL,
	PRIMARY KEY (generation, pos)
);
` + ladderSchema + opponentsSchema + verificationSchema

// opponentsSchema is the table of each yardstick's games against the
// run's opponents (population.Yardstick.VsOpponents), added by schema
// version 3: opponent is the index in the config's opponents.
const opponentsSchema = `
CREATE TABLE yardstick_opponents (
	generation INTEGER NOT NULL, opponent INTEGER NOT NULL,
	wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
	PRIMARY KEY (generation, opponent)
);
`

// ladderSchema is the ladder's table, added by schema version 2.
const ladderSchema = `
CREATE TABLE ladder (
	pos INTEGER PRIMARY KEY, label TEXT NOT NULL, genome INTEGER NOT NULL,
	generation INTEGER NOT NULL, spent INTEGER NOT NULL, weights TEXT NOT NULL,
	wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
	elo TEXT NOT NULL, elo_low TEXT NOT NULL, elo_high TEXT NOT NULL,
	pairs INTEGER NOT NULL, draw_elo REAL NOT NULL,
	reference INTEGER NOT NULL, best INTEGER NOT NULL, best_low TEXT NOT NULL, best_high TEXT NOT NULL
);
`

// migrations[v] takes a database of schema version v to v+1.
var migrations = map[int]string{
	1: `
ALTER TABLE generations ADD COLUMN spent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE genomes ADD COLUMN prior_wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE genomes ADD COLUMN prior_draws INTEGER NOT NULL DEFAULT 0;
ALTER TABLE genomes ADD COLUMN prior_losses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE generations ADD COLUMN stop TEXT NOT NULL DEFAULT '';
ALTER TABLE yardstick ADD COLUMN prev INTEGER NOT NULL DEFAULT -4;
ALTER TABLE yardstick ADD COLUMN prev_wins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE yardstick ADD COLUMN prev_draws INTEGER NOT NULL DEFAULT 0;
ALTER TABLE yardstick ADD COLUMN prev_losses INTEGER NOT NULL DEFAULT 0;
` + ladderSchema,
	2: opponentsSchema + verificationSchema,
}

// migrate brings a database opened for writing to SchemaVersion.
func (r *Run) migrate() error {
	for r.version < SchemaVersion {
		tx, err := r.db.Begin()
		if err != nil {
			return wrap(err)
		}
		if _, err := tx.Exec(migrations[r.version]); err != nil {
			tx.Rollback()
			return fmt.Errorf("results: migrating %s from schema %d: %w", r.dir, r.version, err)
		}
		if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", r.version+1)); err != nil {
			tx.Rollback()
			return wrap(err)
		}
		if err := tx.Commit(); err != nil {
			return wrap(err)
		}
		r.version++
	}
	return nil
}

// Run is an open run directory. It is safe for concurrent use.
type Run struct {
	dir     string
	db      *sql.DB
	lock    *os.File // the held lock of a run opened for writing; nil when read-only
	shared  *os.File // the shared lock of a reader that keeps writers out; nil when none
	version int      // the database's schema version
	config  []byte
	started time.Time
}

var _ population.Store = (*Run)(nil)

// dsn is the driver's address of the database file at path, opened for
// reading and writing.
func dsn(path string) string {
	return fileURI(path, "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
}

// fileURI is the SQLite URI ("file:PATH?QUERY") of the file at path, with
// the parameters query. The driver (modernc.org/sqlite) splits its address
// at the first '?' and hands it whole to SQLite, which ends the path at
// '?' or '#' and decodes %HH escapes in it: so every byte of path but the
// unreserved ones (letters, digits, - . _ ~) and '/' is escaped as %HH,
// and a path holding '?', '#', '%', a space or any non-ASCII letter names
// the file it names on disk and no other.
func fileURI(path, query string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteByte('?')
	b.WriteString(query)
	return b.String()
}

// Create makes a new run directory with its database and a copy of the
// resolved config, and opens it locked (see Open). dir must not exist, or be
// an empty directory.
//
// Creation is atomic: the database and config are made in a hidden
// directory beside dir and renamed to dir in one step, which fails if dir
// appeared (or filled) meanwhile. Two processes creating the same dir
// cannot mix their files, and a process killed while creating leaves no
// half-made run at dir (at most a hidden ".NAME.creating-PID-*" directory
// beside it, which nothing reads, and which the next Create in the same
// folder, or RemoveAbandoned, removes once process PID is gone).
func Create(dir string, config []byte, game, algo string, seed uint64, version string) (*Run, error) {
	if entries, err := os.ReadDir(dir); err == nil {
		if len(entries) > 0 {
			return nil, fmt.Errorf("%w: %s", ErrExists, dir)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("results: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("results: creating the run directory: %w", err)
	}
	RemoveAbandoned(parent) // best effort: a failure to remove is no reason not to create
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(dir))+creatingPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, fmt.Errorf("results: creating the run directory: %w", err)
	}
	defer os.RemoveAll(tmp) // after the rename, there is nothing left to remove
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(tmp, ConfigName), config, false); err != nil {
		return nil, err
	}
	if err := createDB(filepath.Join(tmp, DBName), config, game, algo, seed, version); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if errors.Is(err, os.ErrExist) || errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
			return nil, fmt.Errorf("%w: %s", ErrExists, dir)
		}
		return nil, fmt.Errorf("results: creating the run directory %s: %w", dir, err)
	}
	if err := syncDir(parent); err != nil {
		return nil, err
	}
	return Open(dir)
}

// createDB writes a new run database at path and closes it.
func createDB(path string, config []byte, game, algo string, seed uint64, version string) (err error) {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("results: closing %s: %w", path, cerr)
		}
	}()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("results: creating %s: %w", path, err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("results: creating the schema: %w", err)
	}
	if _, err := tx.Exec(`INSERT INTO run (id, game, algo, seed, version, config, status, created) VALUES (1, ?, ?, ?, ?, ?, 'created', ?)`,
		game, algo, int64(seed), version, string(config), now()); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// Open opens an existing run directory for reading and writing, and locks
// it until Close: a second Open of the same run, by this process or
// another, fails with ErrInUse and the other process's id, so two
// processes never play the same run's games. The lock is the operating
// system's (flock on LockName), released when the process ends however it
// ends. Open refuses,
// with an error that says why and changes nothing: a missing directory, a
// directory without a run database, a damaged or truncated database, a
// database from a newer gametune, and a directory it cannot write.
func Open(dir string) (*Run, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("results: no run directory %s", dir)
		}
		return nil, fmt.Errorf("results: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is a file", ErrNotRun, dir)
	}
	path := filepath.Join(dir, DBName)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w: %s has no %s", ErrNotRun, dir, DBName)
	}
	if err := checkWritable(dir); err != nil {
		return nil, err
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	lock, err := lockRun(dir)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("results: %w", err)
	}
	db.SetMaxOpenConns(1)
	r := &Run{dir: dir, db: db, lock: lock}
	if err := r.check(true); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.migrate(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// checkHeader refuses files that are not SQLite databases before the driver
// touches them.
func checkHeader(path string) error {
	f, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 100)
	n, _ := f.Read(head)
	if n < 100 || string(head[:16]) != "SQLite format 3\x00" {
		return fmt.Errorf("results: %s is damaged or truncated (not an SQLite database); it was left as it is", path)
	}
	return nil
}

// checkWritable refuses a directory the run could not write to.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("results: the run directory %s is not writable (%w); a run needs to record its games there", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// check reads the schema version and config, and with checkPages checks
// every page of the database.
func (r *Run) check(checkPages bool) error {
	path := filepath.Join(r.dir, DBName)
	var version int
	defer func() { r.version = version }()
	if err := r.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("results: %s is damaged or not a gametune database: %w", path, err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("results: %s has schema version %d, newer than this gametune's %d: upgrade gametune", path, version, SchemaVersion)
	}
	if version < 1 {
		return fmt.Errorf("%w: %s has no gametune schema", ErrNotRun, path)
	}
	if checkPages {
		var ok string
		if err := r.db.QueryRow("PRAGMA quick_check").Scan(&ok); err != nil || ok != "ok" {
			if err == nil {
				err = errors.New(ok)
			}
			return fmt.Errorf("results: %s is damaged: %w", path, err)
		}
	}
	var config string
	if err := r.db.QueryRow("SELECT config FROM run WHERE id = 1").Scan(&config); err != nil {
		return fmt.Errorf("results: %s holds no run record: %w", path, err)
	}
	r.config = []byte(config)
	return nil
}

// Dir is the run directory.
func (r *Run) Dir() string { return r.dir }

// Config is the run's resolved config (YAML).
func (r *Run) Config() []byte { return r.config }

// Close closes the database and releases the run's lock.
func (r *Run) Close() error {
	err := r.db.Close()
	if r.lock != nil {
		if lerr := unlockRun(r.lock); err == nil {
			err = lerr
		}
		r.lock = nil
	}
	if r.shared != nil {
		r.shared.Close()
		r.shared = nil
	}
	return err
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// Status is where a run stands, as recorded in its store.
type Status string

// The statuses of a run.
const (
	StatusCreated     Status = "created"     // made, no game played yet
	StatusRunning     Status = "running"     // a process works on it (or crashed while it did)
	StatusInterrupted Status = "interrupted" // stopped by a signal; resume continues it
	StatusFailed      Status = "failed"      // stopped by an error; resume continues it
	StatusDone        Status = "done"        // finished
)

// SetStatus records the run's status: StatusRunning (also stamps the start
// of this session), StatusInterrupted, StatusFailed or StatusDone (also
// stamp the end and add this session's running time).
func (r *Run) SetStatus(status Status) error {
	switch status {
	case StatusRunning:
		r.started = time.Now()
		_, err := r.db.Exec(`UPDATE run SET status = ?, started = COALESCE(started, ?), ended = NULL WHERE id = 1`, status, now())
		return wrap(err)
	case StatusInterrupted, StatusFailed, StatusDone:
		secs := 0.0
		if !r.started.IsZero() {
			secs = time.Since(r.started).Seconds()
			r.started = time.Time{}
		}
		_, err := r.db.Exec(`UPDATE run SET status = ?, ended = ?, seconds = seconds + ? WHERE id = 1`, status, now(), secs)
		return wrap(err)
	}
	return fmt.Errorf("results: unknown status %q", status)
}

// RecordTime adds the running time since the session began (or since the
// last RecordTime) to the run's seconds, so that a run's time is known
// while it runs (and survives a crash up to the last call). It does
// nothing outside a running session.
func (r *Run) RecordTime() error {
	if r.started.IsZero() {
		return nil
	}
	t := time.Now()
	secs := t.Sub(r.started).Seconds()
	r.started = t
	_, err := r.db.Exec(`UPDATE run SET seconds = seconds + ? WHERE id = 1`, secs)
	return wrap(err)
}

func wrap(err error) error {
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// Game returns the recorded game at key.
func (r *Run) Game(key population.GameKey) (population.GameResult, bool, error) {
	row := r.db.QueryRow(`SELECT first, second, opening, outcome, reason, plies, moves, nodes, seconds FROM games WHERE stage = ? AND generation = ? AND idx = ?`,
		key.Stage, key.Generation, key.Index)
	g := population.GameResult{Key: key}
	var outcome, reason, moves string
	var secs float64
	err := row.Scan(&g.First, &g.Second, &g.Record.Opening, &outcome, &reason, &g.Record.Plies, &moves, &g.Record.Nodes, &secs)
	if errors.Is(err, sql.ErrNoRows) {
		return g, false, nil
	}
	if err != nil {
		return g, false, wrap(err)
	}
	g.Record.Outcome = parseOutcome(outcome)
	g.Record.Reason = tournament.Reason(reason)
	if moves != "" {
		g.Record.Moves = strings.Split(moves, " ")
	}
	g.Record.Duration = time.Duration(secs * float64(time.Second))
	return g, true, nil
}

func parseOutcome(s string) games.Outcome {
	for _, o := range []games.Outcome{games.FirstWins, games.SecondWins, games.Draw} {
		if o.String() == s {
			return o
		}
	}
	return games.Ongoing
}

// RecordGame commits one finished game.
func (r *Run) RecordGame(g population.GameResult) error {
	rec := g.Record
	_, err := r.db.Exec(`INSERT OR REPLACE INTO games (stage, generation, idx, first, second, opening, outcome, reason, plies, moves, nodes, seconds)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.Key.Stage, g.Key.Generation, g.Key.Index, g.First, g.Second, rec.Opening, rec.Outcome.String(), string(rec.Reason),
		rec.Plies, strings.Join(rec.Moves, " "), rec.Nodes, rec.Duration.Seconds())
	return wrap(err)
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// floatText stores a float that may be infinite.
func floatText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmt.Sprint(f)
}

func parseFloatText(s string) float64 {
	switch s {
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	var f float64
	fmt.Sscan(s, &f)
	return f
}

// RecordGeneration commits a closed generation with its genomes, yardstick
// and bracket, replacing an earlier record of the same generation.
func (r *Run) RecordGeneration(g population.Generation) error {
	tx, err := r.db.Begin()
	if err != nil {
		return wrap(err)
	}
	defer tx.Rollback()
	for _, table := range []string{"genomes", "matches"} {
		if _, err := tx.Exec("DELETE FROM "+table+" WHERE generation = ?", g.Index); err != nil {
			return wrap(err)
		}
	}
	for _, table := range []string{"yardstick", "yardstick_opponents"} {
		if _, err := tx.Exec("DELETE FROM "+table+" WHERE generation = ?", g.Index); err != nil {
			return wrap(err)
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO generations (idx, mean, std, diversity, best, best_fitness, mean_fitness, worst_fitness, distance, converged, spent, stop)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.Index, jsonText(g.Mean), jsonText(g.Std), g.Diversity, g.Best, g.BestFitness, g.MeanFitness, g.WorstFitness, g.Distance, g.Converged, g.Spent, g.Stop); err != nil {
		return wrap(err)
	}
	for i, x := range g.Genomes {
		parents := x.Parents
		if parents == nil {
			parents = []int{}
		}
		if _, err := tx.Exec(`INSERT INTO genomes (generation, pos, id, parents, weights, fitness, wins, draws, losses, prior_wins, prior_draws, prior_losses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Index, i, x.ID, jsonText(parents), jsonText(x.Weights), x.Fitness, x.Wins, x.Draws, x.Losses, x.Prior.Wins, x.Prior.Draws, x.Prior.Losses); err != nil {
			return wrap(err)
		}
	}
	for i, m := range g.Matches {
		if _, err := tx.Exec(`INSERT INTO matches (generation, pos, round, a, b, score_a, score_b, games, winner, tie_break) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Index, i, m.Round, m.A, m.B, m.ScoreA, m.ScoreB, m.Games, m.Winner, m.TieBreak); err != nil {
			return wrap(err)
		}
	}
	if y := g.Yardstick; y != nil {
		if _, err := tx.Exec(`INSERT INTO yardstick (generation, genome, wins, draws, losses, score, elo, elo_low, elo_high, prev, prev_wins, prev_draws, prev_losses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Index, y.Genome, y.Wins, y.Draws, y.Losses, y.Score, floatText(y.Elo), floatText(y.EloLow), floatText(y.EloHigh),
			y.Previous, y.VsPrevious.Wins, y.VsPrevious.Draws, y.VsPrevious.Losses); err != nil {
			return wrap(err)
		}
		for o, r := range y.VsOpponents {
			if _, err := tx.Exec(`INSERT INTO yardstick_opponents (generation, opponent, wins, draws, losses) VALUES (?, ?, ?, ?, ?)`,
				g.Index, o, r.Wins, r.Draws, r.Losses); err != nil {
				return wrap(err)
			}
		}
	}
	return wrap(tx.Commit())
}

// RecordLadder records a run's ladder, replacing any earlier one.
func (r *Run) RecordLadder(l population.Ladder) error {
	tx, err := r.db.Begin()
	if err != nil {
		return wrap(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("DELETE FROM ladder"); err != nil {
		return wrap(err)
	}
	for i, e := range l.Entries {
		if _, err := tx.Exec(`INSERT INTO ladder (pos, label, genome, generation, spent, weights, wins, draws, losses, elo, elo_low, elo_high, pairs, draw_elo, reference, best, best_low, best_high)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			i, e.Label, e.Genome, e.Generation, e.Spent, jsonText(e.Weights), e.Wins, e.Draws, e.Losses,
			floatText(e.Elo), floatText(e.Low), floatText(e.High), l.Pairs, l.DrawElo, l.Reference, l.Best, floatText(l.BestLow), floatText(l.BestHigh)); err != nil {
			return wrap(err)
		}
	}
	return wrap(tx.Commit())
}

// SetConfig replaces the run's recorded config (a resume forced to go on
// with another config) and its config.yaml.
func (r *Run) SetConfig(config []byte) error {
	if _, err := r.db.Exec(`UPDATE run SET config = ? WHERE id = 1`, string(config)); err != nil {
		return wrap(err)
	}
	r.config = config
	return WriteFileAtomic(filepath.Join(r.dir, ConfigName), config, true)
}
