package chess

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the pst evaluator: a compact weights
// file (games.WriteWeights) made by gametune's own pipeline, 16,000 games at
// depth 4, each label half the game's result and half the mover's search
// score, 116 minutes on 2 cores (the first 14 shared with another run). Its
// 2 rounds were both kept by their gates: +130.3 [+104.0, +158.1] over the
// empty tables (279 pairs), then +98.3 [+74.8, +122.8] over the first
// round's (370 pairs); the file holds the second round's fit, learned from
// 13,442 self-play games (1,769,939 positions). Results do not depend on
// --workers. This command made it, before the pawn-shelter and
// safe-checks tables existed; they are zero in the file (its header's
// source says so), and with them zero pst plays as that run's tables did.
// Run today, the same command learns them too and writes the next default:
//
//	tune learn --game chess --evaluator pst --start empty --budget-games 16000 \
//	    --depth 4 --rounds 2 --epochs 5 --lambda 0.5 --seed 1 -o games/chess/pst.gtw
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
