package checkers

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the patterns evaluator: a compact
// weights file (games.WriteWeights), to be replaced by the tables gametune's
// own pipeline fits:
//
//	tune learn --game checkers --evaluator patterns ... -o games/checkers/patterns.gtw
//
// Until then it holds every table zero and the Scratch weights, so that the
// evaluator plays as full does. That file is written by
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
