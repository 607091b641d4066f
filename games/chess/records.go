package chess

import (
	"github.com/gametune/gametune/games"
)

var pgnResults = []string{"1-0", "0-1", "1/2-1/2", "*"}

// ReadGames reads the PGN games of data: each game's FEN tag (or the
// standard start) and its moves in SAN (or UCI).
func (game) ReadGames(data []byte) ([]games.GameRecord, error) {
	return games.ReadTagged(data, pgnResults, StartFEN)
}
