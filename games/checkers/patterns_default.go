package checkers

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the patterns evaluator: a compact
// weights file (games.WriteWeights) made by gametune's own pipeline, 48,166
// games of self-play at depth 6 in four rounds, each kept by its gate, 5.85
// million positions, 34 minutes on one core (docs/experiments.md gives the
// figures). Results do not depend on --workers, so this rebuilds it:
//
//	tune learn --game checkers --evaluator patterns --start empty --budget-games 50000 \
//	    --depth 6 --rounds 4 --epochs 5 --seed 1 -o games/checkers/patterns.gtw
//
// TestWritePatternsZero writes a file of zero tables and the Scratch
// weights, with which the evaluator plays as full does:
//
//	go test ./games/checkers -run TestWritePatternsZero -write-patterns-zero
//
// (when the evaluator's features or tables change, the old file no longer
// parses and the package cannot start: empty patterns.gtw first, which this
// package reads as that same zero file).
//
//go:embed patterns.gtw
var shippedWeights []byte

// shippedPatterns is the patterns evaluator bound to the shipped tables,
// its features' defaults the shipped weights. The file is read through the
// same checks as any weights file, against a game that holds the evaluator
// with empty tables (the registered game cannot be used: it is being
// defined). An empty file stands for the zero tables and Scratch weights.
func shippedPatterns() *games.Evaluator {
	empty := newPatternsEvaluator(make([]float32, patternDataSize))
	if len(shippedWeights) == 0 {
		return empty
	}
	g := games.Define("checkers", doc, notation, Start, Parse, empty)
	ev, w, err := games.ParseWeights(shippedWeights, g)
	if err != nil {
		panic("checkers: the shipped patterns weights: " + err.Error())
	}
	for i := range ev.Features {
		ev.Features[i].Default = w[i]
	}
	return ev
}
