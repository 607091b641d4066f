package othello

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEndEvalPredictsExactScores: on self-play positions of 10 to 18 empty
// squares that the fit never saw (another seed), solved exactly here, the
// endgame tables predict the final disc difference better than where
// their fit began: the shipped patterns evaluation brought to the disc
// difference's scale by each stage's line.
func TestEndEvalPredictsExactScores(t *testing.T) {
	if testing.Short() {
		t.Skip("solves endgames of 10 to 18 empty squares")
	}
	per := 30
	if n, err := strconv.Atoi(os.Getenv("GAMETUNE_ENDEVAL_TEST")); err == nil && n > 0 {
		per = n
	}
	positions := selfPlayEndgames(rand.New(rand.NewPCG(4, 2)), wantEmpties(10, 18, per))
	rows := endRows(solveSamples(t, positions))
	stages, err := readEndEval(bytes.NewReader(shippedEndEval))
	if err != nil {
		t.Fatal(err)
	}
	end, start := endErrorsFrom(t, rows, stages)
	var sumEnd, sumStart float64
	for e := 10; e <= 18; e++ {
		t.Logf("%d empties: the fit's start %.2f discs, the endgame tables %.2f", e, start[e], end[e])
		sumEnd, sumStart = sumEnd+end[e]*end[e], sumStart+start[e]*start[e]
	}
	rmsEnd, rmsStart := math.Sqrt(sumEnd/9), math.Sqrt(sumStart/9)
	t.Logf("root mean square: the fit's start %.2f discs, the endgame tables %.2f", rmsStart, rmsEnd)
	if rmsEnd > 0.95*rmsStart {
		t.Errorf("the endgame tables err by %.2f discs, their fit's start by %.2f: want at most 95%%", rmsEnd, rmsStart)
	}
}

// TestEndEvalFileRoundTrip: the shipped file reads, and writes back to
// what reads the same.
func TestEndEvalFileRoundTrip(t *testing.T) {
	stages, err := readEndEval(bytes.NewReader(shippedEndEval))
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != len(endEvalStages) {
		t.Fatalf("%d stages, want %d", len(stages), len(endEvalStages))
	}
	var b bytes.Buffer
	if err := writeEndEval(&b, stages); err != nil {
		t.Fatal(err)
	}
	again, err := readEndEval(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stages {
		a, c := stages[i], again[i]
		if a.stage != c.stage || a.slope != c.slope || a.mobility != c.mobility || a.parity != c.parity ||
			!slices.Equal(a.change, c.change) {
			t.Fatalf("stage %d differs after a round trip", a.stage)
		}
	}
}

// endEvalBytes is an endeval.bin stream of raw (the bytes after gzip).
func endEvalBytes(raw []byte) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write(raw)
	z.Close()
	return b.Bytes()
}

// endEvalRaw is the unzipped bytes of a file with one stage of the given
// head and n changes.
func endEvalRaw(count byte, stage uint8, slope float64, n int) []byte {
	var b bytes.Buffer
	b.WriteString(endEvalMagic)
	b.WriteByte(count)
	binary.Write(&b, binary.LittleEndian, endEvalHead{stage, slope, 1, 1})
	binary.Write(&b, binary.LittleEndian, make([]int16, n))
	return b.Bytes()
}

// TestReadEndEvalErrors: a damaged file is refused with what is wrong.
func TestReadEndEvalErrors(t *testing.T) {
	n := stageEntries()
	good := endEvalRaw(1, 5, 0.5, n)
	if _, err := readEndEval(bytes.NewReader(endEvalBytes(good))); err != nil {
		t.Fatalf("a well-formed file: %v", err)
	}
	two := append(append([]byte(nil), good...), good[len(endEvalMagic)+1:]...)
	two[len(endEvalMagic)] = 2
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("hello"), "not a gzip stream"},
		{"another file", endEvalBytes([]byte("gametune othello something else\n")), "not an endgame tables file"},
		{"no stages", endEvalBytes(endEvalRaw(0, 5, 0.5, n)[:len(endEvalMagic)+1]), "want 1 to 8 stages"},
		{"stage 8", endEvalBytes(endEvalRaw(1, 8, 0.5, n)), "want a stage of 0 to 7"},
		{"a stage twice", endEvalBytes(two), "each once"},
		{"NaN slope", endEvalBytes(endEvalRaw(1, 5, math.NaN(), n)), "finite number"},
		{"short table", endEvalBytes(endEvalRaw(1, 5, 0.5, n-1)), "table changes"},
		{"bytes after", endEvalBytes(append(append([]byte(nil), good...), 0)), "bytes after the last stage"},
	} {
		_, err := readEndEval(bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// FuzzReadEndEval: no stream makes readEndEval panic or read without
// bound; what it accepts writes back to what it reads the same.
func FuzzReadEndEval(f *testing.F) {
	f.Add(shippedEndEval)
	f.Add(endEvalBytes(endEvalRaw(1, 5, 0.5, 10)))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		stages, err := readEndEval(bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := writeEndEval(&b, stages); err != nil {
			t.Fatal(err)
		}
		if _, err := readEndEval(&b); err != nil {
			t.Fatalf("a file read writes back unreadable: %v", err)
		}
	})
}
