package checkers

import (
	"fmt"
	"io"
	"strings"

	"github.com/gametune/gametune/games"
)

// pdnResults are the result tokens of PDN movetext: English draughts uses
// 1-0 and 0-1 (Black, who moves first, is the first player), and PDN's
// 2-0, 0-2 and 1-1 are read too.
var pdnResults = []string{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"}

// WriteGame writes a game given in PDN FEN and move notation as PDN: the
// tags given, GameType 21 (English draughts), the FEN tag when the start
// is not the standard one, the moves numbered by Black's moves, and the
// result.
// RecordFormat is PDN's (games.Recorder): plain text, with no MIME type
// of its own.
func (game) RecordFormat() (ext, name, mime string) { return "pdn", "PDN", "text/plain; charset=utf-8" }

func (game) WriteGame(w io.Writer, g games.GameText) error {
	p, err := Parse(g.Start)
	if err != nil {
		return err
	}
	var b strings.Builder
	tags := append(games.RenameTags(g.Tags, map[string]string{games.TagFirst: "Black", games.TagSecond: "White"}), [2]string{"GameType", "21"})
	if fen := p.String(); fen != StartNotation {
		tags = append(tags, [2]string{"FEN", fen})
	}
	games.WriteTags(&b, tags, g.Result.String())
	b.WriteString("\n")
	number := 1
	mt := &games.MoveText{B: &b}
	emit := mt.Emit
	for i, text := range g.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return fmt.Errorf("checkers: PDN: move %d: %w", i+1, err)
		}
		switch {
		case p.turn == games.First:
			emit(fmt.Sprintf("%d.", number))
		case i == 0:
			emit(fmt.Sprintf("%d...", number))
		}
		emit(p.FormatMove(m))
		if c := g.Comment(i); c != "" {
			mt.Comment(c)
		}
		if p.turn == games.Second {
			number++
		}
		p.Play(m)
	}
	if g.Note != "" {
		mt.Comment(g.Note)
	}
	emit(g.Result.String())
	b.WriteString("\n\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// ReadGames reads the PDN games of data: each game's FEN tag (or the
// standard start) and its moves.
func (game) ReadGames(data []byte) ([]games.GameRecord, error) {
	records, err := games.ReadTagged(data, pdnResults, StartNotation)
	if err != nil {
		return nil, err
	}
	for i, r := range records {
		if gt := r.Tag("GameType"); gt != "" && !strings.HasPrefix(gt, "21") {
			return nil, fmt.Errorf("checkers: PDN game %d: GameType %q is not English draughts (21)", i+1, gt)
		}
	}
	return records, nil
}
