package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/checkers"
	"github.com/gametune/gametune/games/chess"
)

// randomGames plays n games of g of uniformly random legal moves, at most
// plies each (a game cut short counts as a draw), from a seeded generator.
func randomGames(g games.Game, n, plies int, seed uint64) *Set {
	rng := rand.New(rand.NewPCG(seed, 1))
	set := &Set{Game: g}
	var buf []games.Move
	for range n {
		p := g.Start()
		game := Game{Result: 0.5}
		for len(game.Moves) < plies {
			var out games.Outcome
			buf, out = p.Moves(buf[:0])
			if out != games.Ongoing {
				game.Result = map[games.Outcome]float64{games.FirstWins: 1, games.SecondWins: 0, games.Draw: 0.5}[out]
				break
			}
			m := buf[rng.IntN(len(buf))]
			game.Moves = append(game.Moves, m)
			p.Play(m)
		}
		set.Games = append(set.Games, game)
	}
	return set
}

// emptyTables is g's evaluator name with tables of zeros and its Scratch
// weights.
func emptyTables(t *testing.T, g games.Game, name string) (*games.Evaluator, []float64) {
	t.Helper()
	ev, w, err := Start(g, name, "empty")
	if err != nil {
		t.Fatal(err)
	}
	return ev, w
}

// TestFitQuietLeaves: the fit learns each position at its quiescence leaf
// (checkers' captures are forced, so many positions have one), labelled
// from the leaf's side to move: its terms and label are the leaf's, found
// here by a searcher of the test's own. Some leaves are an odd number of
// captures long, which turns the side to move and the label.
func TestFitQuietLeaves(t *testing.T) {
	g := checkers.Game()
	ev, w := emptyTables(t, g, "patterns")
	set := randomGames(g, 20, 120, 5)
	f, err := newFitter(ev, w, set, FitOptions{Workers: 1, HeldOut: -1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(engine.Options{TableMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	var leaf []games.Move
	var terms []games.TableTerm
	odd, checked := 0, 0
	for gi := range set.Games {
		st := &positions{perTerm: true}
		if err := f.replay(f.workers[0], gi, st); err != nil {
			t.Fatal(err)
		}
		i := 0
		err := set.Each(gi, gi+1, func(p games.Position, label, _ float64) error {
			turn := p.Turn()
			leaf, _ = s.QuietLeaf(p, ev, w, leaf[:0])
			for _, m := range leaf {
				p.Play(m)
			}
			want := label
			if p.Turn() != turn {
				want, odd = 1-label, odd+1
			}
			terms = ev.Terms(p, terms[:0])
			for range leaf {
				p.Undo()
			}
			lo, hi, _, _ := st.spans(i)
			got := st.entries[lo:hi]
			entries := make([]int32, len(terms))
			for j, x := range terms {
				entries[j] = x.Entry
			}
			if float64(st.labels[i]) != want || !slices.Equal(got, entries) {
				t.Fatalf("game %d, position %d (leaf of %d moves): label %v entries %v, want %v and %v", gi, i, len(leaf), st.labels[i], got, want, entries)
			}
			i, checked = i+1, checked+1
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if i != st.len() {
			t.Fatalf("game %d: %d positions fitted, %d replayed", gi, st.len(), i)
		}
	}
	if odd == 0 {
		t.Fatalf("none of the %d positions has a leaf that turns the side to move: the test shows nothing", checked)
	}
	t.Logf("%d positions, %d of them fitted at a leaf of the other side to move", checked, odd)
}

// TestFitScalarSteps: Adam's first step moves every scalar weight whose
// gradient is not zero by its feature's Step (pawn 1 centipawn, the
// passed-pawns factor 0.05) at the default Rate, and by twice that at
// twice the Rate: a scalar moves in its own units.
func TestFitScalarSteps(t *testing.T) {
	g := chess.Game()
	ev, w := emptyTables(t, g, "pst")
	set := randomGames(g, 40, 80, 9)
	for _, rate := range []float64{0, 1} {
		res, err := Fit(context.Background(), ev, w, set, FitOptions{Epochs: 1, BatchSize: 1 << 20, K: DefaultK, HeldOut: -1, Workers: 1, Rate: rate})
		if err != nil {
			t.Fatal(err)
		}
		moved := 0
		for i, ft := range ev.Features {
			if ev.IsScale(i) {
				if res.Weights[i] != w[i] {
					t.Errorf("scale %s moved from %v to %v: scales are held", ft.Name, w[i], res.Weights[i])
				}
				continue
			}
			d := math.Abs(res.Weights[i] - w[i])
			want := ft.Step * max(rate, 0.5) / 0.5
			if d == 0 || res.Weights[i] == ft.Min || res.Weights[i] == ft.Max {
				continue // no gradient, or stopped at its range
			}
			moved++
			if math.Abs(d-want) > 1e-3*want {
				t.Errorf("rate %v: %s moved by %v, want its step %v", rate, ft.Name, d, want)
			}
		}
		if moved < 10 {
			t.Errorf("rate %v: only %d scalars moved", rate, moved)
		}
	}
}
