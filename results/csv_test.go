package results

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/population"
)

// TestExportCSVQuotes: a feature name holding a comma or a quote (an
// engine option's) stays one field: the export reads back with
// encoding/csv, column for column.
func TestExportCSVQuotes(t *testing.T) {
	ev := &games.Evaluator{Name: "engine", Features: []games.Feature{{Name: "Hash, MiB"}, {Name: `say "hi"`}}}
	hist := []population.Generation{{Index: 0, Best: 2, Genomes: []population.Genome{
		{ID: 1, Weights: []float64{16, 0.5}, Fitness: 0.25},
		{ID: 2, Parents: []int{1, 3}, Weights: []float64{32, -1}, Fitness: 0.75},
	}}}
	data, err := Export("csv", nil, ev, hist, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	want := [][]string{
		{"generation", "genome", "parents", "fitness", "wins", "draws", "losses", "best", "Hash, MiB", `say "hi"`},
		{"0", "1", "", "0.25", "0", "0", "0", "0", "16", "0.5"},
		{"0", "2", "1 3", "0.75", "0", "0", "0", "1", "32", "-1"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("%q\nwant %q", rows, want)
	}
}
