package population

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/weights"
)

// TestStartRefusesOtherTables: a tuning run tunes an evaluator's scales and
// scalars over its shipped tables, so a start file with tables of its own
// is refused (they would be dropped), while one holding the shipped tables
// starts the run with its weights.
func TestStartRefusesOtherTables(t *testing.T) {
	g, _ := all.Find("othello")
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []float32, w []float64) string {
		bound, err := ev.WithData(data)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := weights.WriteWith(f, g, bound, w, nil, weights.Options{Encoding: weights.EncodingFloat32}); err != nil {
			t.Fatal(err)
		}
		return f.Name()
	}
	w := ev.Defaults()
	w[0] = 1.5
	other := append([]float32(nil), ev.Data...)
	other[7] += 3
	cfg := Config{Game: "othello", Evaluator: "patterns", Start: write("other.gtw", other, w)}
	if err := fillStart(&cfg, g); err == nil || !strings.Contains(err.Error(), "holds patterns tables of its own") {
		t.Errorf("other tables: %v", err)
	}
	cfg = Config{Game: "othello", Evaluator: "patterns", Start: write("same.gtw", ev.Data, w)}
	if err := fillStart(&cfg, g); err != nil || cfg.StartWeights[ev.Features[0].Name] != 1.5 {
		t.Errorf("the shipped tables: %v, start %v", err, cfg.StartWeights[ev.Features[0].Name])
	}
}
