package all_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestEvaluatorsAreCopies: a caller that changes the evaluators it was
// handed (names, ranges, defaults, the feature list) changes nothing for
// the next caller.
func TestEvaluatorsAreCopies(t *testing.T) {
	for _, g := range all.Games() {
		t.Run(g.Name(), func(t *testing.T) {
			before := g.Evaluators()
			names := make([]string, len(before))
			for i, ev := range before {
				names[i] = ev.Name
			}
			wantFirst := before[0].Features[0]
			for _, ev := range before {
				ev.Name = "changed"
				ev.Features[0].Max, ev.Features[0].Default = 1e9, 1e9
				ev.Features = ev.Features[:0]
			}
			found, err := games.FindEvaluator(g, "")
			if err != nil {
				t.Fatal(err)
			}
			found.Features[0].Min = -1e9
			for i, ev := range g.Evaluators() {
				if ev.Name != names[i] || len(ev.Features) == 0 {
					t.Fatalf("evaluator %d is %q with %d features after a caller changed its copy", i, ev.Name, len(ev.Features))
				}
			}
			if got := g.Evaluators()[0].Features[0]; got != wantFirst {
				t.Fatalf("first feature is %+v after callers changed their copies, want %+v", got, wantFirst)
			}
		})
	}
}

// TestFind finds every game by name, in any case, and lists the names on a
// miss.
func TestFind(t *testing.T) {
	for _, name := range all.Names() {
		g, err := all.Find(name)
		if err != nil || g.Name() != name {
			t.Fatalf("Find(%q) = %v, %v", name, g, err)
		}
	}
	if _, err := all.Find("go"); err == nil {
		t.Fatal("Find(\"go\") found a game")
	}
}

// TestGamesCompareEqual: a game found twice is the same game (jobs and
// records compare the games they name), and two games differ.
func TestGamesCompareEqual(t *testing.T) {
	for _, name := range all.Names() {
		a, _ := all.Find(name)
		b, _ := all.Find(name)
		if a != b {
			t.Errorf("%s: two lookups give games that differ", name)
		}
		if _, ok := a.(games.Recorder); ok != (name == "chess" || name == "checkers" || name == "othello") {
			t.Errorf("%s: Recorder %v", name, ok)
		}
	}
	if gs := all.Games(); gs[0] == gs[1] {
		t.Errorf("%s and %s compare equal", gs[0].Name(), gs[1].Name())
	}
}

// TestFeatureValuesDotWeights: every evaluator of every game has
// FeatureValues, and its values dotted with random weights in the ranges
// give Evaluate to its rounding (within 0.5, plus float noise) on random
// positions of random games; FeatureValues does not allocate.
func TestFeatureValuesDotWeights(t *testing.T) {
	for _, g := range all.Games() {
		for _, ev := range g.Evaluators() {
			t.Run(g.Name()+"/"+ev.Name, func(t *testing.T) {
				if ev.FeatureValues == nil {
					t.Fatal("no FeatureValues")
				}
				rng := rand.New(rand.NewPCG(1, 2))
				f := make([]float64, len(ev.Features))
				w := make([]float64, len(ev.Features))
				var moves []games.Move
				checked := 0
				for game := 0; game < 40; game++ {
					p := g.Start()
					for ply := 0; ply < 200; ply++ {
						var out games.Outcome
						moves, out = p.Moves(moves[:0])
						if out != games.Ongoing || len(moves) == 0 {
							break
						}
						for i, ft := range ev.Features {
							w[i] = ft.Min + rng.Float64()*(ft.Max-ft.Min)
						}
						ev.FeatureValues(p, f)
						dot := 0.0
						for i := range f {
							dot += w[i] * f[i]
						}
						if e := ev.Evaluate(p, w); math.Abs(dot-float64(e)) > 0.5+1e-6 {
							t.Fatalf("%s: features·weights %v, Evaluate %d", p, dot, e)
						}
						checked++
						p.Play(moves[rng.IntN(len(moves))])
					}
				}
				if checked < 40 {
					t.Fatalf("only %d positions checked", checked)
				}
				p := g.Start()
				if n := testing.AllocsPerRun(10, func() { ev.FeatureValues(p, f) }); n != 0 {
					t.Errorf("FeatureValues allocates %v times", n)
				}
			})
		}
	}
}
