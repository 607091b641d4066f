// Package chess is chess on bitboards: legal move generation with check and
// pin masks (no make-and-test), castling, en passant (the pinned case
// included), promotion, checkmate, stalemate, the 50-move rule, threefold
// repetition and insufficient material; make/unmake with incremental
// Zobrist hashing; FEN, UCI and SAN in and out; PGN of whole games; a
// small classic evaluation (material, bonus by rank, mobility) and a fuller
// hand-written one.
package chess

import (
	"fmt"
	"io"

	"github.com/gametune/gametune/games"
)

// Game returns chess, registered as "chess".
func Game() games.Game { return game{definition} }

// definition is the game, defined once so that games compare equal.
var definition = games.Define("chess", doc, notation, Start, Parse, textbookEvaluator, articleEvaluator, pstEvaluator)

// Start returns the start position.
func Start() *Position {
	p, _ := Parse(StartFEN)
	return p
}

// game is the defined game with its records (games.Recorder).
type game struct{ games.Game }

// doc and notation describe the game in 'tune games'.
const (
	doc      = "chess: the full rules (castling, en passant, promotion, 50 moves, repetition, insufficient material)"
	notation = "position: FEN (" + StartFEN + "); move: SAN (Nf3, exd5, e8=Q, O-O) or UCI (e2e4, e7e8q)"
)

// WriteGame writes a game given in FEN and SAN (or UCI) moves as PGN.
// RecordFormat is PGN's (games.Recorder).
func (game) RecordFormat() (ext, name, mime string) { return "pgn", "PGN", "application/x-chess-pgn" }

func (game) WriteGame(w io.Writer, g games.GameText) error {
	p, err := Parse(g.Start)
	if err != nil {
		return err
	}
	first := p.Clone().(*Position)
	var ms []games.Move
	for _, s := range g.Moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return fmt.Errorf("chess: PGN: move %d: %w", len(ms)+1, err)
		}
		ms = append(ms, m)
		p.Play(m)
	}
	g.Tags = games.RenameTags(g.Tags, map[string]string{games.TagFirst: "White", games.TagSecond: "Black"})
	return WritePGN(w, g, first, ms)
}
