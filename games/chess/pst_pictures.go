package chess

import (
	"math"
	"strconv"

	"github.com/gametune/gametune/games"
)

// pstCounts is the number of entries a count table uses, by table: a
// knight attacks at most 8 squares, a bishop 13, a rook 14, a queen 27;
// king-attack reads 0 to maxAttackUnits; a threat table threatEntries.
// Square tables are 0.
var pstCounts = [pstTables]int{pstMobility: 9, pstMobility + 1: 14, pstMobility + 2: 15, pstMobility + 3: 28,
	pstKingAttack: maxAttackUnits + 1, pstThreatsBy: threatEntries, pstThreatsOn: threatEntries, pstShelter: 64, pstChecks: 64}

// pstPictures draws data, the pst evaluator's tables, with the weights w:
// for each table in the order of Data, its middlegame heatmap then its
// endgame one, each entry's heat the table's scale times the entry (in
// centipawns). A square table is drawn as a white piece reads it: row 0, at
// the top, is rank 8, as engine authors print white's tables; the pawn and
// passed tables have no value on ranks 1 and 8 (NaN): no pawn stands there.
// A count table (mobility, king-attack) is one row of the counts it reads,
// each column named by its count; a threat or king-safety table one row of
// its entries, named as threatColumns and kingColumns do (unused ones NaN). It returns nil when data or w has the
// wrong length.
func pstPictures(data []float32, w []float64) []games.Board {
	if len(data) != pstSize || len(w) != pstFeatureCount {
		return nil
	}
	boards := make([]games.Board, 0, 2*pstTables)
	names := map[int][]string{pstThreatsBy: threatColumns(), pstThreatsOn: threatColumns(),
		pstShelter: kingColumns(false), pstChecks: kingColumns(true)}
	for t, name := range pstTableNames {
		scale := w[pstScale(t)]
		for ph, phase := range [2]string{"middlegame", "endgame"} {
			row := data[t*pstTableSize+ph*64 : t*pstTableSize+ph*64+64]
			b := games.Board{Title: name + " " + phase}
			if n := pstCounts[t]; n > 0 {
				b.Files, b.Ranks, b.Heat, b.Columns = n, 1, make([]float64, n), make([]string, n)
				for i := range n {
					b.Heat[i], b.Columns[i] = scale*float64(row[i]), strconv.Itoa(i)
					if cols := names[t]; cols != nil {
						b.Heat[i], b.Columns[i] = pictureEntry(cols[i], scale*float64(row[i])), cols[i]
					}
				}
				boards = append(boards, b)
				continue
			}
			b.Files, b.Ranks, b.TopRankFirst, b.Heat = 8, 8, true, make([]float64, 64)
			for r := range 8 {
				rank := 7 - r
				for file := range 8 {
					v := math.NaN()
					if (t != Pawn && t != pstPassed) || (rank != 0 && rank != 7) {
						v = scale * float64(row[rank*8+file])
					}
					b.Heat[r*8+file] = v
				}
			}
			boards = append(boards, b)
		}
	}
	return boards
}

// pictureEntry is an entry's heat: NaN for an unused entry (no name).
func pictureEntry(name string, v float64) float64 {
	if name == "" {
		return math.NaN()
	}
	return v
}
