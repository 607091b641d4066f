package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/weights"
)

// Tables as artifacts. A player whose evaluator has tables other than the
// ones its game ships (loaded from a weights file, or fitted by learn)
// travels with them as an artifact: the compact weights file of its
// evaluator, the tables exact (float32) and the features at their
// defaults (the job carries the player's weights). The coordinator writes
// and puts the file once per table set (tableArtifacts); a worker fetches
// it once, parses it with the checks of any weights file and keeps the
// bound evaluator for the jobs that follow (workerTables).

// TablesArtifact returns the artifact of ev's tables, an evaluator of g:
// its compact weights file, the tables exact. The same tables give the
// same bytes, so the same name.
func TablesArtifact(g games.Game, ev *games.Evaluator) ([]byte, error) {
	var b bytes.Buffer
	if err := weights.WriteWith(&b, g, ev, ev.Defaults(), nil, weights.Options{Encoding: weights.EncodingFloat32}); err != nil {
		return nil, fmt.Errorf("cluster: the tables of %s: %w", ev.Name, err)
	}
	return b.Bytes(), nil
}

// tableArtifacts are the table sets a runner put on the broker, by their
// values (the evaluator's Data, which does not change once bound): each
// is written and put once for the runner's life.
type tableArtifacts struct {
	conn *Conn
	engineHashes
	uploadEngines bool // engines' binaries go to the broker too

	mu       sync.Mutex
	names    map[tablesKey]string
	evals    map[string]*games.Evaluator // by artifact name: for the runner's own decoding
	uploaded map[string]bool             // engines' binaries put, by artifact name
}

type tablesKey struct {
	game, evaluator string
	data            *float32
	n               int
}

func newTableArtifacts(conn *Conn, uploadEngines bool) *tableArtifacts {
	return &tableArtifacts{conn: conn, uploadEngines: uploadEngines, names: map[tablesKey]string{}, evals: map[string]*games.Evaluator{}}
}

// name returns the artifact name of ev's tables, putting them on the
// broker the first time.
func (t *tableArtifacts) name(ctx context.Context, g games.Game, ev *games.Evaluator) (string, error) {
	if len(ev.Data) == 0 {
		return "", fmt.Errorf("cluster: evaluator %s has no tables to send", ev.Name)
	}
	key := tablesKey{g.Name(), ev.Name, &ev.Data[0], len(ev.Data)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if name, ok := t.names[key]; ok {
		return name, nil
	}
	content, err := TablesArtifact(g, ev)
	if err != nil {
		return "", err
	}
	name, err := t.conn.PutArtifact(ctx, content)
	if err != nil {
		return "", err
	}
	t.names[key] = name
	t.evals[name] = ev
	return name, nil
}

// tables is the tableSource of the runner's own jobs: the tables it put.
func (t *tableArtifacts) tables(_ context.Context, g games.Game, evaluator, name string) (*games.Evaluator, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev, ok := t.evals[name]; ok && ev.Name == evaluator {
		return ev, nil
	}
	return nil, fmt.Errorf("%w: tables %s are not this runner's", ErrRefused, name)
}

// wireEngine is the runner's engineNamer: the engine's spec and its
// binary's hash, the binary put on the broker too when it uploads them.
func (t *tableArtifacts) wireEngine(p tournament.Player) (WireEngine, error) {
	we, path, err := t.engineHashes.wireEngine(p)
	if err != nil || !t.uploadEngines {
		return we, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.evals[we.SHA256]; ok || t.uploaded[we.SHA256] {
		return we, nil
	}
	content, err := files.ReadLimited(path, MaxArtifact)
	if err != nil {
		return we, fmt.Errorf("cluster: uploading engine %s: %w", p.Name, err)
	}
	if ArtifactName(content) != we.SHA256 {
		return we, fmt.Errorf("cluster: engine %s: its binary %s changed while the run reads it", p.Name, path)
	}
	if _, err := t.conn.PutArtifact(context.Background(), content); err != nil {
		return we, err
	}
	if t.uploaded == nil {
		t.uploaded = map[string]bool{}
	}
	t.uploaded[we.SHA256] = true
	return we, nil
}

// engine is the runner's own engine of a job (runnerEngine).
func (t *tableArtifacts) engine(g games.Game, we *WireEngine) (tournament.Engine, error) {
	return runnerEngine(g, we)
}

// maxBoundTables is the number of table sets a worker keeps bound in
// memory: a learn run plays two at once (a gate), and Othello's patterns
// take some 4 MB each.
const maxBoundTables = 4

// workerTables is a worker's tableSource: artifacts from its cache, the
// last few evaluators bound to them kept in memory.
type workerTables struct {
	cache   *ArtifactCache
	allowed map[string]allowedEngine // the engines this worker plays, by name
	accept  bool                     // engines' binaries fetched from the broker are run too

	mu    sync.Mutex
	bound []boundTables // most recently used last
}

// engine is the engine a job names as this worker plays it (playEngine).
func (w *workerTables) engine(g games.Game, we *WireEngine) (tournament.Engine, error) {
	e, err := playEngine(w.allowed, g, we)
	if err == nil || !w.accept || !errors.Is(err, ErrRefused) {
		return e, err
	}
	return w.uploadedEngine(g, we)
}

type boundTables struct {
	name string
	ev   *games.Evaluator
}

// tables returns g's evaluator bound to the tables of artifact name. An
// artifact it cannot get gives an error wrapping ErrRefused (another
// worker may); one that is not a weights file of that evaluator an error
// about the job.
func (w *workerTables) tables(ctx context.Context, g games.Game, evaluator, name string) (*games.Evaluator, error) {
	w.mu.Lock()
	for i, b := range w.bound {
		if b.name == name && b.ev.Name == evaluator {
			w.bound = append(append(w.bound[:i:i], w.bound[i+1:]...), b)
			w.mu.Unlock()
			return b.ev, nil
		}
	}
	w.mu.Unlock()
	content, err := w.cache.Get(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	ev, _, err := weights.Parse(content, g)
	if err != nil {
		return nil, fmt.Errorf("tables %s: %w", name, err)
	}
	if ev.Name != evaluator {
		return nil, fmt.Errorf("tables %s are of evaluator %s, not %s", name, ev.Name, evaluator)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.bound = append(w.bound, boundTables{name, ev})
	if len(w.bound) > maxBoundTables {
		w.bound = w.bound[1:]
	}
	return ev, nil
}
