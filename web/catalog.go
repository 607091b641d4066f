package web

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/reports"
	"github.com/gametune/gametune/results"
	"github.com/gametune/gametune/tournament/stats"
)

// Store is what the dashboard reads from one run, opened for one read and
// closed after it. *results.Run opened with results.OpenReadOnly satisfies
// it; tests may give their own.
type Store interface {
	Info() (results.Info, error)
	Config() []byte
	// Champions is Generations with only the yardstick's genome of each
	// generation: enough for the runs list to name the run's best.
	Champions() ([]population.Generation, error)
	Generations() ([]population.Generation, error)
	Ladder() (*population.Ladder, error)
	// Verification is the run's verification at a deeper search; nil for
	// none.
	Verification() (*population.Verification, error)
	LastGames(n int) ([]population.GameResult, error)
	Game(key population.GameKey) (population.GameResult, bool, error)
	Close() error
}

// Opener opens one run directory for reading.
type Opener func(dir string) (Store, error)

// OpenReadOnly is the default Opener: results.OpenReadOnlyUnchecked, as
// checking every page of every run would make the first list of a folder
// cost a read of all its runs' games.
func OpenReadOnly(dir string) (Store, error) {
	r, err := results.OpenReadOnlyUnchecked(dir)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// catalog is the runs of one folder, each summarised. No run's store is
// kept open between requests: a read opens it, reads and closes it.
type catalog struct {
	root string
	open Opener

	mu   sync.Mutex
	runs map[string]*entry // by id
	// comparisons are the comparisons of tuners (tune compare) found by
	// the last scan, by id; their tuners' runs are in runs.
	comparisons map[string]*comparison
	// wholes are the runs that keep their whole run and rendered pages
	// (entry.full, entry.cache), the most recently shown last: at most
	// maxWholes, so that memory does not grow with the runs looked at.
	wholes []*entry
}

// maxWholes is how many runs keep their whole run and rendered pages.
const maxWholes = 8

// settle is how long after its files last changed a run with a WAL file
// but no readable WAL index is read again at every look, though they did
// not change since the last read: a writer appends a commit to the WAL
// file before the commit becomes visible to readers, so a read between
// the two sees the old data under the new files' stamp. Once the files
// are older than settle at the time of a read, that read saw every commit
// they hold.
const settle = 30 * time.Second

// indexHeader is the size of the WAL index's header at the start of the
// run.db-shm file (SQLite's WalIndexHdr, https://sqlite.org/walformat.html):
// a writer publishes each commit by rewriting it (its change counter, last
// frame and checksums), which makes the commit visible to readers.
const indexHeader = 48

// stamp is what a run's files looked like: a run is read again only when
// they change. With the WAL index's header in the stamp, a commit counts
// as a change when it is published, not when its frames reach the WAL
// file: a stamp taken before a read matches the commits that read sees.
type stamp struct {
	db, wal       os.FileInfo
	dbSize, walSz int64
	dbMod, walMod time.Time
	index         string // the WAL index's header; "" when none was read
}

func stampOf(dir string) (stamp, error) {
	db, err := os.Stat(filepath.Join(dir, results.DBName))
	if err != nil {
		return stamp{}, err
	}
	s := stamp{db: db, dbSize: db.Size(), dbMod: db.ModTime()}
	if wal, err := os.Stat(filepath.Join(dir, results.DBName+"-wal")); err == nil {
		s.wal, s.walSz, s.walMod = wal, wal.Size(), wal.ModTime()
		s.index = readIndexHeader(filepath.Join(dir, results.DBName+"-shm"))
	}
	return s, nil
}

// readIndexHeader reads the WAL index's header from the -shm file at path
// (opened, read and closed): "" when there is none.
func readIndexHeader(path string) string {
	f, err := files.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b [indexHeader]byte
	if n, _ := f.ReadAt(b[:], 0); n < indexHeader {
		return ""
	}
	return string(b[:])
}

// latest is when the files last changed.
func (s stamp) latest() time.Time {
	if s.walMod.After(s.dbMod) {
		return s.walMod
	}
	return s.dbMod
}

// settled reports whether a read made at readAt, after the files were
// stamped s, saw every commit they hold: when there is no WAL (no writer,
// every commit in the database), when the stamp holds the WAL index's
// header (it names the commits published), or when the files were older
// than settle at readAt.
func (s stamp) settled(readAt time.Time) bool {
	return s.wal == nil || s.index != "" || readAt.Sub(s.latest()) > settle
}

func (s stamp) same(t stamp) bool {
	return s.db != nil && t.db != nil && os.SameFile(s.db, t.db) &&
		s.dbSize == t.dbSize && s.dbMod.Equal(t.dbMod) && s.walSz == t.walSz && s.walMod.Equal(t.walMod) &&
		(s.wal == nil) == (t.wal == nil) && s.index == t.index
}

// view is what a run's pages and plots show: they are read and rendered
// again only when it changes (a generation closed, the status changed, a
// ladder was played); the counts of games change more often and are
// updated apart.
type view struct {
	generations int
	status      results.Status
	ladder      string // the ladder, printed
	verified    string // the verification, printed
}

// entry is one run directory and what was read of it.
type entry struct {
	id, dir string
	compare string // the id of the comparison whose tuner's run it is; "" for none

	mu     sync.Mutex
	read   stamp              // the files just before the last read
	readAt time.Time          // when
	config *population.Config // the run's config, as of the last read
	damage error              // why the run cannot be read; nil when it can
	failed stamp              // the files when the run was found damaged
	info   results.Info
	view   view
	// list is the run as the runs list needs it (its champions only, its
	// ladder and best), full the whole run for its page (nil until asked;
	// of fullView). Both are immutable snapshots, nil when damaged.
	list, full *reports.Run
	fullView   view
	sum        Summary
	cache      map[string][]byte // rendered plots and page of view
	seen       observation       // the first state this server saw, for rates
}

// observation is a run's counts at a moment.
type observation struct {
	at          time.Time
	games, gens int
}

// scan finds the run directories below root (and root itself): hidden
// directories (runs being created) are skipped, as results.List does; and
// the comparisons of tuners there, with their tuners' runs (findRuns).
func (c *catalog) scan() ([]*entry, error) {
	runs, comparisons, err := findRuns(c.root)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keepComparisons(comparisons)
	found := map[string]bool{}
	var out []*entry
	for _, f := range runs {
		id := f.id
		if found[id] {
			continue // root is a run named like one of its subdirectories
		}
		found[id] = true
		e, ok := c.runs[id]
		if !ok {
			e = &entry{id: id, dir: f.dir, compare: f.compare}
			c.runs[id] = e
		}
		out = append(out, e)
	}
	for id, e := range c.runs {
		if !found[id] {
			e.close()
			delete(c.runs, id)
			c.wholes = slices.DeleteFunc(c.wholes, func(x *entry) bool { return x == e })
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
	c.wholes = nil
}

// keepWhole notes that e's whole run was just shown, and drops the whole
// runs of those shown longest ago beyond maxWholes. e's lock must not be
// held.
func (c *catalog) keepWhole(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wholes = append(slices.DeleteFunc(c.wholes, func(x *entry) bool { return x == e }), e)
	for len(c.wholes) > maxWholes {
		old := c.wholes[0]
		c.wholes = c.wholes[1:]
		old.mu.Lock()
		old.full, old.cache = nil, nil
		old.mu.Unlock()
	}
}

func (e *entry) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.drop()
}

// drop forgets what was read of the run.
func (e *entry) drop() {
	e.read, e.readAt, e.config, e.list, e.full, e.cache = stamp{}, time.Time{}, nil, nil, nil, nil
}

// withStore opens the run's store, calls read with it and closes it.
func (e *entry) withStore(open Opener, read func(Store) error) error {
	s, err := open(e.dir)
	if err != nil {
		return err
	}
	err = read(s)
	s.Close()
	return err
}

// snapshot is an entry's state at one moment.
type snapshot struct {
	sum  Summary
	run  *reports.Run // the run as listed: its champions only; nil when damaged
	view view
}

// refresh rereads the run if it changed and returns its state. When
// nothing changed, the work is a stat of its files and a read of the WAL
// index's header, and no file stays open; when they changed (stamp), the
// run's store is opened, its Info and ladder read, and when a generation
// closed or the status changed also the champions of each generation
// (Champions), never every genome; then the store is closed.
func (e *entry) refresh(open Opener, now time.Time) snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.refreshLocked(open, now); err != nil {
		e.fail(err)
	}
	return e.snapshotLocked()
}

func (e *entry) refreshLocked(open Opener, now time.Time) error {
	at := time.Now()
	st, err := stampOf(e.dir)
	if err != nil {
		e.drop()
		return fmt.Errorf("web: %w", err)
	}
	if e.list != nil && !os.SameFile(e.read.db, st.db) { // the run was replaced
		e.drop()
		e.seen = observation{}
	}
	if e.list != nil && st.same(e.read) && st.settled(e.readAt) {
		return nil // no change since a read that saw every commit
	}
	if e.damage != nil && st.same(e.failed) {
		return e.damage // as damaged as it was
	}
	return e.withStore(open, func(s Store) error {
		cfg, err := population.ParseConfig(s.Config())
		if err != nil {
			return fmt.Errorf("web: the run's config: %w", err)
		}
		info, err := s.Info()
		if err != nil {
			return err
		}
		ladder, err := s.Ladder()
		if err != nil {
			return err
		}
		ver, err := s.Verification()
		if err != nil {
			return err
		}
		v := view{generations: info.Generations, status: info.Status}
		if ladder != nil {
			v.ladder = fmt.Sprint(*ladder)
		}
		if ver != nil {
			v.verified = fmt.Sprint(*ver)
		}
		run, err := e.listRun(s, &cfg, info, ladder, v)
		if err != nil {
			return err
		}
		run.Verification = ver
		e.list, e.info, e.view, e.config, e.damage = run, info, v, &cfg, nil
		e.read, e.readAt = st, at
		if e.seen.at.IsZero() {
			e.seen = observation{now, info.Games, info.Generations}
		}
		e.sum = summarize(e.id, e.list, e.seen, now)
		return nil
	})
}

// listRun returns the run as the list shows it, with info and ladder read
// from s: its champions are read again only when a generation closed, the
// status or the config changed (v differs from the view of the list).
func (e *entry) listRun(s Store, cfg *population.Config, info results.Info, ladder *population.Ladder, v view) (*reports.Run, error) {
	if e.list != nil && v.generations == e.view.generations && v.status == e.view.status && e.config != nil &&
		string(e.config.Marshal()) == string(cfg.Marshal()) {
		run := *e.list // the same champions, newer counts
		run.Info = info
		if err := run.SetLadder(ladder); err != nil {
			return nil, err
		}
		return &run, nil
	}
	champions, err := s.Champions()
	if err != nil {
		return nil, err
	}
	rv, err := results.NewView(e.id, *cfg, info, champions, ladder)
	if err != nil {
		return nil, err
	}
	return &reports.Run{View: *rv}, nil
}

// fail marks the run damaged and drops what was read: it is read again
// when its files change.
func (e *entry) fail(err error) {
	e.drop()
	e.damage = err
	e.failed, _ = stampOf(e.dir)
	nan := stats.Float(math.NaN())
	// The reason names the run by its id, not by where the server keeps it.
	reason := strings.ReplaceAll(err.Error(), e.dir, e.id)
	e.sum = Summary{ID: e.id, Damaged: reason, Status: "damaged", GamesPerSecond: nan, Elo: nan, EloLow: nan, EloHigh: nan}
}

func (e *entry) snapshotLocked() snapshot {
	sum := e.sum
	sum.Comparison = e.compare
	return snapshot{sum, e.list, e.view}
}

// whole returns the whole run (every genome of every generation) as of
// its last refresh, reading it (open, read, close) once per view, with the
// run's snapshot; nil when the run is damaged (or turned out to be).
func (e *entry) whole(open Opener) (*reports.Run, snapshot) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.list == nil {
		return nil, e.snapshotLocked()
	}
	if e.full == nil || e.fullView != e.view {
		var run *reports.Run
		err := e.withStore(open, func(s Store) (err error) {
			run, err = e.readWhole(s)
			return err
		})
		if err != nil {
			e.fail(err)
			return nil, e.snapshotLocked()
		}
		e.full, e.fullView, e.cache = run, e.view, map[string][]byte{}
	}
	if e.full.Info != e.info {
		run := *e.full // the same generations, newer counts
		run.Info = e.info
		e.full = &run
	}
	return e.full, e.snapshotLocked()
}

