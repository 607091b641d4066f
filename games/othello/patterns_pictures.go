package othello

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/gametune/gametune/games"
)

// The pictures of the patterns evaluator's tables (games.Evaluator.Pictures):
//
//   - one heatmap per stage: each square's average contribution to the
//     evaluation, from the side to move's point of view, in the evaluation's
//     units (tenths of a disc), over a fixed sample of positions of that
//     stage (pictureSamples). In each position, each pattern instance adds
//     scale*value (the scale of its class at the stage, the value of its
//     configuration) shared equally among the instance's occupied squares,
//     or among all its squares when none is occupied (the value of an empty
//     line belongs to the whole line). A square's heat is the sum of what it
//     received over the stage's positions divided by their number, so the
//     64 squares of a heatmap add up to the sample's average pattern score
//     at that stage (mobility and parity left out);
//   - for each class, at stage PictureStage, its strongest configurations:
//     the pictureTop largest values of scale*value above zero (best first)
//     and the pictureTop smallest below zero (worst first), an entry at zero
//     (never fitted) being no configuration worth drawing; each drawn on the
//     class's first instance (PatternClass.Squares) in the canonical
//     orientation the table stores.
//
// Squares are numbered as the package's (0 = a1 ... 63 = h8), so row 0,
// drawn at the top, is rank 1, as in the usual diagrams.

// PictureStage is the stage whose strongest configurations the pictures
// draw: the middle game (35-42 discs).
const PictureStage = PatternStages / 2

// pictureTop is how many best and worst configurations of a class are drawn.
const pictureTop = 3

// pictureGames is the number of random games whose positions make the
// heatmaps' sample (about 6,000 positions, 700 a stage), from pictureSeed.
const (
	pictureGames = 100
	pictureSeed  = 27
)

// pictureSample is one position of the sample, as the heatmaps read it.
type pictureSample struct {
	stage    uint8
	occupied Bitboard
	mine     Bitboard // the side to move's discs: FeatureValues' check in tests
	// place is each instance's configuration: its place in its class's row
	// of the stage (patternLayout.compact of its index).
	place [PatternInstances]int32
}

// pictureSamples are the positions of pictureGames games of uniformly random
// legal moves (passes included, finished positions left out), drawn once per
// process from pictureSeed (samplePictures).
var pictureSamples = sync.OnceValue(samplePictures)

// samplePictures plays the sample's games: about 5 ms.
func samplePictures() []pictureSample {
	l := layout()
	rng := rand.New(rand.NewPCG(pictureSeed, 0))
	moves := make([]games.Move, 0, 64)
	var idx [PatternInstances]int32
	var out []pictureSample
	for range pictureGames {
		p := Start()
		for {
			ms, outcome := p.Moves(moves)
			if outcome != games.Ongoing {
				break
			}
			occupied := p.discs[0] | p.discs[1]
			s := pictureSample{stage: uint8(PatternStage(popcount(occupied))), occupied: occupied, mine: p.mine()}
			for i, r := range p.PatternIndices(idx[:0]) {
				s.place[i] = l.entry[r] - int32(l.base[l.classOf[i]])
			}
			out = append(out, s)
			p.Play(ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// instanceMasks are the squares of each pattern instance, in the order of
// PatternIndices.
var instanceMasks = sync.OnceValue(func() (masks [PatternInstances]Bitboard) {
	i := 0
	for _, c := range patterns().classes {
		for _, in := range c.Instances {
			for _, sq := range in {
				masks[i] |= 1 << sq
			}
			i++
		}
	}
	return masks
})

// patternPictures draws data, the patterns evaluator's tables, with the
// weights w (scales, then mobility and parity): the PatternStages heatmaps,
// then each class's best and worst configurations at PictureStage (see
// above). It returns nil when data or w has the wrong length. After the
// sample's first drawing, it costs about 1 ms.
func patternPictures(data []float32, w []float64) []games.Board {
	if len(data) != layout().size || len(w) != patternFeatureCount {
		return nil
	}
	boards := patternHeatmaps(data, w)
	for c := range patterns().classes {
		boards = append(boards, patternConfigurations(data, w, c, PictureStage)...)
	}
	return boards
}

// patternHeatmaps is the heatmap of each stage.
func patternHeatmaps(data []float32, w []float64) []games.Board {
	l, classes, masks := layout(), patterns().classes, instanceMasks()
	var sum [PatternStages][64]float64
	var count [PatternStages]int
	for _, s := range pictureSamples() {
		st := int(s.stage)
		count[st]++
		heat := &sum[st]
		i := 0
		for c, class := range classes {
			scale := w[patternScale(c, st)]
			row := data[l.base[c]+st*l.counts[c] : l.base[c]+(st+1)*l.counts[c]]
			for range class.Instances {
				v, mask := scale*float64(row[s.place[i]]), masks[i]
				i++
				if v == 0 {
					continue
				}
				if mask&s.occupied != 0 {
					mask &= s.occupied
				}
				share := v / float64(popcount(mask))
				for ; mask != 0; mask &= mask - 1 {
					heat[trailingZeros(mask)] += share
				}
			}
		}
	}
	boards := make([]games.Board, PatternStages)
	for st := range boards {
		lo, hi := games.StageSpan(4, 64, st, PatternStage)
		b := games.Board{Title: fmt.Sprintf("stage %d (%d-%d discs), %d positions", st, lo, hi, count[st]), Files: 8, Ranks: 8, Heat: make([]float64, 64)}
		for sq := range b.Heat {
			if count[st] == 0 {
				b.Heat[sq] = math.NaN()
			} else {
				b.Heat[sq] = sum[st][sq] / float64(count[st])
			}
		}
		boards[st] = b
	}
	return boards
}

// patternConfigurations draws class c's best and worst configurations at
// stage st.
func patternConfigurations(data []float32, w []float64, c, st int) []games.Board {
	l, class := layout(), patterns().classes[c]
	scale := w[patternScale(c, st)]
	row := data[l.base[c]+st*l.counts[c] : l.base[c]+(st+1)*l.counts[c]]
	value := func(k int) float64 { return scale * float64(row[k]) }
	best, worst := games.Extremes(len(row), pictureTop, value)
	var boards []games.Board
	for rank, k := range best {
		boards = append(boards, configurationBoard(class, l.base[c], l, k, value(k), fmt.Sprintf("%s, stage %d: best %d", class.Name, st, rank+1)))
	}
	for rank, k := range worst {
		boards = append(boards, configurationBoard(class, l.base[c], l, k, value(k), fmt.Sprintf("%s, stage %d: worst %d", class.Name, st, rank+1)))
	}
	return boards
}

// configurationBoard draws the configuration at place k of class's row on
// the class's squares.
func configurationBoard(class PatternClass, base int, l *patternLayout, k int, v float64, title string) games.Board {
	reading := -1
	for r := class.Offset; r < class.Offset+class.Size; r++ {
		if int(l.entry[r])-base == k {
			reading = r - class.Offset
			break
		}
	}
	marks := []byte("                                                                ")
	for _, sq := range class.Squares {
		marks[sq] = "-XO"[reading%3]
		reading /= 3
	}
	return games.Board{Title: title, Files: 8, Ranks: 8, Marks: string(marks), Value: v}
}
