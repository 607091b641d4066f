// Package gametest holds the checks every game's tests run: random games
// through the whole contract (notation round trips, hashes, undo) and the
// body of the position fuzzers. It imports only games, like the games
// themselves; the checks that search live in engine/enginetest.
package gametest

import (
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
)

// RandomGames plays n games of random legal moves from g's start position
// (seeded with seed) and checks at every ply that each move played formats
// and parses back to itself, that the position's notation reads back with
// the same hash (the incremental hash equals a fresh one), that Undo
// restores the notation and the hash, that a games.Outcomer's Outcome
// agrees with Moves, and that a games.Frontier's search agrees with the
// moves played one by one (see CheckFrontier). It returns how the games
// ended.
func RandomGames(t *testing.T, g games.Game, n int, seed uint64) map[games.Outcome]int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x9a3e))
	outcomes := map[games.Outcome]int{}
	var buf []games.Move
	evs := g.Evaluators()
	for i := 0; i < n; i++ {
		p := g.Start()
		for ply := 0; ; ply++ {
			moves, o := p.Moves(buf)
			buf = moves
			if oc, ok := p.(games.Outcomer); ok && oc.Outcome() != o {
				t.Fatalf("%s %s: Outcome() is %v, Moves gives %v", g.Name(), p, oc.Outcome(), o)
			}
			if _, ok := p.(games.Frontier); ok {
				ev := evs[(i+ply)%len(evs)]
				CheckFrontier(t, p, ev, ev.Defaults())
			}
			if e, ok := p.(games.Ender); ok {
				if left := e.PliesLeft(); left >= 0 && left <= e.EndPlies() {
					CheckEnder(t, p)
				}
			}
			if o != games.Ongoing {
				outcomes[o]++
				break
			}
			if ply > 2000 {
				t.Fatalf("%s: a random game passed 2000 plies without ending: %s", g.Name(), p)
			}
			m := moves[rng.IntN(len(moves))]
			text := p.FormatMove(m)
			if back, err := p.ParseMove(text); err != nil || back != m {
				t.Fatalf("%s %s: move %s reads back as %v (%v)", g.Name(), p, text, back, err)
			}
			before, hash := p.String(), p.Hash()
			p.Play(m)
			q, err := g.ParsePosition(p.String())
			if err != nil {
				t.Fatalf("%s: after %s, %q does not read back: %v", g.Name(), text, p.String(), err)
			}
			if q.Hash() != p.Hash() {
				t.Fatalf("%s: after %s the incremental hash %x differs from a fresh one %x (%s)", g.Name(), text, p.Hash(), q.Hash(), p)
			}
			p.Undo()
			if p.String() != before || p.Hash() != hash {
				t.Fatalf("%s: undo of %s gives %s, want %s", g.Name(), text, p, before)
			}
			p.Play(m)
		}
	}
	return outcomes
}

