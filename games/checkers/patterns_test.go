package checkers

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/gametune/gametune/weights"
)

var writePatternsZero = flag.Bool("write-patterns-zero", false, "rewrite patterns.gtw with every table zero and the Scratch weights")

// TestWritePatternsZero writes patterns.gtw, the shipped default, with
// every table zero and the Scratch weights, when run with
// -write-patterns-zero (see patterns_default.go); it reads the file back
// through the checks of any weights file.
func TestWritePatternsZero(t *testing.T) {
	if !*writePatternsZero {
		t.Skip("writes patterns.gtw with -write-patterns-zero")
	}
	ev := newPatternsEvaluator(make([]float32, patternDataSize))
	var buf bytes.Buffer
	source := map[string]any{"made": "every table zero, the Scratch weights: full's evaluation (go test -run TestWritePatternsZero -write-patterns-zero)"}
	if err := weights.Write(&buf, Game(), ev, ev.Scratch, source); err != nil {
		t.Fatal(err)
	}
	if _, _, err := weights.Parse(buf.Bytes(), Game()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("patterns.gtw", buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