// readWhole reads every generation of the run from s, with the ladder
// and config already read for its list.
func (e *entry) readWhole(s Store) (*reports.Run, error) {
	hist, err := s.Generations()
	if err != nil {
		return nil, err
	}
	v, err := results.NewView(e.id, e.list.Config, e.info, hist, e.list.Ladder)
	if err != nil {
		return nil, err
	}
	v.Verification = e.list.Verification
	if len(hist) > 0 {
		if _, _, err := results.Best(hist, -1); err != nil {
			return nil, fmt.Errorf("%w: %v", results.ErrDamaged, err)
		}
	}
	return &reports.Run{View: *v}, nil
}

// cached returns the bytes rendered under key for the run's view v,
// rendering them once per view.
func (e *entry) cached(v view, key string, render func() ([]byte, error)) ([]byte, error) {
	e.mu.Lock()
	if e.fullView == v && e.cache != nil {
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
	if e.fullView == v && e.cache != nil {
		e.cache[key] = b
	}
	e.mu.Unlock()
	return b, nil
}

// Summary is one line of the runs list.
type Summary struct {
	ID      string `json:"id"`
	Damaged string `json:"damaged,omitempty"` // why the run cannot be read
	Game    string `json:"game,omitempty"`
	Eval    string `json:"evaluator,omitempty"`
	Algo    string `json:"algo,omitempty"`
	Status  string `json:"status"`
	Stage   string `json:"stage,omitempty"` // "generation", "round" or "block"
	Done    int    `json:"done"`            // generations (rounds, blocks) closed
	Planned int    `json:"planned"`         // of them expected: Done when the run is done
	Games   int    `json:"games"`
	// GamesPlanned is the games the run is expected to play in all
	// (population.Config.ExpectedGames; Games when it is done, 0 when
	// not known yet): its progress is Games of them.
	GamesPlanned int `json:"games_planned"`
	// GamesPerSecond is measured by this server while it watches a running
	// run, and over the run's recorded time otherwise.
	GamesPerSecond stats.Float `json:"games_per_second"`
	// Best is the run's best genome as every command names it (tune runs,
	// show, export, the report: population.ChooseBest), the best of tune
	// show --json; null until a generation has closed. Elo, EloLow and
	// EloHigh are its rating over the reference with the 95% interval
	// (null when not measured), the list's sort key.
	Best    *results.BestJSON `json:"best"`
	Elo     stats.Float       `json:"elo"`
	EloLow  stats.Float       `json:"elo_low"`
	EloHigh stats.Float       `json:"elo_high"`
	Started time.Time         `json:"started,omitzero"`
	Ended   time.Time         `json:"ended,omitzero"`
	ETA     time.Time         `json:"eta,omitzero"` // running runs: when the planned games should be played
	Seconds float64           `json:"seconds"`      // recorded running time
	// Comparison is, on a tuner's run in a comparison of tuners (tune
	// compare), the comparison's id; the run's id is then
	// "<comparison>:<tuner>".
	Comparison string `json:"comparison,omitempty"`
	// Algos and Tuners are set on a comparison's line (Algo "compare",
	// whose stage is the game, progress its tuners' games summed of
	// their budgets, best its best tuner's last champion on the shared
	// ladder): the tuners compared, and the ids of their runs, in order.
	Algos  []string `json:"algos,omitempty"`
	Tuners []string `json:"tuners,omitempty"`
}

func summarize(id string, r *reports.Run, seen observation, now time.Time) Summary {
	in := r.Info
	nan := stats.Float(math.NaN())
	s := Summary{
		ID: id, Game: r.Config.Game, Eval: r.Evaluator.Name, Algo: string(r.Config.Algo), Status: string(in.Status),
		Stage: r.Config.GenerationName(), Done: len(r.Generations), Planned: r.Config.ExpectedGenerations(len(r.Generations), in.Games, in.Seconds), Games: in.Games,
		Started: in.Started, Ended: in.Ended, Seconds: in.Seconds, Best: r.BestJSON(),
		Elo: nan, EloLow: nan, EloHigh: nan, GamesPerSecond: nan,
	}
	if s.Best != nil {
		s.Elo, s.EloLow, s.EloHigh = s.Best.Elo, s.Best.Low, s.Best.High
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
		s.GamesPerSecond = stats.Float(float64(in.Games) / elapsed)
	}
	if in.Status == "running" && s.Done > seen.gens {
		dt := now.Sub(seen.at).Seconds()
		perGen = dt / float64(s.Done-seen.gens)
		s.GamesPerSecond = stats.Float(float64(in.Games-seen.games) / dt)
	}
	s.setProgress(r, perGen, now)
	return s
}
