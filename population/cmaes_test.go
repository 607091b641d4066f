package population

import (
	"context"
	"testing"
)

// TestCMAESRun: a short CMA-ES run records one generation per CmaEsChol
// iteration with the candidates and the new mean as champion, every game
// under its own stage.
func TestCMAESRun(t *testing.T) {
	cfg := smallTexel()
	cfg.Algo = CMAES
	store := NewMemoryStore()
	res, err := newTestTuner(t, cfg, 2, store, nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(store.Generations) != 3 || res.Stop != StopGenerations {
		t.Fatalf("%d generations, stop %q", len(store.Generations), res.Stop)
	}
	g := store.Generations[2]
	if len(g.Genomes) != 5 || g.Best != g.Genomes[4].ID || res.Best.ID != g.Best {
		t.Fatalf("generation 2: %d genomes, best %d; want 4 candidates and the mean", len(g.Genomes), g.Best)
	}
	if _, ok, _ := store.Game(GameKey{StageCMAES, 2, 7}); !ok {
		t.Fatal("the last generation's games are not recorded under the cmaes stage")
	}
}
