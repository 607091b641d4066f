package chess

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the pst evaluator: a compact weights
// file (games.WriteWeights) made by gametune's own pipeline, 60,000 games of
// self-play at depth 2 (rounds 0 and 1 kept by their gates, 1.5 million
// positions in the kept fit), 25 minutes on one core. Results do not depend
// on --workers, so this rebuilds it:
//
//	tune learn --game chess --evaluator pst --start empty --budget-games 60000 \
//	    --depth 2 --rounds 4 --epochs 5 --seed 1 -o games/chess/pst.gtw
//
// TestWritePSTZero writes a file of zero tables and the Scratch weights,
// with which pst plays as textbook does:
//
//	go test ./games/chess -run TestWritePSTZero -write-pst
//
//go:embed pst.gtw
var shippedWeights []byte

// shippedPST is the pst evaluator bound to the shipped tables, its
// features' defaults the shipped weights. The file is read through the same
// checks as any weights file, against a game that holds the evaluator with
// empty tables (the registered game cannot be used: it is being defined).
func shippedPST() *games.Evaluator {
	empty := newPSTEvaluator(make([]float32, pstSize))
	g := games.Define("chess", doc, notation, Start, Parse, empty)
	ev, w, err := games.ParseWeights(shippedWeights, g)
	if err != nil {
		panic("chess: the shipped pst weights: " + err.Error())
	}
	for i := range ev.Features {
		ev.Features[i].Default = w[i]
	}
	return ev
}
