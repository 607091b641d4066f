package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gametune/gametune/files"
)

// A comparison of tuners (tune compare) is a directory holding its record
// (CompareName, written when it starts and when it ends), the run
// directory of each tuner (DIR/<algo>) and the run of the shared ladder
// that rates their champions (DIR/ladder), with the table, plot and page
// drawn from them.
const (
	CompareName   = "compare.json"
	CompareLadder = "ladder"
)

// maxCompareRecord bounds the record of a comparison read: a few KiB are
// written.
const maxCompareRecord = 1 << 20

// StatusPending is the status of a comparison's tuner that has not
// started: its run directory does not exist yet.
const StatusPending Status = "pending"

// ErrNotComparison is returned for a directory that holds no comparison.
var ErrNotComparison = errors.New("results: not a comparison of tuners (tune compare)")

// CompareRecord is a comparison's record (DIR/compare.json): what it
// compares, on which settings, and where it stands.
type CompareRecord struct {
	Game        string   `json:"game"`
	Evaluator   string   `json:"evaluator,omitempty"` // "": the game's first
	Algos       []string `json:"algos"`               // the tuners, in order
	BudgetGames int      `json:"budget_games"`        // the games budget of each tuner
	Seed        uint64   `json:"seed"`
	Champions   int      `json:"champions,omitempty"` // champions of each tuner on the ladder
	Pairs       int      `json:"pairs,omitempty"`     // pairs per pairing of the ladder (0: chosen from the games spent)
	Config      string   `json:"config,omitempty"`    // the settings every tuner shares, as YAML
	Version     string   `json:"version,omitempty"`
	// Status is StatusRunning while tune compare works on it, then
	// StatusDone, StatusFailed or StatusInterrupted. Read back
	// (ReadCompareRecord), a record left running by a process that is
	// gone reads StatusInterrupted.
	Status  Status    `json:"status"`
	Created time.Time `json:"created"`
	Ended   time.Time `json:"ended,omitzero"`
}

// check says what is wrong with a record, and what is accepted.
func (r CompareRecord) check() error {
	switch {
	case r.Game == "":
		return errors.New("no game (want the name of the game the tuners tune)")
	case len(r.Algos) == 0:
		return errors.New(`no algos (want the tuners compared, e.g. ["genetic", "spsa"])`)
	case r.BudgetGames <= 0:
		return fmt.Errorf("budget_games %d (want the positive games budget of each tuner)", r.BudgetGames)
	}
	for i, a := range r.Algos {
		if a == "" || a == CompareLadder || strings.ContainsAny(a, `/\:`) || strings.HasPrefix(a, ".") {
			return fmt.Errorf("algo %q (want a tuner's name: genetic, knockout, spsa, cmaes, texel, bayes)", a)
		}
		if slices.Contains(r.Algos[:i], a) {
			return fmt.Errorf("algo %q twice (each tuner once)", a)
		}
	}
	switch r.Status {
	case StatusRunning, StatusDone, StatusFailed, StatusInterrupted:
		return nil
	}
	return fmt.Errorf("status %q (want running, done, failed or interrupted)", r.Status)
}

// Comparison is a comparison directory that this process writes (tune
// compare): it holds the directory's lock (as a run's writer does) from
// CreateComparison to Close, so that readers tell a running comparison
// from one whose process is gone.
type Comparison struct {
	dir  string
	rec  CompareRecord
	lock *os.File
}

