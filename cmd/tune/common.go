package main

import (
	"encoding/json"
	"io"

	"github.com/gametune/gametune/files"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/tournament"
)

// findGame looks a game up by name, as a usage error when unknown.
func findGame(name string) (games.Game, error) {
	g, err := all.Find(name)
	if err != nil {
		return nil, usageError{err}
	}
	return g, nil
}

// player resolves an evaluator name and a weights file ("" or "default" for
// the evaluator's defaults; tournament.BuiltinWeights), as a usage error.
func player(g games.Game, evaluator, weights string) (*games.Evaluator, []float64, error) {
	ev, w, err := tournament.BuiltinWeights(g, evaluator, weights)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return ev, w, nil
}

// emit writes a command's result to standard output: v as indented JSON
// with --json (asJSON), otherwise as text by write.
func emit(out output, asJSON bool, v any, write func(io.Writer)) error {
	if asJSON {
		return writeJSON(out.Stdout, v)
	}
	write(out.Stdout)
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// poolTableMiB is the transposition table of each worker playing games:
// small, because games at tuning depths fill little of it and two large
// tables fight over the processor's caches (2 workers on Othello at depth
// 4: 1.5x the games/s of one worker with 4 MiB tables, 1.9x with 1 MiB).
const poolTableMiB = 2

// maxUserFile bounds every file a user names (weights, configs, openings,
// saved games): gametune's own are a few KiB.
const maxUserFile = 4 << 20

// readUserFile reads a file a user named (files.ReadLimited), refusing one
// over maxUserFile, or a pipe or a device, with the reason in the message.
func readUserFile(path string) ([]byte, error) {
	return files.ReadLimited(path, maxUserFile)
}
