package chess

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the pst evaluator: a compact weights
// file (games.WriteWeights). For now its tables are zeros and its weights
// the Scratch ones, so that pst plays as textbook does; TestWritePSTZero
// rebuilds that file:
//
//	go test ./games/chess -run TestWritePSTZero -write-pst
//
// A fit replaces it with learned tables:
//
//	tune learn --game chess --evaluator pst --start empty ... -o games/chess/pst.gtw
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
