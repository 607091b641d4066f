package chess

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/gametune/gametune/games"
)

var writePST = flag.Bool("write-pst", false, "rewrite pst.gtw: the pst evaluator with tables of zeros and its Scratch weights")

// emptyPST is the pst evaluator with tables of zeros.
var emptyPST = newPSTEvaluator(make([]float32, pstSize))

// TestWritePSTZero writes the compact weights file of tables of zeros and
// the Scratch weights, and checks that it reads back as such; with
// -write-pst it rewrites pst.gtw, the shipped default, with it.
func TestWritePSTZero(t *testing.T) {
	var b bytes.Buffer
	source := map[string]any{"made": "tables of zeros, textbook's weights: go test ./games/chess -run TestWritePSTZero -write-pst"}
	if err := games.WriteWeights(&b, Game(), emptyPST, emptyPST.Scratch, source); err != nil {
		t.Fatal(err)
	}
	ev, w, err := games.ParseWeights(b.Bytes(), Game())
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "pst" || !slices.Equal(w, emptyPST.Scratch) || slices.ContainsFunc(ev.Data, func(v float32) bool { return v != 0 }) {
		t.Fatalf("the zero file reads back as %s, weights %v, tables not all zero", ev.Name, w)
	}
	if *writePST {
		if err := os.WriteFile("pst.gtw", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