// CreateComparison makes the directory dir of a comparison (its parent
// too; an error wrapping fs.ErrExist when dir exists), takes its lock and
// writes its record rec, with status StatusRunning and created now.
func CreateComparison(dir string, rec CompareRecord) (*Comparison, error) {
	rec.Status, rec.Created = StatusRunning, time.Now().UTC().Truncate(time.Second)
	if err := rec.check(); err != nil {
		return nil, fmt.Errorf("results: the comparison's record: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	lock, err := lockRun(dir)
	if err != nil {
		return nil, err
	}
	c := &Comparison{dir: dir, rec: rec, lock: lock}
	if err := c.write(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Dir is the comparison's directory.
func (c *Comparison) Dir() string { return c.dir }

// End records how the comparison ended: StatusDone, StatusFailed or
// StatusInterrupted, at the time of the call.
func (c *Comparison) End(status Status) error {
	if status != StatusDone && status != StatusFailed && status != StatusInterrupted {
		return fmt.Errorf("results: a comparison ends done, failed or interrupted, not %q", status)
	}
	c.rec.Status, c.rec.Ended = status, time.Now().UTC().Truncate(time.Second)
	return c.write()
}

// Close releases the comparison's lock.
func (c *Comparison) Close() error {
	if c.lock == nil {
		return nil
	}
	err := unlockRun(c.lock)
	c.lock = nil
	return err
}

func (c *Comparison) write() error {
	data, err := json.MarshalIndent(c.rec, "", "  ")
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return WriteFileAtomic(filepath.Join(c.dir, CompareName), append(data, '\n'), true)
}

// IsComparison reports whether dir holds a comparison: its record, or the
// files of a comparison made before records were written (no run of its
// own, its table compare.txt and its ladder's run).
func IsComparison(dir string) bool {
	if exists(filepath.Join(dir, CompareName)) {
		return true
	}
	return !exists(filepath.Join(dir, DBName)) && exists(filepath.Join(dir, "compare.txt")) &&
		exists(filepath.Join(dir, CompareLadder, DBName))
}

// ReadCompareRecord reads the record of the comparison in dir. A record
// still running whose writer is gone (no process holds the directory's
// lock) reads StatusInterrupted. A comparison made before records were
// written is read from its ladder's run (its game, seed and settings; its
// tuners from the labels of the champions rated), done. An error names
// the file and what is wrong with it; one wrapping ErrNotComparison when
// dir holds no comparison.
func ReadCompareRecord(dir string) (CompareRecord, error) {
	path := filepath.Join(dir, CompareName)
	data, err := files.ReadLimited(path, maxCompareRecord)
	if errors.Is(err, os.ErrNotExist) {
		if IsComparison(dir) {
			return legacyRecord(dir)
		}
		return CompareRecord{}, fmt.Errorf("%w: %s has no %s", ErrNotComparison, dir, CompareName)
	}
	if err != nil {
		return CompareRecord{}, fmt.Errorf("results: %w", err)
	}
	var rec CompareRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return CompareRecord{}, fmt.Errorf("%w: %s: %v (want the JSON record tune compare writes)", ErrDamaged, path, err)
	}
	if err := rec.check(); err != nil {
		return CompareRecord{}, fmt.Errorf("%w: %s: %v", ErrDamaged, path, err)
	}
	if rec.Status == StatusRunning && !writerWorking(dir) {
		rec.Status = StatusInterrupted // its process died without recording how it ended
	}
	return rec, nil
}

// legacyRecord makes the record of a comparison made before records were
// written, from its ladder's run.
func legacyRecord(dir string) (CompareRecord, error) {
	r, err := OpenReadOnly(filepath.Join(dir, CompareLadder))
	if err != nil {
		return CompareRecord{}, err
	}
	defer r.Close()
	info, err := r.Info()
	if err != nil {
		return CompareRecord{}, err
	}
	cfg, err := r.ReadConfig()
	if err != nil {
		return CompareRecord{}, err
	}
	l, err := r.Ladder()
	if err != nil {
		return CompareRecord{}, err
	}
	rec := CompareRecord{Game: info.Game, Evaluator: cfg.Evaluator, BudgetGames: cfg.BudgetGames, Seed: info.Seed,
		Config: string(cfg.Marshal()), Version: info.Version, Status: StatusDone, Created: info.Created, Ended: info.Created}
	if l != nil {
		for _, e := range l.Entries {
			if algo, _, ok := strings.Cut(e.Label, ":"); ok && !slices.Contains(rec.Algos, algo) {
				rec.Algos = append(rec.Algos, algo)
			}
		}
	}
	if err := rec.check(); err != nil {
		return CompareRecord{}, fmt.Errorf("%w: the comparison in %s (made before compare.json): %v", ErrDamaged, dir, err)
	}
	return rec, nil
}
