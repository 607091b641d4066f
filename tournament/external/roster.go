package external

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament"
)

// The players of a match or a tournament: the engines file, the player
// specs resolved, and the log of the engines' stderr.

// ReadEngines reads the engines file at path (ParseEngines). Its errors
// name the file.
func ReadEngines(path string) (Engines, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	en, err := ParseEngines(data)
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
	players = make([]tournament.Player, len(specs))
	for i, s := range specs {
		pl, ok, err := en.Player(ctx, g, s)
		switch {
		case err != nil:
			return nil, false, err
		case ok:
			anyExternal = true
		default:
			if pl, err = builtin(s); err != nil {
				return nil, false, err
			}
		}
		players[i] = pl
	}
	return players, anyExternal, nil
}

// OpenLog opens the file the engines' stderr is appended to (a Pool's
// SetEngineLog): path, created if need be, or when path is empty a new
// file gametune-engines-DATE-TIME-*.log in the temporary directory.
func OpenLog(path string) (*os.File, error) {
	if path == "" {
		return os.CreateTemp("", "gametune-engines-"+time.Now().Format("20060102-150405")+"-*.log")
	}
	return os.OpenFile(filepath.Clean(path), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
}
