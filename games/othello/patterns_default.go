package othello

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the patterns evaluator: a compact
// weights file (games.WriteWeights) made by gametune's own pipeline;
// docs/learn.md ("Othello patterns") gives the command and seed that
// rebuild it:
//
//	tune learn --game othello --evaluator patterns ... -o games/othello/patterns.gtw
//
//go:embed patterns.gtw
var shippedWeights []byte

// shippedPatterns is the patterns evaluator bound to the shipped tables,
// its features' defaults the shipped weights. The file is read through the
// same checks as any weights file, against a game that holds the evaluator
// with empty tables (the registered game cannot be used: it is being
// defined).
func shippedPatterns() *games.Evaluator {
	empty := newPatternsEvaluator(make([]float32, layout().size))
	g := games.Define("othello", doc, notation, Start, Parse, empty)
	ev, w, err := games.ParseWeights(shippedWeights, g)
	if err != nil {
		panic("othello: the shipped patterns weights: " + err.Error())
	}
	for i := range ev.Features {
		ev.Features[i].Default = w[i]
	}
	return ev
}
