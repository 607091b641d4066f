package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/external"
)

// External engines on workers, the fishtest way: a worker plays an
// external engine only if its operator allowed it. A job names the engine
// by its spec (its name, protocol, options and limits: the coordinator's
// command, arguments and folder are never run) and by the SHA-256 of the
// coordinator's binary; a worker plays it with the binary of the same name
// in its own engines file (WorkerOptions.Engines), when that binary has
// the same SHA-256, and refuses the job otherwise, saying why (another
// worker may play it; after max_deliver refusals the run fails with the
// reason). Clock games (a time control or a move time) play at most one
// per core on a worker: their results depend on the machine's speed,
// which each worker measures when it starts (Result.Speed). The audit
// plays depth- and node-limited engine games again as any game; a clock
// game cannot be played again to the same moves, so of it a coordinator
// checks that every move is legal and that the outcome follows from the
// moves (the rules, the ply cap, the adjudication, or a fault, lost by an
// engine's side), not that the moves are the engine's.

// WireEngine is an external engine player of a job.
type WireEngine struct {
	// Spec is the engine's spec (external.Spec in Parse's form); its cmd,
	// arg and dir are the coordinator's and are replaced by the worker's.
	Spec string `json:"spec"`
	// SHA256 is the hex SHA-256 of the coordinator's binary.
	SHA256 string `json:"sha256"`
}

// engineNamer makes the wire form of an external engine player (a
// runner's engineHashes).
type engineNamer func(p tournament.Player) (WireEngine, error)

func wireEngine(p tournament.Player, namer engineNamer) (WirePlayer, error) {
	if namer == nil {
		return WirePlayer{}, fmt.Errorf("cluster: player %q is an external engine: a runner sends it (naming its binary by hash)", p.Name)
	}
	we, err := namer(p)
	if err != nil {
		return WirePlayer{}, err
	}
	return WirePlayer{Name: p.Name, Engine: &we}, nil
}

// enginePath is the file an engine spec runs.
func enginePath(e external.Spec) (string, error) {
	path := e.Command
	if e.Dir != "" && !filepath.IsAbs(path) && strings.ContainsRune(path, filepath.Separator) {
		path = filepath.Join(e.Dir, path)
	}
	found, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("cluster: engine %s: cmd=%s: %w", e.Name, e.Command, err)
	}
	return filepath.EvalSymlinks(found)
}

// fileHash is the hex SHA-256 of a file's content.
func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// engineHashes are the hashes of the binaries a runner's engines run, by
// path, each read once.
type engineHashes struct {
	mu     sync.Mutex
	byPath map[string]string
}