// CheckFrontier checks p's games.Frontier search at each depth it takes
// against plain minimax through Play, Moves, Evaluate and Undo: the value
// with a full window, the move and its answer scoring it, a score on the
// right side of every narrower window (fail-soft), the move to try first
// and the killers changing nothing but the order, and p unchanged.
func CheckFrontier(t *testing.T, p games.Position, ev *games.Evaluator, w []float64) {
	t.Helper()
	const win = 1 << 23
	f := p.(games.Frontier)
	before, hash := p.String(), p.Hash()
	moves, o := p.Moves(nil)
	for depth := 1; depth <= f.FrontierDepth(); depth++ {
		var killers [2][2]games.Move
		first := games.NoMove
		if len(moves) > 1 {
			first, killers[0][0] = moves[len(moves)-1], moves[len(moves)/2]
		}
		r := f.Frontier(ev, w, depth, -games.MaxEval-win-1, games.MaxEval+win+1, win, first, killers)
		if p.String() != before || p.Hash() != hash {
			t.Fatalf("%s: Frontier at depth %d left the position as %s", before, depth, p)
		}
		if o != games.Ongoing {
			if r.Outcome != o {
				t.Fatalf("%s: Frontier gives outcome %v, Moves %v", p, r.Outcome, o)
			}
			return
		}
		if r.Outcome != games.Ongoing {
			t.Fatalf("%s: Frontier gives outcome %v on a game that goes on", p, r.Outcome)
		}
		want, leaves, evals := int32(-games.MaxEval-win-1), 0, 0
		var moveScore, replyScore int32
		for _, m := range moves {
			p.Play(m)
			v, l, e := minimaxTo(p, depth-1, ev, w, win)
			if m == r.Move {
				moveScore = -v
				if r.Reply != games.NoMove {
					p.Play(r.Reply)
					rv, _, _ := minimaxTo(p, depth-2, ev, w, win-1)
					replyScore = -rv
					p.Undo()
				}
			}
			p.Undo()
			want, leaves, evals = max(want, -v), leaves+l+1, evals+e
		}
		if r.Score != want || moveScore != want || r.Leaves > leaves || r.Evals > evals {
			t.Fatalf("%s (%s) depth %d: Frontier gives %d by %s (%d moves, %d evaluations), minimax %d (%d moves, %d evaluations); the move scores %d",
				p, ev.Name, depth, r.Score, p.FormatMove(r.Move), r.Leaves, r.Evals, want, leaves, evals, moveScore)
		}
		if depth == 1 && r.Reply != games.NoMove || r.Reply != games.NoMove && replyScore != -want {
			t.Fatalf("%s (%s) depth %d: Frontier's answer to %s scores %d, the move %d", p, ev.Name, depth, p.FormatMove(r.Move), replyScore, want)
		}
		for _, d := range []int32{-300, -40, -1, 0, 1, 40, 300} {
			alpha, beta := want+d-1, want+d+1
			if d == 300 {
				alpha = want - 700 // a wide window, its bound above the value
			}
			r := f.Frontier(ev, w, depth, alpha, beta, win, first, killers)
			switch {
			case want <= alpha && (r.Score > alpha || r.Score < want),
				want >= beta && (r.Score < beta || r.Score > want),
				want > alpha && want < beta && r.Score != want:
				t.Fatalf("%s (%s) depth %d: Frontier in (%d, %d) gives %d, the value is %d", p, ev.Name, depth, alpha, beta, r.Score, want)
			}
		}
	}
	if p.String() != before || p.Hash() != hash {
		t.Fatalf("%s: Frontier left the position as %s", before, p)
	}
}

// minimaxTo is the value of p searched to depth by plain minimax, scored as
// a Frontier scores it (a finished game at p scores ±win), with the moves
// it played and the positions it evaluated.
func minimaxTo(p games.Position, depth int, ev *games.Evaluator, w []float64, win int32) (int32, int, int) {
	moves, o := p.Moves(nil)
	if o != games.Ongoing {
		wn, ok := o.Winner()
		switch {
		case !ok:
			return 0, 0, 0
		case wn == p.Turn():
			return win, 0, 0
		}
		return -win, 0, 0
	}
	if depth <= 0 {
		return int32(min(max(ev.Evaluate(p, w), -games.MaxEval), games.MaxEval)), 0, 1
	}
	best, leaves, evals := int32(-games.MaxEval-win-1), 0, 0
	for _, m := range moves {
		p.Play(m)
		v, l, e := minimaxTo(p, depth-1, ev, w, win-1)
		p.Undo()
		best, leaves, evals = max(best, -v), leaves+l+1, evals+e
	}
	return best, leaves, evals
}

