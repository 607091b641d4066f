package chess

import (
	_ "embed"

	"github.com/gametune/gametune/games"
)

// shippedWeights is the default of the pst evaluator: a compact weights
// file (games.WriteWeights) made by gametune's own pipeline in three steps,
// about five and a half hours on 2 cores in all.
//
// First, 16,000 games at depth 4 from empty tables, each label half the
// game's result and half the mover's search score, 116 minutes: 2 rounds,
// both kept by their gates (+130.3 [+104.0, +158.1] over the empty tables,
// then +98.3 [+74.8, +122.8]), the second fitted on 13,442 games. Those
// tables (commit 514a7c1) were the default until this file; made before
// the pawn-shelter and safe-checks tables existed, they had them at zero:
//
//	tune learn --game chess --evaluator pst --start empty --budget-games 16000 \
//	    --depth 4 --rounds 2 --epochs 5 --lambda 0.5 --seed 1 -o first.gtw
//
// Then those tables (first.gtw; the default then) played 8,750 more games
// of self-play into one positions file F, in three runs (each appends its
// self-play games, its openings continuing from the file's count; their
// fits were not kept):
// 3,750 at depth 4 (the first run, stopped after its self-play, 88 minutes
// sharing the cores), 3,000 at depth 3 (46 minutes with its fit and gate),
// 2,000 at depth 4 (56 minutes). The first two played before the engine
// scored repetitions as draws, so today's run plays other games:
//
//	tune learn --game chess --evaluator pst --start first.gtw --rounds 1 --lambda 0.5 \
//	    --positions F --depth 4 --budget-games 5000 --seed 7
//	tune learn ... --positions F --depth 3 --budget-games 4000 --seed 28
//	tune learn ... --positions F --depth 4 --budget-games 2002 --gate-pairs 1 --seed 29
//
// Last, every feature and table refitted on F's 1,142,996 positions (one
// self-play game more), kept by its gate at depth 4: +34.3 [+11.0, +57.8]
// over those tables (300 pairs), 17.5 minutes; on openings the gate never
// saw, +5.2 [-24.2, +34.7] at depth 4 (200 pairs) and +17.4 [-22.1, +57.3]
// at depth 5 (120 pairs): no measured gain over them in self-play
// (docs/experiments.md, "Chess pst: the shipped tables").
// This file is that fit:
//
//	tune learn --game chess --evaluator pst --start first.gtw --rounds 1 --depth 4 \
//	    --gate-pairs 300 --budget-games 601 --positions F --lambda 0.5 --epochs 5 \
//	    --seed 41 -o games/chess/pst.gtw
//
// Results do not depend on --workers.
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