// wireEngine returns the wire form of p, an external engine, and the path
// of its binary.
func (h *engineHashes) wireEngine(p tournament.Player) (WireEngine, string, error) {
	spec, ok := p.Engine.(external.Spec)
	if !ok {
		return WireEngine{}, "", fmt.Errorf("cluster: player %q: an engine of type %T, which the wire does not carry", p.Name, p.Engine)
	}
	path, err := enginePath(spec)
	if err != nil {
		return WireEngine{}, "", err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byPath == nil {
		h.byPath = map[string]string{}
	}
	sum, ok := h.byPath[path]
	if !ok {
		if sum, err = fileHash(path); err != nil {
			return WireEngine{}, "", fmt.Errorf("cluster: engine %s: %w", spec.Name, err)
		}
		h.byPath[path] = sum
	}
	return WireEngine{Spec: spec.String(), SHA256: sum}, path, nil
}

// uploadedEngine is the engine a job names, run from the binary the
// coordinator uploaded (the artifact named by its SHA-256), with the job's
// own arguments: for a worker that accepts engines it was not given.
func (w *workerTables) uploadedEngine(g games.Game, we *WireEngine) (tournament.Engine, error) {
	spec, err := external.Parse(we.Spec)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := w.cache.Get(ctx, we.SHA256); err != nil {
		return nil, fmt.Errorf("%w: engine %q: not among this worker's --engines, and its binary is not on the broker (run the coordinator with --upload-engines): %w", ErrRefused, spec.Name, err)
	}
	path := filepath.Join(w.cache.dir, we.SHA256)
	if err := os.Chmod(path, 0o700); err != nil {
		return nil, fmt.Errorf("%w: engine %q: %w", ErrRefused, spec.Name, err)
	}
	spec.Command, spec.Dir = path, ""
	if err := spec.CheckCommand(g.Name()); err != nil {
		return nil, err
	}
	return spec, nil
}

// runnerEngine is the engine of a job as the coordinator runs it: its own
// spec (for the audit, and the games it plays itself).
func runnerEngine(g games.Game, we *WireEngine) (tournament.Engine, error) {
	spec, err := external.Parse(we.Spec)
	if err != nil {
		return nil, err
	}
	return spec, nil
}

// allowedEngine is an engine a worker's operator allowed: its spec, as
// the worker runs it, and its binary's SHA-256.
type allowedEngine struct {
	spec   external.Spec
	sha256 string
}

// allowEngines reads a worker's engines (the engines file's entries,
// by name): each must parse and its binary be readable, so that a worker
// with a wrong path stops at once, naming it.
func allowEngines(en external.Engines) (map[string]allowedEngine, error) {
	out := map[string]allowedEngine{}
	for _, name := range slices.Sorted(mapsKeys(en)) {
		spec, err := external.Parse(en[name])
		if err != nil {
			return nil, fmt.Errorf("cluster: --engines: %s: %w", name, err)
		}
		path, err := enginePath(spec)
		if err != nil {
			return nil, fmt.Errorf("cluster: --engines: %s: %w", name, err)
		}
		sum, err := fileHash(path)
		if err != nil {
			return nil, fmt.Errorf("cluster: --engines: %s: %w", name, err)
		}
		out[name] = allowedEngine{spec, sum}
	}
	return out, nil
}

func mapsKeys(m external.Engines) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// playEngine returns the engine a job names as this worker plays it: the
// job's spec with the command, arguments and folder of the engine of the
// same name that the worker allows, when its binary has the job's
// SHA-256; otherwise an error wrapping ErrRefused saying why.
func playEngine(allowed map[string]allowedEngine, g games.Game, we *WireEngine) (tournament.Engine, error) {
	spec, err := external.Parse(we.Spec)
	if err != nil {
		return nil, err
	}
	own, ok := allowed[spec.Name]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: engine %q is not one this worker's operator allowed (tune worker --engines FILE, or --accept-engines)", ErrRefused, spec.Name)
	case own.sha256 != we.SHA256:
		return nil, fmt.Errorf("%w: engine %q: this worker's binary has SHA-256 %s, the job's %s", ErrRefused, spec.Name, own.sha256, we.SHA256)
	case own.spec.Protocol != spec.Protocol:
		return nil, fmt.Errorf("%w: engine %q: this worker runs it with proto=%s, the job with %s", ErrRefused, spec.Name, own.spec.Protocol, spec.Protocol)
	}
	spec.Command, spec.Args, spec.Dir = own.spec.Command, own.spec.Args, own.spec.Dir
	if err := spec.CheckCommand(g.Name()); err != nil {
		return nil, err
	}
	return spec, nil
}

// onClock reports whether a game depends on the machine's speed: one of
// its players is timed by a clock or a move time.
func onClock(spec tournament.GameSpec) bool {
	for _, p := range []tournament.Player{spec.First, spec.Second} {
		t := p.Timing
		if p.Engine != nil {
			t = p.Engine.Timing()
		}
		if t.TC != nil || t.MoveTime > 0 {
			return true
		}
	}
	return false
}

// newClockSlots returns the slots of a worker's clock games: one per core.
func newClockSlots() chan struct{} { return make(chan struct{}, runtime.NumCPU()) }

// benchmark measures this machine's speed: the nodes per second of the
// built-in searcher in 20 plies of Othello at depth 6 (some 0.1 s); 0
// when it cannot tell.
func benchmark(ctx context.Context) int64 {
	g, err := all.Find("othello")
	if err != nil {
		return 0
	}
	ev := g.Evaluators()[0]
	p := tournament.Player{Name: "bench", Evaluator: ev, Weights: ev.Defaults(), Limits: engine.Limits{Depth: 6}}
	s, err := tournament.NewSearchers(2)
	if err != nil {
		return 0
	}
	start := time.Now()
	rec, err := tournament.Play(ctx, s, tournament.GameSpec{Game: g, First: p, Second: p, MaxPlies: 20})
	took := time.Since(start)
	if err != nil || took <= 0 {
		return 0
	}
	return int64(float64(rec.Nodes) / took.Seconds())
}
