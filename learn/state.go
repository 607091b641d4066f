package learn

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/weights"
)

// The state file of a run (Config.State): see resume.go.

// stateVersion is the version of runState this program writes and reads.
const stateVersion = 2

// stateKey is the key of the run's progress in its state file's source.
const stateKey = "learn_state"

// runState is a run's progress, kept in its state file.
type runState struct {
	Version int
	// Settings is the fingerprint of what the run's result depends on
	// (fingerprint): a state of other settings is not continued.
	Settings string
	// FileGames is the number of games the positions file held before the run.
	FileGames int
	Rounds    []Round
	Played    int
	// EndPlay is the run's (Config.EndPlay); "" in a state written before
	// it, whose run plays EndPlayEngine. Not in Settings, so that such a
	// state is continued.
	EndPlay EndPlay
	// data and weights are the current weights, read from the file
	// itself (not in the encoded state).
	data    []float32
	weights []float64
}

// RemoveState removes a finished run's state file and, when the run had
// no PositionsFile, the positions file of its games: once its result is written, the run
// has nothing left to continue.
func RemoveState(cfg Config) error {
	if cfg.State == "" {
		return nil
	}
	if cfg.PositionsFile == "" {
		if err := os.Remove(gamesPath(cfg)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.Remove(cfg.State); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// readState reads the State file, nil when there is none.
func (l *learner) readState() (*runState, error) {
	path := l.cfg.State
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	refuse := func(why string, err error) (*runState, error) {
		return nil, fmt.Errorf("%w: %s %s (%v): remove it to start afresh", ErrConfig, path, why, err)
	}
	source, err := weights.FileSource(path)
	if err != nil {
		return refuse("is not the state of a learn run", err)
	}
	var st runState
	text, _ := source[stateKey].(string)
	raw, err := base64.StdEncoding.DecodeString(text)
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(raw)).Decode(&st)
	}
	if err != nil || st.Version != stateVersion {
		return refuse("is not the state of a learn run of this version", err)
	}
	if st.Settings != l.settings {
		return nil, fmt.Errorf("%w: %s holds the state of an interrupted learn with other settings (game, evaluator, start, budget, rounds, depth, seed, gate, fit or positions file): run that command again to finish it, or remove %s to start afresh", ErrConfig, path, path)
	}
	if st.EndPlay == "" {
		st.EndPlay = EndPlayEngine
	}
	if e := l.cfg.EndPlay; e != "" && e != st.EndPlay {
		return nil, fmt.Errorf("%w: %s holds the state of an interrupted learn whose end play is %s, not %s: run it again with that play (or none given), or remove %s to start afresh", ErrConfig, path, st.EndPlay, e, path)
	}
	ev, w, err := weights.Read(path, l.cfg.Game)
	if err != nil {
		return refuse("does not read as the run's weights", err)
	}
	st.data, st.weights = ev.Data, w
	return &st, nil
}

// save writes the run's state: res's current weights and rounds.
func (l *learner) save(res *Result) error {
	if l.cfg.State == "" {
		return nil
	}
	var raw bytes.Buffer
	st := runState{Version: stateVersion, Settings: l.settings, FileGames: l.fileGames, Rounds: res.Rounds, Played: res.Played,
		EndPlay: l.endPlay}
	if err := gob.NewEncoder(&raw).Encode(st); err != nil {
		return fmt.Errorf("learn: the run's state: %w", err)
	}
	source := map[string]any{"command": "learn", "rounds": len(res.Rounds), "played": res.Played, "positions": l.gamesFile,
		stateKey: base64.StdEncoding.EncodeToString(raw.Bytes())}
	var b bytes.Buffer
	if err := weights.WriteWith(&b, l.cfg.Game, res.Evaluator, res.Weights, source, weights.Options{Encoding: weights.EncodingFloat32}); err != nil {
		return fmt.Errorf("learn: the run's state: %w", err)
	}
	if err := files.WriteAtomic(l.cfg.State, b.Bytes(), true); err != nil {
		return fmt.Errorf("learn: writing the run's state: %w", err)
	}
	return nil
}

// fingerprint is a digest of what a run's result depends on: its game,
// evaluator, starting tables and weights, limits, budget, rounds, seed,
// labels, gate, openings, fit (not its workers) and positions file.
func fingerprint(cfg Config) string {
	h := sha256.New()
	fit := cfg.Fit
	fit.Workers, fit.Progress = 0, nil
	fmt.Fprintf(h, "%s\n%s\n%+v\n%d %d %d\n%v\n%+v\n%q\n%+v\n", cfg.Game.Name(), cfg.Evaluator.Name, cfg.Limits,
		cfg.Budget, cfg.Rounds, cfg.Seed, cfg.Lambda, cfg.Gate, cfg.PositionsFile, fit)
	buf := make([]byte, 0, 4*len(cfg.Evaluator.Data)+8*len(cfg.Weights))
	for _, v := range cfg.Evaluator.Data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	for _, w := range cfg.Weights {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(w))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// Finish ends a run of Learn that returned res and runErr: when it ended,
// it writes the weights (WriteResult) and returns path; when it was
// interrupted (runErr not nil), it writes nothing and returns the State
// file, which holds the weights so far.
func Finish(cfg Config, res *Result, runErr error, path string, overwrite bool, source map[string]any) (string, error) {
	if runErr != nil {
		return cfg.State, nil
	}
	return path, WriteResult(cfg, res, path, overwrite, source)
}

// WriteResult writes res's weights to path (atomically: files.WriteOrKeep,
// replacing a file only with overwrite), source recording what made them,
// then removes the run's state (RemoveState). When the write fails, the
// error says where the weights are kept: the State file holds them too.
func WriteResult(cfg Config, res *Result, path string, overwrite bool, source map[string]any) error {
	var b bytes.Buffer
	if err := weights.Write(&b, cfg.Game, res.Evaluator, res.Weights, source); err != nil {
		return err
	}
	if err := files.WriteOrKeep(path, b.Bytes(), overwrite); err != nil {
		if cfg.State != "" {
			return fmt.Errorf("learn: %w; the learned weights are in %s as well", err, cfg.State)
		}
		return fmt.Errorf("learn: %w", err)
	}
	return RemoveState(cfg)
}

// RunName names a run's games on a broker (the cluster's run name): a
// digest of what its result depends on (fingerprint) and of its State
// file, so that the same command run again finds the results its workers
// published meanwhile, and runs of other settings or files never meet.
func RunName(cfg Config) string {
	state, _ := filepath.Abs(cfg.State)
	sum := sha256.Sum256([]byte(fingerprint(cfg) + "\n" + state))
	return "learn-" + hex.EncodeToString(sum[:8])
}
