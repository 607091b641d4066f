package weights_test

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
	"github.com/gametune/gametune/games/othello"
	"github.com/gametune/gametune/games/tictactoe"
	"github.com/gametune/gametune/weights"
)

// patternsWithData returns othello's patterns evaluator bound to random
// tables (a third of the values non-zero) drawn from seed.
func patternsWithData(t *testing.T, seed uint64) (games.Game, *games.Evaluator) {
	t.Helper()
	g := othello.Game()
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]float32, ev.TablesSize())
	for i := range data {
		if rng.IntN(3) == 0 {
			data[i] = float32(rng.NormFloat64() * 50)
		}
	}
	bound, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	return g, bound
}

// exportWeights encodes w of ev, labelled "best", in format.
func exportWeights(format string, g games.Game, ev *games.Evaluator, w []float64, source map[string]any, opts weights.Options) ([]byte, error) {
	return weights.Encode(format, weights.Set{Game: g, Evaluator: ev, Weights: w, Label: "best", Source: source}, opts)
}

// within is how far an int16 entry of scale may be from v: scale/2, and
// the rounding of a float32 near v.
func within(scale float64, v float32) float64 {
	return scale/2 + math.Abs(float64(v))*0x1p-23
}

// probes are (table, stage, entry) places checked in the go and c exports.
var probes = [][3]int{{0, 0, 0}, {0, 7, 5}, {3, 4, 100}, {10, 2, 17}, {10, 7, -1}}

func probe(ev *games.Evaluator, p [3]int) (name string, stage, entry int, value float32) {
	t := ev.Tables[p[0]]
	entry = p[2]
	if entry < 0 {
		entry = t.Shape[1] - 1
	}
	off, _ := ev.TableOffset(t.Name)
	return t.Name, p[1], entry, ev.Data[off+p[1]*t.Shape[1]+entry]
}

// TestExportTables: an evaluator with tables exports json as the compact
// file (read back within scale/2), go as gofmt-ed source whose arrays
// hold the quantized entries, c as a header a C program reads the same
// values from, uci as the features only with a comment saying so.
func TestExportTables(t *testing.T) {
	g, ev := patternsWithData(t, 9)
	w := ev.Defaults()
	data, err := exportWeights("json", g, ev, w, map[string]any{"run": "test"}, weights.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := weights.Parse(data, g)
	if err != nil {
		t.Fatalf("the json export does not read back: %v", err)
	}
	for i := range ev.Tables {
		off, table := ev.TableOffset(ev.Tables[i].Name)
		_, scale := weights.QuantizeTable(ev.Data[off : off+table.Size()])
		for j := off; j < off+table.Size(); j++ {
			if d := math.Abs(float64(back.Data[j]) - float64(ev.Data[j])); d > within(scale, ev.Data[j]) {
				t.Fatalf("json: value %d reads back as %g, want %g within %g", j, back.Data[j], ev.Data[j], scale/2)
			}
		}
	}
	t.Run("go", func(t *testing.T) { checkGoTables(t, g, ev, w) })
	t.Run("c", func(t *testing.T) { checkCTables(t, g, ev, w) })
	uciLines, err := exportWeights("uci", g, ev, w, nil, weights.Options{})
	lines := strings.Split(strings.TrimSpace(string(uciLines)), "\n")
	if err != nil || len(lines) != 1+len(ev.Features) || !strings.HasPrefix(lines[0], "# the features of patterns only: its 11 tables") ||
		!strings.HasPrefix(lines[1], "setoption name "+ev.Features[0].Name+" value ") {
		t.Errorf("uci: %v\n%s", err, strings.Join(lines[:3], "\n"))
	}
	short, _ := games.FindEvaluator(g, "patterns")
	short = short.Clone()
	short.Data = short.Data[:10]
	for _, f := range []string{"json", "go", "c"} {
		if _, err := exportWeights(f, g, short, w, nil, weights.Options{}); err == nil || !strings.Contains(err.Error(), "tables of 911016 values in all") {
			t.Errorf("%s of an evaluator with 10 values: %v", f, err)
		}
	}
}

// goEntry finds table name's entry [stage][entry] in the Go export.
func goEntry(t *testing.T, file *ast.File, name string, stage, entry int) string {
	t.Helper()
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Names[0].Name != name {
				continue
			}
			lit := vs.Values[0]
			if gd.Tok == token.VAR {
				lit = lit.(*ast.CompositeLit).Elts[stage].(*ast.CompositeLit).Elts[entry]
			}
			expr, _ := lit.(*ast.BasicLit)
			if u, ok := lit.(*ast.UnaryExpr); ok {
				expr = u.X.(*ast.BasicLit)
				return "-" + expr.Value
			}
			return expr.Value
		}
	}
	t.Fatalf("the Go export has no %s", name)
	return ""
}

