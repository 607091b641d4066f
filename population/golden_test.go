package population

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenGeneticRun: a full genetic run of tic-tac-toe at tiny size
// through the MemoryStore ends with exactly the recorded best weights and
// fitness, generation by generation, with 1 and with 2 workers. After a
// deliberate change of the algorithm, check the new run and rewrite the
// file with: go test ./population -run Golden -update
func TestGoldenGeneticRun(t *testing.T) {
	cfg := smallGenetic()
	cfg.Seed = 42
	// The yardstick at every generation, as the file records it: the
	// auto schedule would measure only the last (see TestYardstickShare).
	cfg.YardstickEvery = 1
	var got [2][]byte
	for i, workers := range []int{1, 2} {
		store := NewMemoryStore()
		res, err := newTestTuner(t, cfg, workers, store, nil, nil).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got[i] = goldenSummary(store, res)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("1 worker:\n%s\n2 workers:\n%s", got[0], got[1])
	}
	path := filepath.Join("testdata", "genetic-tictactoe.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got[0], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(got[0], want) {
		t.Errorf("the run differs from %s (check it, then run with -update):\ngot:\n%s\nwant:\n%s", path, got[0], want)
	}
}

// goldenSummary writes a run's best genome per generation and its result,
// every float exactly.
func goldenSummary(store *MemoryStore, res Result) []byte {
	var b bytes.Buffer
	for _, g := range store.Generations {
		for _, x := range g.Genomes {
			if x.ID == g.Best {
				fmt.Fprintf(&b, "generation %d: best %d fitness %s weights %s record %d-%d-%d\n", g.Index, x.ID, exact(x.Fitness), exactAll(x.Weights), x.Wins, x.Draws, x.Losses)
			}
		}
		if y := g.Yardstick; y != nil {
			fmt.Fprintf(&b, "generation %d: yardstick %d-%d-%d\n", g.Index, y.Wins, y.Draws, y.Losses)
		}
	}
	fmt.Fprintf(&b, "result: best %d fitness %s weights %s after %d generations\n", res.Best.ID, exact(res.Best.Fitness), exactAll(res.Best.Weights), res.Generations)
	return b.Bytes()
}

func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func exactAll(vs []float64) string {
	out := "["
	for i, v := range vs {
		if i > 0 {
			out += " "
		}
		out += exact(v)
	}
	return out + "]"
}
