package chess

import (
	"github.com/gametune/gametune/games"
)

var pgnResults = []string{"1-0", "0-1", "1/2-1/2", "*"}

// ReadGames reads the PGN games of data: each game's FEN tag (or the
// standard start) and its moves in SAN (or UCI).
func (game) ReadGames(data []byte) ([]games.GameRecord, error) {
	tagged, err := games.ParseTagged(string(data), pgnResults)
	if err != nil {
		return nil, err
	}
	out := make([]games.GameRecord, 0, len(tagged))
	for _, t := range tagged {
		r := games.GameRecord{Tags: t.Tags, Start: StartFEN, Moves: t.Moves}
		if fen := r.Tag("FEN"); fen != "" {
			r.Start = fen
		}
		out = append(out, r)
	}
	return out, nil
}
