package external

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// The players of a match or a tournament: the engines file, the player
// specs resolved, and the log of the engines' stderr.

// MaxEnginesFile is the largest engines file ReadEngines reads.
const MaxEnginesFile = 1 << 20

// ReadEngines reads the engines file at path, of at most MaxEnginesFile
// bytes: cutechess's engines.json (ParseEnginesJSON) when its name ends in
// .json, else as ParseEngines tells by its content. Its errors name the
// file.
func ReadEngines(path string) (Engines, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxEnginesFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxEnginesFile {
		return nil, fmt.Errorf("%s: an engines file is at most %d bytes (a YAML list of engines, or cutechess's engines.json)", path, MaxEnginesFile)
	}
	parse := ParseEngines
	if strings.EqualFold(filepath.Ext(path), ".json") {
		parse = ParseEnginesJSON
	}
	en, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return en, nil
}

// Players resolves the player specs of a match or a tournament, in order:
// a spec that names an external engine as Player does (checked before any
// game), any other through builtin. anyExternal reports whether an
// external engine is among them. The first error is returned as it is:
// errors the user must fix of an engine wrap ErrSpec.
func (en Engines) Players(ctx context.Context, g games.Game, specs []string, builtin func(spec string) (tournament.Player, error)) (players []tournament.Player, anyExternal bool, err error) {
	return en.PlayersEach(ctx, g, specs, Each{}, builtin)
}

// OpenLog returns the log the engines' stderr is appended to (a Pool's
// SetEngineLog): the file at path, created if need be, or when path is
// empty a new file gametune-engines-DATE-TIME-PID.log in the temporary
// directory, created at the first write only, so that a match whose
// engines write nothing leaves no file.
func OpenLog(path string) (*Log, error) {
	if path == "" {
		name := fmt.Sprintf("gametune-engines-%s-%d.log", time.Now().Format("20060102-150405"), os.Getpid())
		return &Log{name: filepath.Join(os.TempDir(), name), temporary: true}, nil
	}
	f, err := os.OpenFile(filepath.Clean(path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Log{name: f.Name(), f: f}, nil
}

// Log is the engines' log file (OpenLog). It is safe for concurrent use.
type Log struct {
	mu        sync.Mutex
	name      string
	temporary bool // created at the first write, under a new name
	f         *os.File
	err       error // the error creating the file, returned by every Write
}

// Name is the file's path: where the log is, or will be once written.
func (l *Log) Name() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.name
}

// Write appends b to the file, creating a temporary log at the first
// write (under another name if the chosen one is taken).
func (l *Log) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && l.err == nil {
		l.f, l.err = os.OpenFile(l.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(l.err, os.ErrExist) {
			l.f, l.err = os.CreateTemp(filepath.Dir(l.name), strings.TrimSuffix(filepath.Base(l.name), ".log")+"-*.log")
		}
		if l.err == nil {
			l.name = l.f.Name()
		}
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(b)
}

// Close closes the file, if one was created; later writes fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.f
	l.f, l.err = nil, os.ErrClosed
	if f == nil {
		return nil
	}
	return f.Close()
}
