package tournament

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/weights"
)

// TestBuiltinPlayer: built-in player specs with and without a limit of
// their own, named as tables show them; a file whose name holds a comma
// is still a file; bad limits are refused naming the setting.
func TestBuiltinPlayer(t *testing.T) {
	g, _ := all.Find("othello")
	full, _ := games.FindEvaluator(g, "full")
	dir := t.TempDir()
	path := filepath.Join(dir, "a,b.json")
	w := full.Defaults()
	w[0] = 30
	var b strings.Builder
	if err := weights.Write(&b, g, full, w, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	run := engine.Limits{Depth: 4}
	for _, tc := range []struct {
		spec, evaluator, name, ev string
		lim                       engine.Limits
		first                     float64
	}{
		{"default", "", "default:report", "report", run, 1},
		{"default", "full", "default:full", "full", run, 25},
		{"default:full", "", "default:full", "full", run, 25},
		{"default:full,depth=2", "", "default:full,depth=2", "full", engine.Limits{Depth: 2}, 25},
		{"default,nodes=500,depth=3", "full", "default:full,nodes=500,depth=3", "full", engine.Limits{Depth: 3, Nodes: 500}, 25},
		{path, "", path, "full", run, 30},
		{path + ",depth=1", "", path + ",depth=1", "full", engine.Limits{Depth: 1}, 30},
	} {
		pl, err := BuiltinPlayer(g, tc.evaluator, tc.spec, run)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if pl.Name != tc.name || pl.Evaluator.Name != tc.ev || pl.Limits != tc.lim || pl.Weights[0] != tc.first || pl.Engine != nil {
			t.Errorf("%s: %s %s %+v %v, want %s %s %+v %v", tc.spec, pl.Name, pl.Evaluator.Name, pl.Limits, pl.Weights[0], tc.name, tc.ev, tc.lim, tc.first)
		}
	}
	for spec, want := range map[string]string{
		"default,depth=0":     "depth=0: want a whole number from 1 to",
		"default:full,nodes=": "nodes=: want a whole number",
		"default,depth=1000":  "depth=1000",
		"default:nosuch":      "nosuch",
	} {
		if _, err := BuiltinPlayer(g, "", spec, run); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", spec, err, want)
		}
	}
	if _, err := BuiltinPlayer(g, "report", path, run); err == nil || !strings.Contains(err.Error(), "disagrees") {
		t.Errorf("a file of another evaluator than the one asked: %v", err)
	}
}

// TestRandomOpeningMoveBatch: a batch as moves leads to the positions of
// the same batch as positions, in the same order.
func TestRandomOpeningMoveBatch(t *testing.T) {
	g, _ := all.Find("othello")
	ctx := context.Background()
	pos, err := RandomOpeningBatch(ctx, g, "random:6", 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := RandomOpeningMoveBatch(ctx, g, "random:6", 5, 3)
	if err != nil || len(moves) != len(pos) || len(pos) == 0 {
		t.Fatalf("%d openings as moves (%v), %d as positions", len(moves), err, len(pos))
	}
	for i, m := range moves {
		p, err := ParseOpening(g, m)
		if err != nil || !strings.HasPrefix(m, "moves: ") || p != pos[i] {
			t.Fatalf("opening %d: %q leads to %q (%v), want %q", i, m, p, err, pos[i])
		}
	}
	if _, err := RandomOpeningMoveBatch(ctx, g, "random:6", 5, -1); err == nil {
		t.Fatal("batch -1 accepted")
	}
}
