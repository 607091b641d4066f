package chess

import (
	"math"

	"github.com/gametune/gametune/games"
)

// pstPictures draws data, the pst evaluator's tables, with the weights w:
// for each table in the order of Data, its middlegame heatmap then its
// endgame one, each square's heat the table's scale times its entry (in
// centipawns) as a white piece there reads it. Row 0, drawn at the top, is
// rank 8, as engine authors print white's tables. The pawn and passed
// tables have no value on ranks 1 and 8 (NaN): no pawn stands there. It
// returns nil when data or w has the wrong length.
func pstPictures(data []float32, w []float64) []games.Board {
	if len(data) != pstSize || len(w) != pstFeatureCount {
		return nil
	}
	boards := make([]games.Board, 0, 2*pstTables)
	for t, name := range pstTableNames {
		scale := w[pstScale(t)]
		for ph, phase := range [2]string{"middlegame", "endgame"} {
			b := games.Board{Title: name + " " + phase, Files: 8, Ranks: 8, TopRankFirst: true, Heat: make([]float64, 64)}
			for row := range 8 {
				rank := 7 - row
				for file := range 8 {
					v := math.NaN()
					if (t != Pawn && t != pstPassed) || (rank != 0 && rank != 7) {
						v = scale * float64(data[t*pstTableSize+ph*64+rank*8+file])
					}
					b.Heat[row*8+file] = v
				}
			}
			boards = append(boards, b)
		}
	}
	return boards
}
