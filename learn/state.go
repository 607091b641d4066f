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

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
)

// The state file of a run (Config.State): see resume.go.

// stateVersion is the version of runState this program writes and reads.
const stateVersion = 1

// stateKey is the key of the run's progress in its state file's source.
const stateKey = "learn_state"

// runState is a run's progress, kept in its state file.
type runState struct {
	Version int
	// Settings is the fingerprint of what the run's result depends on
	// (fingerprint): a state of other settings is not continued.
	Settings string
	// StoreGames is the number of games the store held before the run.
	StoreGames int
	Rounds     []Round
	Played     int
	// data and weights are the current weights, read from the file
	// itself (not in the encoded state).
	data    []float32
	weights []float64
}

// RemoveState removes a finished run's state file and, when the run had
// no Store, the store of its games: once its result is written, the run
// has nothing left to continue.
func RemoveState(cfg Config) error {
	if cfg.State == "" {
		return nil
	}
	if cfg.Store == "" {
		if err := os.Remove(storePath(cfg)); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
	source, err := games.WeightsSource(path)
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
	ev, w, err := games.ReadWeights(path, l.cfg.Game)
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
	st := runState{Version: stateVersion, Settings: l.settings, StoreGames: l.storeGames, Rounds: res.Rounds, Played: res.Played}
	if err := gob.NewEncoder(&raw).Encode(st); err != nil {
		return fmt.Errorf("learn: the run's state: %w", err)
	}
	source := map[string]any{"command": "learn", "rounds": len(res.Rounds), "played": res.Played, "store": l.store,
		stateKey: base64.StdEncoding.EncodeToString(raw.Bytes())}
	var b bytes.Buffer
	if err := games.WriteWeightsWith(&b, l.cfg.Game, res.Evaluator, res.Weights, source, games.WeightsOptions{Encoding: games.EncodingFloat32}); err != nil {
		return fmt.Errorf("learn: the run's state: %w", err)
	}
	if err := files.WriteAtomic(l.cfg.State, b.Bytes(), true); err != nil {
		return fmt.Errorf("learn: writing the run's state: %w", err)
	}
	return nil
}

// fingerprint is a digest of what a run's result depends on: its game,
// evaluator, starting tables and weights, limits, budget, rounds, seed,
// labels, gate, openings, fit (not its workers) and store.
func fingerprint(cfg Config) string {
	h := sha256.New()
	fit := cfg.Fit
	fit.Workers, fit.Progress = 0, nil
	fmt.Fprintf(h, "%s\n%s\n%+v\n%d %d %d\n%v %v\n%+v\n%d %d\n%q\n%+v\n", cfg.Game.Name(), cfg.Evaluator.Name, cfg.Limits,
		cfg.Budget, cfg.Rounds, cfg.Seed, cfg.Margin, cfg.Lambda, cfg.Gate, cfg.MinOpening, cfg.MaxOpening, cfg.Store, fit)
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
	if err := games.WriteWeights(&b, cfg.Game, res.Evaluator, res.Weights, source); err != nil {
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
