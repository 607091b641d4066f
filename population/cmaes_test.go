package population

import (
	"context"
	"math"
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

// TestCMAESFirstSpread: the first generation's candidates spread around
// the start by cmaes-sigma times each feature's range (within 20%), not
// over whole ranges.
func TestCMAESFirstSpread(t *testing.T) {
	cfg := smallTexel()
	cfg.Algo = CMAES
	cfg.CMAESGenerations, cfg.CMAESPopulation, cfg.CMAESPairs, cfg.CMAESSigma = 1, 200, 1, 0.1
	store := NewMemoryStore()
	tu := newTestTuner(t, cfg, 2, store, nil, nil)
	if _, err := tu.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	g := store.Generations[0]
	feats, start := tu.ev.Features, tu.ev.Defaults()
	sum, n := 0.0, 0
	for _, c := range g.Genomes[:cfg.CMAESPopulation] {
		for i, f := range feats {
			d := (c.Weights[i] - start[i]) / (f.Max - f.Min)
			sum += d * d
			n++
		}
	}
	spread := math.Sqrt(sum / float64(n))
	if math.Abs(spread-cfg.CMAESSigma) > 0.2*cfg.CMAESSigma {
		t.Fatalf("the first samples spread %.3f of each range; cmaes-sigma is %g", spread, cfg.CMAESSigma)
	}
	t.Logf("spread %.4f of each range for sigma %g over %d weights", spread, cfg.CMAESSigma, n)
}