// CheckEnder checks p's games.Ender search against plain minimax to the end
// of the game through Play, Moves and Undo: the same score with a full
// window, a score on the right side of every narrower window, a budget
// that stops the search when it is one move short, and p unchanged.
func CheckEnder(t *testing.T, p games.Position) {
	t.Helper()
	const win = 1 << 23
	e := p.(games.Ender)
	before, hash := p.String(), p.Hash()
	want, nodes := endMinimax(p, win)
	r := e.SolveEnd(-win-1, win+1, win, 1<<62)
	if r.Stopped || r.Score != want {
		t.Fatalf("%s: SolveEnd gives %d (stopped %v), minimax to the end %d", p, r.Score, r.Stopped, want)
	}
	if r.Nodes < 1 && nodes > 0 || r.Nodes > nodes {
		t.Fatalf("%s: SolveEnd played %d moves, minimax %d", p, r.Nodes, nodes)
	}
	if r.Move != games.NoMove {
		p.Play(r.Move)
		after, _ := endMinimax(p, win-1)
		p.Undo()
		if -after != want {
			t.Fatalf("%s: SolveEnd's move %s scores %d, the position %d", p, p.FormatMove(r.Move), -after, want)
		}
	}
	for _, d := range []int32{-win + 3, -64, -1, 0, 1, 64, win - 3} {
		alpha, beta := want+d-1, want+d+1
		r := e.SolveEnd(alpha, beta, win, 1<<62)
		switch {
		case r.Stopped,
			want <= alpha && r.Score > alpha, // must fail low
			want >= beta && r.Score < beta,   // must fail high
			want > alpha && want < beta && r.Score != want:
			t.Fatalf("%s: SolveEnd in (%d, %d) gives %d, the value is %d", p, alpha, beta, r.Score, want)
		}
	}
	if r.Nodes > 0 {
		short := e.SolveEnd(-win-1, win+1, win, r.Nodes-1)
		if !short.Stopped || short.Nodes != r.Nodes-1 {
			t.Fatalf("%s: SolveEnd with a budget of %d moves of the %d it needs: stopped %v after %d", p, r.Nodes-1, r.Nodes, short.Stopped, short.Nodes)
		}
	}
	if p.String() != before || p.Hash() != hash {
		t.Fatalf("%s: SolveEnd left the position as %s", before, p)
	}
}

// endMinimax is the value of p with play to the end of the game, scored as
// an Ender scores it, and the moves it played.
func endMinimax(p games.Position, win int32) (int32, int64) {
	moves, o := p.Moves(nil)
	if o != games.Ongoing {
		w, ok := o.Winner()
		switch {
		case !ok:
			return 0, 0
		case w == p.Turn():
			return win, 0
		}
		return -win, 0
	}
	best, nodes := int32(-win-1), int64(0)
	for _, m := range moves {
		p.Play(m)
		sc, n := endMinimax(p, win-1)
		p.Undo()
		best, nodes = max(best, -sc), nodes+n+1
	}
	return best, nodes
}

// ParsedRoundTrip is the body of every position fuzzer: when g reads s, the
// position's notation reads back to the same notation and hash, and every
// legal move plays, formats and undoes without harm.
func ParsedRoundTrip(t *testing.T, g games.Game, s string) {
	t.Helper()
	p, err := g.ParsePosition(s)
	if err != nil {
		return
	}
	q, err := g.ParsePosition(p.String())
	if err != nil || q.String() != p.String() || q.Hash() != p.Hash() {
		t.Fatalf("%s: %q reads as %q, which reads back as %v (%v)", g.Name(), s, p, q, err)
	}
	moves, _ := p.Moves(nil)
	before := p.String()
	for _, m := range moves {
		p.FormatMove(m)
		p.Play(m)
		p.Undo()
	}
	if p.String() != before {
		t.Fatalf("%s: playing and undoing the moves of %q changed it to %q", g.Name(), before, p)
	}
}

// RandomTables draws n table entries from a normal law of deviation scale:
// tables of the magnitude fitted ones have, for tests and benchmarks of
// evaluators with tables.
func RandomTables(rng *rand.Rand, n int, scale float64) []float32 {
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(rng.NormFloat64() * scale)
	}
	return data
}

// RandomWeights draws each of ev's weights uniformly within its feature's
// range.
func RandomWeights(rng *rand.Rand, ev *games.Evaluator) []float64 {
	w := make([]float64, len(ev.Features))
	for i, f := range ev.Features {
		w[i] = f.Min + rng.Float64()*(f.Max-f.Min)
	}
	return w
}
