package web

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
)

// Store is what the dashboard reads from one run. *results.Run opened with
// results.OpenReadOnly satisfies it; tests may give their own.
type Store interface {
	Info() (results.Info, error)
	Config() []byte
	Generations() ([]population.Generation, error)
	LastGames(n int) ([]population.GameResult, error)
	Game(key population.GameKey) (population.GameResult, bool, error)
	Close() error
}

// Opener opens one run directory for reading.
type Opener func(dir string) (Store, error)

// OpenReadOnly is the default Opener: results.OpenReadOnly.
func OpenReadOnly(dir string) (Store, error) {
	r, err := results.OpenReadOnly(dir)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// catalog is the runs of one folder, each kept open and summarised.
type catalog struct {
	root string
	open Opener

	mu   sync.Mutex
	runs map[string]*entry // by id
}

// stamp is what a run's files looked like when last read: any change
// (a game committed to the WAL, a checkpoint, a new file) means reread.
type stamp struct {
	db, wal       os.FileInfo
	dbSize, walSz int64
	dbMod, walMod time.Time
}

func stampOf(dir string) (stamp, error) {
	db, err := os.Stat(filepath.Join(dir, results.DBName))
	if err != nil {
		return stamp{}, err
	}
	s := stamp{db: db, dbSize: db.Size(), dbMod: db.ModTime()}
	if wal, err := os.Stat(filepath.Join(dir, results.DBName+"-wal")); err == nil {
		s.wal, s.walSz, s.walMod = wal, wal.Size(), wal.ModTime()
	}
	return s, nil
}

func (s stamp) same(t stamp) bool {
	return s.db != nil && t.db != nil && os.SameFile(s.db, t.db) &&
		s.dbSize == t.dbSize && s.dbMod.Equal(t.dbMod) && s.walSz == t.walSz && s.walMod.Equal(t.walMod) &&
		(s.wal == nil) == (t.wal == nil)
}

// entry is one run directory: its open store, its last summary and the
// reports.Run of its last generation count.
type entry struct {
	id, dir string

	mu     sync.Mutex
	stamp  stamp
	store  Store
	damage error // why the run cannot be read; nil when it can
	info   results.Info
	run    *reports.Run // immutable snapshot; nil until read or when damaged
	sum    Summary
	cache  map[string][]byte // rendered plots and page of run, by name
	seen   observation       // the first state this server saw, for rates
}

// observation is a run's counts at a moment.
type observation struct {
	at          time.Time
	games, gens int
}

// scan finds the run directories below root (and root itself): hidden
// directories (runs being created) are skipped, as results.List does.
func (c *catalog) scan() ([]*entry, error) {
	var dirs []string
	if _, err := os.Stat(filepath.Join(c.root, results.DBName)); err == nil {
		dirs = append(dirs, c.root)
	}
	list, err := os.ReadDir(c.root)
	if err != nil {
		return nil, fmt.Errorf("web: reading the runs folder: %w", err)
	}
	for _, e := range list {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.root, e.Name(), results.DBName)); err == nil {
			dirs = append(dirs, filepath.Join(c.root, e.Name()))
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	found := map[string]bool{}
	var out []*entry
	for _, d := range dirs {
		id := filepath.Base(filepath.Clean(d))
		if found[id] {
			continue // root is a run named like one of its subdirectories
		}
		found[id] = true
		e, ok := c.runs[id]
		if !ok {
			e = &entry{id: id, dir: d}
			c.runs[id] = e
		}
		out = append(out, e)
	}
	for id, e := range c.runs {
		if !found[id] {
			e.close()
			delete(c.runs, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// find returns the run of id, or nil.
func (c *catalog) find(id string) *entry {
	c.mu.Lock()
	e := c.runs[id]
	c.mu.Unlock()
	if e != nil {
		return e
	}
	runs, err := c.scan()
	if err != nil {
		return nil
	}
	for _, e := range runs {
		if e.id == id {
			return e
		}
	}
	return nil
}

func (c *catalog) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range c.runs {
		e.close()
		delete(c.runs, id)
	}
}

func (e *entry) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store != nil {
		e.store.Close()
		e.store = nil
	}
	e.stamp = stamp{}
}

// snapshot is an entry's state at one moment.
type snapshot struct {
	sum Summary
	run *reports.Run // nil when damaged
}

// refresh rereads the run if its files changed and returns its state. The
// work is a stat of two files when nothing changed; Info when games were
// added; Generations when a generation closed or the status changed.
func (e *entry) refresh(open Opener, now time.Time) snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	st, err := stampOf(e.dir)
	if err != nil {
		e.fail(fmt.Errorf("web: %w", err))
		return e.snapshotLocked()
	}
	if e.stamp.same(st) {
		return e.snapshotLocked()
	}
	if e.store != nil && !os.SameFile(e.stamp.db, st.db) { // the run was replaced
		e.store.Close()
		e.store, e.run, e.seen = nil, nil, observation{}
	}
	e.stamp = st
	if e.store == nil {
		s, err := open(e.dir)
		if err != nil {
			e.fail(err)
			return e.snapshotLocked()
		}
		e.store, e.damage = s, nil
	}
	info, err := e.store.Info()
	if err != nil {
		e.fail(err)
		return e.snapshotLocked()
	}
	if e.run == nil || info.Generations != e.info.Generations || info.Status != e.info.Status {
		hist, err := e.store.Generations()
		if err != nil {
			e.fail(err)
			return e.snapshotLocked()
		}
		cfg, err := population.ParseConfig(e.store.Config())
		if err != nil {
			e.fail(fmt.Errorf("web: the run's config: %w", err))
			return e.snapshotLocked()
		}
		run, err := reports.NewRun(e.id, cfg, hist, info)
		if err != nil {
			e.fail(err)
			return e.snapshotLocked()
		}
		if len(hist) > 0 {
			if _, _, err := results.Best(hist, -1); err != nil {
				e.fail(fmt.Errorf("%w: %v", results.ErrDamaged, err))
				return e.snapshotLocked()
			}
		}
		e.run, e.cache = run, map[string][]byte{}
	} else {
		run := *e.run // the same generations, newer counts
		run.Info = info
		e.run = &run
	}
	e.info, e.damage = info, nil
	if e.seen.at.IsZero() {
		e.seen = observation{now, info.Games, info.Generations}
	}
	e.sum = summarize(e.id, e.run, e.seen, now)
	return e.snapshotLocked()
}

// fail marks the run damaged (its stamp stays, so it is retried only when
// its files change) and drops what was read.
func (e *entry) fail(err error) {
	if e.store != nil {
		e.store.Close()
		e.store = nil
	}
	e.damage, e.run, e.cache = err, nil, nil
	nan := Float(math.NaN())
	// The reason names the run by its id, not by where the server keeps it.
	reason := strings.ReplaceAll(err.Error(), e.dir, e.id)
	e.sum = Summary{ID: e.id, Damaged: reason, Status: "damaged", GamesPerSecond: nan, Elo: nan, EloLow: nan, EloHigh: nan,
		BestGeneration: -1, BestGenome: -1, EloGeneration: -1}
}

func (e *entry) snapshotLocked() snapshot { return snapshot{e.sum, e.run} }

// cached returns the bytes rendered under key for run, rendering them once
// per snapshot of the run (a generation count and status).
func (e *entry) cached(run *reports.Run, key string, render func() ([]byte, error)) ([]byte, error) {
	e.mu.Lock()
	if e.run != nil && e.run.Info.Generations == run.Info.Generations && e.run.Info.Status == run.Info.Status {
		if b, ok := e.cache[key]; ok {
			e.mu.Unlock()
			return b, nil
		}
	}
	e.mu.Unlock()
	b, err := render()
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.run != nil && e.run.Info.Generations == run.Info.Generations && e.run.Info.Status == run.Info.Status && e.cache != nil {
		e.cache[key] = b
	}
	e.mu.Unlock()
	return b, nil
}

// Float is a number that may be infinite or missing (NaN): JSON null then,
// as JSON has no infinities.
type Float float64

// MarshalJSON writes null for NaN and the infinities.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return []byte(fmt.Sprint(x + 0)), nil // +0: no "-0"
}

// Summary is one line of the runs list.
type Summary struct {
	ID      string `json:"id"`
	Damaged string `json:"damaged,omitempty"` // why the run cannot be read
	Game    string `json:"game,omitempty"`
	Eval    string `json:"evaluator,omitempty"`
	Algo    string `json:"algo,omitempty"`
	Status  string `json:"status"`
	Stage   string `json:"stage,omitempty"` // "generation" or "round"
	Done    int    `json:"done"`            // generations (rounds) closed
	Planned int    `json:"planned"`
	Games   int    `json:"games"`
	// GamesPerSecond is measured by this server while it watches a running
	// run, and over the run's recorded time otherwise.
	GamesPerSecond Float `json:"games_per_second"`
	// The best genome (results.Best: the last generation's) and its
	// yardstick Elo against the default weights, with its 95% interval,
	// from the last yardstick match; null when none was played.
	BestGeneration int       `json:"best_generation"`
	BestGenome     int       `json:"best_genome"`
	Elo            Float     `json:"elo"`
	EloLow         Float     `json:"elo_low"`
	EloHigh        Float     `json:"elo_high"`
	EloGeneration  int       `json:"elo_generation"`
	Started        time.Time `json:"started,omitzero"`
	Ended          time.Time `json:"ended,omitzero"`
	ETA            time.Time `json:"eta,omitzero"` // running runs: when the last generation should close
	Seconds        float64   `json:"seconds"`      // recorded running time
}

func summarize(id string, r *reports.Run, seen observation, now time.Time) Summary {
	in := r.Info
	s := Summary{
		ID: id, Game: r.Config.Game, Eval: r.Evaluator.Name, Algo: string(r.Config.Algo), Status: string(in.Status),
		Stage: "generation", Done: len(r.Generations), Planned: r.Config.Generations, Games: in.Games,
		Started: in.Started, Ended: in.Ended, Seconds: in.Seconds,
		Elo: Float(math.NaN()), EloLow: Float(math.NaN()), EloHigh: Float(math.NaN()), GamesPerSecond: Float(math.NaN()),
		BestGeneration: -1, BestGenome: -1, EloGeneration: -1,
	}
	if r.Knockout() {
		s.Stage, s.Planned = "round", r.Config.Rounds
	}
	if best, gen, err := results.Best(r.Generations, -1); err == nil {
		s.BestGeneration, s.BestGenome = gen, best.ID
	}
	for _, g := range r.Generations {
		if y := g.Yardstick; y != nil {
			s.Elo, s.EloLow, s.EloHigh, s.EloGeneration = Float(y.Elo), Float(y.EloLow), Float(y.EloHigh), g.Index
		}
	}
	// Rates: what this server saw the run do, when it saw a generation
	// close; else the run's own record (for a running run that was never
	// interrupted, its time since it started).
	elapsed := in.Seconds
	if in.Status == "running" && elapsed == 0 && !in.Started.IsZero() {
		elapsed = now.Sub(in.Started).Seconds()
	}
	perGen := math.NaN()
	if elapsed > 0 && s.Done > 0 {
		perGen = elapsed / float64(s.Done)
	}
	if elapsed > 0 {
		s.GamesPerSecond = Float(float64(in.Games) / elapsed)
	}
	if in.Status == "running" && s.Done > seen.gens {
		dt := now.Sub(seen.at).Seconds()
		perGen = dt / float64(s.Done-seen.gens)
		s.GamesPerSecond = Float(float64(in.Games-seen.games) / dt)
	}
	if in.Status == "running" && !math.IsNaN(perGen) && s.Planned > s.Done {
		s.ETA = now.UTC().Add(time.Duration(perGen * float64(s.Planned-s.Done) * float64(time.Second))).Truncate(time.Second)
	}
	return s
}

// errNoRun is returned for an id that is not a run of the folder.
var errNoRun = errors.New("web: no such run")
