package othello

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/gametune/gametune/games"
)

// The endgame evaluation: the solver's move ordering and ProbCut score
// positions with the patterns evaluator's tables refitted, for the stages
// of the endgame, to exact final disc differences instead of game results
// (as Egaroucid fits its own for its endgame searches). The shipped
// patterns tables come from self-play games' results: brought to the disc
// difference's scale by a line, they err by 11.5 discs (root mean square)
// at 15 to 18 empty squares and 9.9 at 10 to 14 on self-play positions
// the fit never saw; the refit tables by 9.3 and 9.0
// (TestEndEvalPredictsExactScores measures it on positions solved
// afresh).
//
// endeval.bin holds, for each refitted stage, the line that brings the
// shipped evaluation to the scale of the final disc difference (its slope)
// and the fit's changes from it: the stage's table values are the shipped
// ones times their class's scale and the slope, plus the change; its
// mobility and parity weights are the fit's. The other stages keep the
// shipped tables, their weights times the slope of the earliest refitted
// stage, so that every stage scores on about the same scale. The file is
// made by
//
//	GAMETUNE_EXPERIMENTS=1 GAMETUNE_ENDEVAL_OUT=endeval.bin go test -run 'TestFitEndEval$' -v -timeout 2h ./games/othello
//
// (endeval_fit_test.go: self-play positions of the seed given there,
// solved exactly, and a least-squares fit).
//
//go:embed endeval.bin
var shippedEndEval []byte

// endEvalMagic begins endeval.bin once unzipped.
const endEvalMagic = "gametune othello endgame tables 1\n"

// endEvalStage is one refitted stage as endeval.bin holds it.
type endEvalStage struct {
	stage            int
	slope            float64 // the shipped evaluation's scale factor to the disc difference
	mobility, parity float64 // the fit's weights
	change           []int16 // by Data entry of the stage, class by class: hundredths of a tenth of a disc
}

// endEvalHead begins a stage in endeval.bin, its table changes after it.
type endEvalHead struct {
	Stage                   uint8
	Slope, Mobility, Parity float64
}

// endEvaluator is the patterns evaluator with the endgame tables, and its
// weights.
type endEvaluator struct {
	ev *games.Evaluator
	w  []float64
}

// endEvaluation is the endgame evaluation read from endeval.bin, once.
var endEvaluation = sync.OnceValue(func() *endEvaluator {
	stages, err := readEndEval(bytes.NewReader(shippedEndEval))
	if err != nil {
		panic("othello: the shipped endgame tables: " + err.Error())
	}
	return buildEndEval(stages)
})

// buildEndEval makes the endgame evaluator of the refitted stages.
func buildEndEval(stages []endEvalStage) *endEvaluator {
	l := layout()
	data := append([]float32(nil), patternsEvaluator.Data...)
	w := patternsEvaluator.Defaults()
	refit := make(map[int]bool)
	first, k := PatternStages, 1.0 // the earliest refitted stage and its slope
	for _, st := range stages {
		s := st.stage
		refit[s] = true
		if s < first {
			first, k = s, st.slope
		}
		i := 0
		for c := range patternClassCount {
			scale := w[patternScale(c, s)] * st.slope
			base := l.base[c] + s*l.counts[c]
			for j := range l.counts[c] {
				data[base+j] = float32(float64(data[base+j])*scale + float64(st.change[i])/100)
				i++
			}
			w[patternScale(c, s)] = 1
		}
		w[patternMobility(s)], w[patternParity(s)] = st.mobility, st.parity
	}
	for s := range PatternStages {
		if refit[s] {
			continue
		}
		for c := range patternClassCount {
			w[patternScale(c, s)] *= k
		}
		w[patternMobility(s)] *= k
		w[patternParity(s)] *= k
	}
	return &endEvaluator{ev: patternsEvaluator.Bind(data), w: w}
}

// stageEntries is the number of Data entries of one stage: the classes'
// canonical configurations.
func stageEntries() int { return layout().size / PatternStages }

// readEndEval reads an endeval.bin file.
func readEndEval(r io.Reader) ([]endEvalStage, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip stream: %w", err)
	}
	br := bufio.NewReader(io.LimitReader(z, 8<<20))
	magic := make([]byte, len(endEvalMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != endEvalMagic {
		return nil, fmt.Errorf("not an endgame tables file: its first line is not %q", endEvalMagic)
	}
	count, err := br.ReadByte()
	if err != nil || count == 0 || count > PatternStages {
		return nil, fmt.Errorf("want 1 to %d stages", PatternStages)
	}
	out := make([]endEvalStage, count)
	seen := make(map[int]bool)
	for i := range out {
		var head endEvalHead
		if err := binary.Read(br, binary.LittleEndian, &head); err != nil {
			return nil, fmt.Errorf("stage %d of %d: %w", i+1, count, err)
		}
		if int(head.Stage) >= PatternStages || seen[int(head.Stage)] {
			return nil, fmt.Errorf("stage %d: want a stage of 0 to %d, each once", head.Stage, PatternStages-1)
		}
		for _, v := range []float64{head.Slope, head.Mobility, head.Parity} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e3 {
				return nil, fmt.Errorf("stage %d: a weight of %v: want a finite number within 1000", head.Stage, v)
			}
		}
		seen[int(head.Stage)] = true
		st := endEvalStage{stage: int(head.Stage), slope: head.Slope, mobility: head.Mobility, parity: head.Parity}
		st.change = make([]int16, stageEntries())
		if err := binary.Read(br, binary.LittleEndian, st.change); err != nil {
			return nil, fmt.Errorf("stage %d's %d table changes: %w", st.stage, len(st.change), err)
		}
		out[i] = st
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("bytes after the last stage")
	}
	return out, nil
}

// writeEndEval writes stages as readEndEval reads them.
func writeEndEval(out io.Writer, stages []endEvalStage) error {
	z, err := gzip.NewWriterLevel(out, gzip.BestCompression)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(endEvalMagic)
	b.WriteByte(byte(len(stages)))
	for _, st := range stages {
		head := endEvalHead{uint8(st.stage), st.slope, st.mobility, st.parity}
		binary.Write(&b, binary.LittleEndian, head)
		binary.Write(&b, binary.LittleEndian, st.change)
	}
	if _, err := z.Write(b.Bytes()); err != nil {
		return err
	}
	return z.Close()
}