func checkGoTables(t *testing.T, g games.Game, ev *games.Evaluator, w []float64) {
	for _, enc := range []string{weights.EncodingInt16, weights.EncodingFloat32} {
		src, err := exportWeights("go", g, ev, w, nil, weights.Options{Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && enc == weights.EncodingFloat32 {
			continue // the slow part of the check, once is enough
		}
		// gofmt of 900,000 values takes seconds: without -short only.
		if !testing.Short() {
			if formatted, err := format.Source(src); err != nil || string(formatted) != string(src) {
				t.Fatalf("%s: the Go export is not gofmt-ed (%v)", enc, err)
			}
		}
		file, err := parser.ParseFile(token.NewFileSet(), "w.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probes {
			table, stage, entry, want := probe(ev, p)
			name := strings.TrimSuffix(weights.GoName("othello", "patterns", table), "Weights")
			got, err := strconv.ParseFloat(goEntry(t, file, name, stage, entry), 64)
			if enc == weights.EncodingFloat32 {
				if err != nil || float32(got) != want {
					t.Errorf("float32 %s[%d][%d] = %g (%v), want %g", name, stage, entry, got, err, want)
				}
				continue
			}
			scale, _ := strconv.ParseFloat(goEntry(t, file, name+"Scale", 0, 0), 64)
			if math.Abs(got*scale-float64(want)) > within(scale, want) || got != math.Round(got) {
				t.Errorf("int16 %s[%d][%d] = %g * %g, want %g", name, stage, entry, got, scale, want)
			}
		}
	}
}

func checkCTables(t *testing.T, g games.Game, ev *games.Evaluator, w []float64) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	for _, enc := range []string{weights.EncodingInt16, weights.EncodingFloat32} {
		if testing.Short() && enc == weights.EncodingFloat32 {
			continue // compiling 900,000 values takes seconds: once is enough
		}
		header, err := exportWeights("c", g, ev, w, nil, weights.Options{Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var prog strings.Builder
		prog.WriteString("#include <stdio.h>\n#include \"w.h\"\nint main(void) {\n")
		fmt.Fprintf(&prog, "\tprintf(\"%%d %%d %%d\\n\", OTHELLO_PATTERNS_COEF_NB, OTHELLO_PATTERNS_TABLE_NB, OTHELLO_PATTERNS_CORNER3X3_DIM1);\n")
		for _, p := range probes {
			table, stage, entry, _ := probe(ev, p)
			name := "OTHELLO_PATTERNS_" + strings.ToUpper(weights.CName(table))
			scale := "1.0"
			if enc == weights.EncodingInt16 {
				scale = name + "_SCALE"
			}
			fmt.Fprintf(&prog, "\tprintf(\"%%.9g\\n\", (double)%s[%d][%d] * %s);\n", strings.ToLower(name), stage, entry, scale)
		}
		prog.WriteString("\treturn 0;\n}\n")
		os.WriteFile(filepath.Join(dir, "w.h"), header, 0o644)
		os.WriteFile(filepath.Join(dir, "main.c"), []byte(prog.String()), 0o644)
		bin := filepath.Join(dir, "main")
		if out, err := exec.Command(cc, "-Wall", "-Werror", "-o", bin, filepath.Join(dir, "main.c")).CombinedOutput(); err != nil {
			t.Fatalf("%s: the C header does not compile: %v\n%s", enc, err, out)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		_, corner := ev.TableOffset("corner3x3")
		if lines[0] != fmt.Sprintf("%d 11 %d", len(ev.Features), corner.Shape[1]) {
			t.Errorf("%s: counts %q", enc, lines[0])
		}
		for i, p := range probes {
			table, stage, entry, want := probe(ev, p)
			off, tb := ev.TableOffset(table)
			_, scale := weights.QuantizeTable(ev.Data[off : off+tb.Size()])
			got, _ := strconv.ParseFloat(lines[1+i], 64)
			if enc == weights.EncodingFloat32 && float32(got) != want || math.Abs(got-float64(want)) > within(scale, want) {
				t.Errorf("%s: C reads %s[%d][%d] as %s, want %g", enc, table, stage, entry, lines[1+i], want)
			}
		}
	}
}

// TestConvert: an evaluator's defaults convert to any format of one set
// of weights, labelled as converted; a spec without a game, or a game
// unknown, says what is wrong.
func TestConvert(t *testing.T) {
	g := tictactoe.Game()
	ev, _ := games.FindEvaluator(g, "lines")
	data, err := weights.Convert("default:lines", "tictactoe", all.Find, "uci", weights.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, f := range ev.Features {
		fmt.Fprintf(&want, "setoption name %s value %d\n", f.Name, weights.SpinValue(f, f.Default))
	}
	if string(data) != want.String() {
		t.Errorf("uci: %q, want %q", data, want.String())
	}
	data, err = weights.Convert("default:lines", "tictactoe", all.Find, "json", weights.Options{})
	if err != nil || !strings.Contains(string(data), `"genome": "converted from default:lines"`) {
		t.Errorf("json: %v\n%s", err, data)
	}
	if _, err := weights.Convert("default:lines", "", all.Find, "uci", weights.Options{}); err == nil ||
		!strings.Contains(err.Error(), "needs --game") {
		t.Errorf("no game: %v", err)
	}
	if _, err := weights.Convert("default:lines", "go-moku", all.Find, "uci", weights.Options{}); err == nil {
		t.Error("an unknown game converted")
	}
}
