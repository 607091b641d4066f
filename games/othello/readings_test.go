package othello

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestReadings: read (assembly on amd64) gives readGo's readings, and the
// readings a move's update gives, in assembly and in Go, are those read
// afresh, at every position and move of random games: the position after
// the move seen from its side to move (moveReadings) and from the side
// that played (undoReadings).
func TestReadings(t *testing.T) {
	moves := 0
	randomPositions(rand.New(rand.NewPCG(56, 3)), 40, func(p *Position) {
		me, them := uint64(p.mine()), uint64(p.theirs())
		var node, opp, want halfReadings
		node.read(me, them)
		if want.readGo(me, them); node != want {
			t.Fatalf("%s: read %x, readGo %x", p, node, want)
		}
		opp.read(them, me)
		for m := legalMoves(p.mine(), p.theirs()); m != 0; m &= m - 1 {
			sq := uint64(bits.TrailingZeros64(uint64(m)))
			fl := uint64(flips(p.mine(), p.theirs(), int(sq)))
			mine, theirs := me|fl|1<<sq, them&^fl
			var got, gotGo halfReadings
			want.readGo(theirs, mine)
			moveReadings(&opp, Bitboard(fl), int(sq), &got)
			updateReadingsGo(&squareReadings, &opp, fl, 1<<sq, 0, &gotGo)
			if got != want || gotGo != want {
				t.Fatalf("%s, move %d: moveReadings %x, in Go %x, read afresh %x", p, sq, got, gotGo, want)
			}
			want.readGo(mine, theirs)
			undoReadings(&node, Bitboard(fl), int(sq), &got)
			updateReadingsGo(&squareReadings, &node, 1<<sq, 0, fl, &gotGo)
			if got != want || gotGo != want {
				t.Fatalf("%s, move %d: undoReadings %x, in Go %x, read afresh %x", p, sq, got, gotGo, want)
			}
			moves++
		}
	})
	if moves < 1000 {
		t.Fatalf("checked only %d moves", moves)
	}
}

// TestFrontierPatternsReadings: Frontier with a patterns evaluator, which
// scores through readings updated move by move, finds what it finds
// through Evaluate (the same evaluator without Impl): the same scores,
// moves and counts, one and two plies above the horizon, in windows about
// the score, with the shipped tables and random ones.
func TestFrontierPatternsReadings(t *testing.T) {
	random, err := patternsEvaluator.WithData(randomPatternData(rand.New(rand.NewPCG(56, 4)), 20))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(56, 5))
	compared, evals := 0, 0
	for _, ev := range []*games.Evaluator{patternsEvaluator, random} {
		plain := *ev
		plain.Impl = nil
		w := ev.Defaults()
		for _, p := range patternPositions(56, 12) {
			if p.legal == 0 {
				continue
			}
			v := int32(ev.Evaluate(p, w))
			for depth := 1; depth <= 2; depth++ {
				for range 2 {
					alpha := v - int32(rng.IntN(200))
					beta := alpha + 1 + int32(rng.IntN(300))
					a := p.Frontier(ev, w, depth, alpha, beta, 30000, games.NoMove, [2][2]games.Move{})
					b := p.Frontier(&plain, w, depth, alpha, beta, 30000, games.NoMove, [2][2]games.Move{})
					if a != b {
						t.Fatalf("%s depth %d window (%d, %d): %+v through the readings, %+v through Evaluate", p, depth, alpha, beta, a, b)
					}
					compared, evals = compared+1, evals+a.Evals
				}
			}
		}
	}
	p, w := patternPositions(56, 2)[3], patternsEvaluator.Defaults()
	if a := testing.AllocsPerRun(50, func() {
		p.Frontier(patternsEvaluator, w, 2, -100, 100, 30000, games.NoMove, [2][2]games.Move{})
	}); a != 0 {
		t.Errorf("Frontier with patterns: %v allocations", a)
	}
	if compared < 200 || evals < 2000 {
		t.Fatalf("compared only %d searches, %d evaluations", compared, evals)
	}
}

// BenchmarkReadings reads the readings of random positions afresh, in
// assembly on amd64 (read) and in Go (readGo).
func BenchmarkReadings(b *testing.B) {
	positions := patternPositions(3, 10)
	for _, c := range []struct {
		name string
		read func(r *halfReadings, own, opp uint64)
	}{{"read", (*halfReadings).read}, {"go", (*halfReadings).readGo}} {
		b.Run(c.name, func(b *testing.B) {
			var r halfReadings
			i := 0
			for b.Loop() {
				p := positions[i%len(positions)]
				c.read(&r, uint64(p.mine()), uint64(p.theirs()))
				i++
			}
		})
	}
}
