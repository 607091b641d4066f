package population

import (
	"context"
	"reflect"
	"slices"
	"testing"
)

// TestSurvivorsKeepTheirIDs: a genetic elite and a knockout's defending
// winner are carried into the next generation under their own id, with
// their parents and weights (an elite with its games so far as its
// prior); every other genome of a generation has an id no earlier
// generation used.
func TestSurvivorsKeepTheirIDs(t *testing.T) {
	for _, algo := range []Algo{Genetic, Knockout} {
		t.Run(string(algo), func(t *testing.T) {
			cfg := smallGenetic()
			cfg.Algo, cfg.Generations, cfg.Elite = algo, 6, 2
			cfg.Rounds, cfg.Candidates, cfg.Scale, cfg.Window = 6, 5, 1, 100
			store := NewMemoryStore()
			if _, err := newTestTuner(t, cfg, 1, store, nil, nil).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			survivors := 2 // the elites
			if algo == Knockout {
				survivors = 1 // the defending winner, candidate 0
			}
			hist := store.Generations
			if len(hist) != 6 {
				t.Fatalf("%d generations, want 6", len(hist))
			}
			seen := map[int]bool{}
			for _, x := range hist[0].Genomes {
				seen[x.ID] = true
			}
			kept := 0
			for gi, g := range hist[1:] {
				before := hist[gi]
				for i, x := range g.Genomes {
					if i >= survivors {
						if seen[x.ID] {
							t.Errorf("generation %d: the new genome %d has an id used before", g.Index, x.ID)
						}
						seen[x.ID] = true
						continue
					}
					j := slices.IndexFunc(before.Genomes, func(y Genome) bool { return y.ID == x.ID })
					if j < 0 {
						t.Errorf("generation %d: survivor %d is no genome of generation %d", g.Index, x.ID, before.Index)
						continue
					}
					was := before.Genomes[j]
					if !slices.Equal(x.Weights, was.Weights) || !reflect.DeepEqual(x.Parents, was.Parents) {
						t.Errorf("generation %d: survivor %d changed: %v %v, was %v %v", g.Index, x.ID, x.Weights, x.Parents, was.Weights, was.Parents)
					}
					if algo == Genetic && x.Prior != was.Total() {
						t.Errorf("generation %d: elite %d carries %+v, want its record so far %+v", g.Index, x.ID, x.Prior, was.Total())
					}
					if algo == Knockout && x.ID != before.Best {
						t.Errorf("round %d: candidate 0 is %d, want the last winner %d", g.Index, x.ID, before.Best)
					}
					kept++
				}
			}
			if kept != 5*survivors {
				t.Fatalf("%d survivors kept their ids, want %d", kept, 5*survivors)
			}
		})
	}
}
