package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/weights"
)

// patternsFile writes othello's patterns evaluator with random tables
// (seed) as a compact weights file and returns its header and data, the
// file decompressed.
func patternsFile(t *testing.T, seed uint64) (weights.TablesHeader, []byte) {
	t.Helper()
	g := othello.Game()
	ev, _ := games.FindEvaluator(g, "patterns")
	rng := rand.New(rand.NewPCG(seed, 2))
	data := make([]float32, ev.TablesSize())
	for i := range data {
		if rng.IntN(10) == 0 {
			data[i] = float32(rng.NormFloat64() * 30)
		}
	}
	bound, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := weights.Write(&file, g, bound, ev.Defaults(), nil); err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(&file)
	plain, _ := io.ReadAll(zr)
	line, rest, _ := bytes.Cut(plain, []byte("\n"))
	var h weights.TablesHeader
	if err := json.Unmarshal(line, &h); err != nil {
		t.Fatal(err)
	}
	return h, rest
}

// compact writes header h and data as a compact weights file in dir.
func compact(t *testing.T, dir, name string, h weights.TablesHeader, data []byte) string {
	t.Helper()
	line, _ := json.Marshal(h)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(append(line, '\n'))
	zw.Write(data)
	zw.Close()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMatchRefusesBadWeightsFiles (issue 27): tune match with a weights
// file of the wrong game, evaluator or table shape, a truncated or an
// oversized one exits 2 saying what is wrong, before playing.
func TestMatchRefusesBadWeightsFiles(t *testing.T) {
	dir := t.TempDir()
	h, data := patternsFile(t, 1)
	with := func(f func(c *weights.TablesHeader)) weights.TablesHeader {
		var c weights.TablesHeader
		line, _ := json.Marshal(h)
		json.Unmarshal(line, &c)
		f(&c)
		return c
	}
	valid := compact(t, dir, "valid.weights", h, data)
	whole, _ := os.ReadFile(valid)
	cut := filepath.Join(dir, "cut.weights")
	os.WriteFile(cut, whole[:len(whole)/2], 0o644)
	big := filepath.Join(dir, "big.weights")
	os.WriteFile(big, whole, 0o644)
	os.Truncate(big, weights.MaxTablesFile+1)
	jsonFile := filepath.Join(dir, "patterns.json")
	os.WriteFile(jsonFile, []byte(`{"game": "othello", "evaluator": "patterns", "weights": {"mobility@0": 1}}`), 0o644)
	second := h.Tables[1]
	for _, tc := range []struct{ name, file, want string }{
		{"wrong game", compact(t, dir, "chess.weights", with(func(c *weights.TablesHeader) { c.Game = "chess" }), data), `the file is for game "chess", not "othello"`},
		{"wrong evaluator", compact(t, dir, "full.weights", with(func(c *weights.TablesHeader) { c.Evaluator = "full" }), data), "evaluator othello/full has no tables"},
		{"unknown evaluator", compact(t, dir, "edax.weights", with(func(c *weights.TablesHeader) { c.Evaluator = "edax" }), data), `unknown evaluator "edax" for othello`},
		{"JSON without tables", jsonFile, "the tables of othello/patterns are missing"},
		{"wrong shape", compact(t, dir, "shape.weights", with(func(c *weights.TablesHeader) { c.Tables[1].Shape = []int{8, 100} }), data),
			fmt.Sprintf("table %s: shape [8 100], want %v", second.Name, second.Shape)},
		{"truncated data", compact(t, dir, "short.weights", h, data[:len(data)-200]), "truncated: table diag4 has"},
		{"truncated file", cut, "weights: truncated: table"},
		{"huge shapes", compact(t, dir, "huge.weights", with(func(c *weights.TablesHeader) { c.Tables[0].Shape = []int{8, 1 << 40} }), data),
			fmt.Sprintf("table %s: shape [8 1099511627776], want %v", h.Tables[0].Name, h.Tables[0].Shape)},
		{"oversized", big, "is larger than 64 MiB, the most read from such a file"},
	} {
		code, _, errOut := tune(t, "", "match", "--game", "othello", "--a", tc.file, "--b", "default:full", "--pairs", "1", "--depth", "1", "--quiet")
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, tc.file) {
			t.Errorf("%s: exit %d, %q; want 2 and %q about %s", tc.name, code, errOut, tc.want, tc.file)
		}
	}
	code, out, errOut := tune(t, "", "match", "--game", "othello", "--a", valid, "--b", "default:full", "--pairs", "1", "--depth", "1", "--quiet", "--json")
	if code != 0 || !strings.Contains(out, `"games": 2`) {
		t.Errorf("the valid file: exit %d, %s %s", code, out, errOut)
	}
}

// TestExportWeightsFile: tune export --weights converts a weights file
// (or an evaluator's defaults) to json, go, c and uci; the json of a
// compact file reads back as the same tables and weights.
func TestExportWeightsFile(t *testing.T) {
	dir := t.TempDir()
	h, data := patternsFile(t, 2)
	file := compact(t, dir, "p.weights", h, data)
	g := othello.Game()
	orig, ow, err := weights.Read(file, g)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(dir, "again.weights")
	if code, _, errOut := tune(t, "", "export", "--weights", file, "--format", "json", "-o", again); code != 0 {
		t.Fatalf("export --weights %s: exit %d, %s", file, code, errOut)
	}
	ev, w, err := weights.Read(again, g)
	if err != nil || fmt.Sprint(w) != fmt.Sprint(ow) || ev.Name != "patterns" {
		t.Fatalf("the converted file: %v, weights %v", err, w)
	}
	for i := range ev.Data {
		if ev.Data[i] != orig.Data[i] {
			t.Fatalf("value %d: %g after conversion, %g before", i, ev.Data[i], orig.Data[i])
		}
	}
	for format, want := range map[string]string{
		"c":   "static const int16_t othello_patterns_corner3x3[8][",
		"go":  "var OthelloPatternsCorner3x3 = [8][",
		"uci": "# the features of patterns only: its 11 tables",
	} {
		code, out, errOut := tune(t, "", "export", "--weights", file, "--format", format)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("export --format %s: exit %d, %s; want %q", format, code, errOut, want)
		}
	}
	code, out, _ := tune(t, "", "export", "--weights", "default:patterns", "--game", "othello", "--format", "c", "--encoding", "float32")
	if code != 0 || !strings.Contains(out, "static const float othello_patterns_row2[8][") {
		t.Errorf("export of default:patterns: exit %d", code)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "give a run directory or --weights FILE"},
		{[]string{"export", dir, "--weights", file}, "give a run directory or --weights FILE"},
		{[]string{"export", "--weights", file, "--format", "csv"}, "formats json, go, c and uci"},
		{[]string{"export", "--weights", file, "--encoding", "int8"}, `encoding "int8" (accepted: int16, float32)`},
		{[]string{"export", "--weights", file, "--game", "chess"}, "holds weights of othello, not chess"},
		{[]string{"export", "--weights", "default:patterns"}, "needs --game"},
		{[]string{"export", "--weights", filepath.Join(dir, "none")}, "no such file"},
	} {
		if code, _, errOut := tune(t, "", tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
