package checkers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/gametune/gametune/games"
)

// The pictures of the patterns evaluator's tables (games.Evaluator.Pictures),
// on the 8x8 board seen from the side to move, its men moving down (as
// Black's from the start position): row 0, drawn at the top, holds squares
// 0-3 (1-4 in notation), as the package's diagrams; light squares, never
// played on, are NaN in the heatmaps and ' ' in the configurations.
//
//   - one heatmap per stage: each square's average contribution to the
//     evaluation, in its units (hundredths of a man), over a fixed sample
//     of positions of that stage (pictureSamples). In each position, each
//     region adds scale*value (the scale of its table, the value of its
//     configuration at the stage) shared equally among the region's
//     occupied squares, or among all 8 of its squares when none is occupied;
//     each king adds the kings table's scale*value to its own square. The
//     squares of a heatmap add up to the sample's average table score at
//     that stage (full's features left out);
//   - for each region, at stage PictureStage, its strongest
//     configurations: the pictureTop largest values of scale*value above
//     zero (best first) and the pictureTop smallest below zero (worst
//     first), an entry at zero (never fitted) being no configuration worth
//     drawing.

// PictureStage is the stage whose strongest configurations the pictures
// draw: stage 1, 13-18 pieces, the middle game (stage 2 is 7-12 pieces,
// mostly endings).
const PictureStage = 1

// pictureTop is how many best and worst configurations of a region are
// drawn.
const pictureTop = 3

// pictureGames is the number of random games whose positions make the
// heatmaps' sample, from pictureSeed.
const (
	pictureGames = 100
	pictureSeed  = 28
)

// pictureSample is one position of the sample, as the heatmaps read it:
// its pieces seen from the side to move (patternView) and its regions'
// configurations.
type pictureSample struct {
	stage              uint8
	both               uint64
	ownKings, oppKings Bitboard
	reading            [patternRegions]uint16
}

// pictureSamples are the positions of pictureGames games of uniformly
// random legal moves (finished positions left out), drawn once per process
// from pictureSeed (samplePictures).
var pictureSamples = sync.OnceValue(samplePictures)

// samplePictures plays the sample's games.
func samplePictures() []pictureSample {
	rng := rand.New(rand.NewPCG(pictureSeed, 0))
	moves := make([]games.Move, 0, 64)
	var out []pictureSample
	for range pictureGames {
		p := Start()
		for {
			ms, outcome := p.Moves(moves)
			if outcome != games.Ongoing {
				break
			}
			s := pictureSample{}
			s.both, s.ownKings, s.oppKings = p.patternView()
			s.stage = uint8(patternStage(s.both))
			for k, shift := range regionShift {
				s.reading[k] = uint16(regionReading(s.both, shift))
			}
			out = append(out, s)
			p.Play(ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// patternPictures draws data, the patterns evaluator's tables, with the
// weights w (full's, then the scales): the PatternStages heatmaps, then
// each region's best and worst configurations at PictureStage (see above).
// It returns nil when data or w has the wrong length.
func patternPictures(data []float32, w []float64) []games.Board {
	if len(data) != patternDataSize || len(w) != patternFeatureSize {
		return nil
	}
	boards := patternHeatmaps(data, w)
	for k := range patternRegions {
		boards = append(boards, regionConfigurations(data, w, k, PictureStage)...)
	}
	return boards
}

// patternHeatmaps is the heatmap of each stage.
func patternHeatmaps(data []float32, w []float64) []games.Board {
	var sum [PatternStages][32]float64
	var count [PatternStages]int
	samples := pictureSamples()
	for i := range samples {
		s := &samples[i]
		st := int(s.stage)
		count[st]++
		heat := &sum[st]
		occupied := Bitboard(s.both) | Bitboard(s.both>>32)
		for k := range patternRegions {
			v := w[fullFeatureCount+k] * float64(data[k*regionTableSize+st*regionConfigs+int(s.reading[k])])
			if v == 0 {
				continue
			}
			mask := regionMask(k)
			if mask&occupied != 0 {
				mask &= occupied
			}
			share := v / float64(popcount(mask))
			for ; mask != 0; mask &= mask - 1 {
				heat[lowest(mask)] += share
			}
		}
		kings := data[kingsOffset+64*st : kingsOffset+64*(st+1)]
		for b := s.ownKings; b != 0; b &= b - 1 {
			heat[lowest(b)] += w[kingsScale] * float64(kings[lowest(b)])
		}
		for b := s.oppKings; b != 0; b &= b - 1 {
			heat[lowest(b)] += w[kingsScale] * float64(kings[32+lowest(b)])
		}
	}
	boards := make([]games.Board, PatternStages)
	for st := range boards {
		lo, hi := games.StageSpan(1, 24, st, PatternStage)
		b := games.Board{Title: fmt.Sprintf("stage %d (%d-%d pieces), %d positions", st, lo, hi, count[st]), Files: 8, Ranks: 8, Heat: make([]float64, 64)}
		for i := range b.Heat {
			b.Heat[i] = math.NaN()
		}
		for sq := range 32 {
			if count[st] > 0 {
				b.Heat[boardIndex(sq)] = sum[st][sq] / float64(count[st])
			}
		}
		boards[st] = b
	}
	return boards
}

// boardIndex is square sq's place on the 8x8 board, row by row.
func boardIndex(sq int) int {
	r, c := rowCol(sq)
	return 8*r + c
}

// regionConfigurations draws region k's best and worst configurations at
// stage st.
func regionConfigurations(data []float32, w []float64, k, st int) []games.Board {
	scale := w[fullFeatureCount+k]
	row := data[k*regionTableSize+st*regionConfigs : k*regionTableSize+(st+1)*regionConfigs]
	value := func(c int) float64 { return scale * float64(row[c]) }
	best, worst := games.Extremes(len(row), pictureTop, value)
	var boards []games.Board
	for rank, c := range best {
		title := fmt.Sprintf("%s, stage %d: best %d", regionName(k), st, rank+1)
		boards = append(boards, games.Board{Title: title, Files: 8, Ranks: 8, Marks: regionMarks(k, c), Value: value(c)})
	}
	for rank, c := range worst {
		title := fmt.Sprintf("%s, stage %d: worst %d", regionName(k), st, rank+1)
		boards = append(boards, games.Board{Title: title, Files: 8, Ranks: 8, Marks: regionMarks(k, c), Value: value(c)})
	}
	return boards
}

// regionMarks draws configuration c of region k on the 8x8 board: 'X' a
// piece of the side to move, 'O' an opponent's, '-' an empty square of the
// region, ' ' elsewhere.
func regionMarks(k, c int) string {
	marks := []byte("                                                                ")
	for _, sq := range regionSquares(k) {
		marks[boardIndex(sq)] = "-XO"[c%3]
		c /= 3
	}
	return string(marks)
}
