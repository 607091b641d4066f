package games_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/othello"
)

// patterns returns othello's patterns evaluator bound to values drawn
// from seed: a share dense of them non-zero (normal, spread 40), the rest
// zero; and weights drawn within the features' ranges.
func patterns(t testing.TB, seed uint64, dense float64) (games.Game, *games.Evaluator, []float64) {
	t.Helper()
	g := othello.Game()
	ev, err := games.FindEvaluator(g, "patterns")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 27))
	data := make([]float32, ev.TablesSize())
	for i := range data {
		if rng.Float64() < dense {
			data[i] = float32(rng.NormFloat64() * 40)
		}
	}
	bound, err := ev.WithData(data)
	if err != nil {
		t.Fatal(err)
	}
	w := ev.Defaults()
	for i, f := range ev.Features {
		w[i] = f.Min + rng.Float64()*(f.Max-f.Min)
	}
	return g, bound, w
}

func writeTables(t testing.TB, g games.Game, ev *games.Evaluator, w []float64, encoding string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := games.WriteWeightsWith(&b, g, ev, w, map[string]any{"test": "tables"}, games.WeightsOptions{Encoding: encoding}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// split gunzips a compact file into its header and its data.
func split(t testing.TB, file []byte) (games.TablesHeader, []byte) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	line, data, ok := bytes.Cut(plain, []byte("\n"))
	if !ok {
		t.Fatal("no header line")
	}
	var h games.TablesHeader
	if err := json.Unmarshal(line, &h); err != nil {
		t.Fatal(err)
	}
	return h, data
}

// join writes a compact file of header h (or raw header bytes) and data.
func join(t testing.TB, h any, data []byte) []byte {
	t.Helper()
	line, ok := h.([]byte)
	if !ok {
		var err error
		if line, err = json.Marshal(h); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(line)
	zw.Write([]byte("\n"))
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// TestTablesWeightsRoundTrip: the patterns evaluator with random tables
// written and read back gives the same weights exactly, and the same
// tables within scale/2 in int16 (the scale being the largest magnitude
// over 32767), exactly in float32, where it evaluates as the original.
func TestTablesWeightsRoundTrip(t *testing.T) {
	g, ev, w := patterns(t, 1, 1)
	for _, enc := range []string{"", games.EncodingInt16, games.EncodingFloat32} {
		file := writeTables(t, g, ev, w, enc)
		got, gw, err := games.ParseWeights(file, g)
		if err != nil {
			t.Fatalf("%q: %v", enc, err)
		}
		if got.Name != "patterns" || fmt.Sprint(gw) != fmt.Sprint(w) || len(got.Data) != len(ev.Data) {
			t.Fatalf("%q: evaluator %s, %d values; weights %v, want %v", enc, got.Name, len(got.Data), gw, w)
		}
		h, _ := split(t, file)
		if len(h.Tables) != len(ev.Tables) || h.Game != "othello" || h.Source["test"] != "tables" {
			t.Fatalf("%q: header %+v", enc, h)
		}
		for i, te := range h.Tables {
			off, table := ev.TableOffset(te.Name)
			if te.Name != ev.Tables[i].Name || fmt.Sprint(te.Shape) != fmt.Sprint(table.Shape) {
				t.Fatalf("%q: table %d is %s %v, want %s %v", enc, i, te.Name, te.Shape, ev.Tables[i].Name, table.Shape)
			}
			peak := 0.0
			for _, v := range ev.Data[off : off+table.Size()] {
				peak = max(peak, math.Abs(float64(v)))
			}
			for j := off; j < off+table.Size(); j++ {
				diff := math.Abs(float64(got.Data[j]) - float64(ev.Data[j]))
				switch {
				case enc == games.EncodingFloat32 && (te.Scale != 0 || diff != 0):
					t.Fatalf("float32 table %s value %d: %g, want %g exactly (scale %g)", te.Name, j-off, got.Data[j], ev.Data[j], te.Scale)
				case enc != games.EncodingFloat32 && (te.Encoding != "int16" || te.Scale != peak/32767 || diff > te.Scale/2*(1+1e-6)+math.Abs(float64(ev.Data[j]))*1e-7):
					t.Fatalf("int16 table %s value %d: %g, want %g within %g/2 (encoding %s)", te.Name, j-off, got.Data[j], ev.Data[j], te.Scale, te.Encoding)
				}
			}
		}
		if enc == games.EncodingFloat32 {
			p := othello.Start()
			for _, m := range []string{"d3", "c5", "f6", "f5", "e6", "e3"} {
				mv, _ := p.ParseMove(m)
				p.Play(mv)
				if a, b := got.Evaluate(p, w), ev.Evaluate(p, w); a != b || a == 0 {
					t.Fatalf("after %s the file's evaluator scores %d, the original %d", m, a, b)
				}
			}
		}
	}
}

// TestTablesWeightsSizes measures the compact file: random tables and
// mostly-zero ones, int16 and float32; the default (all zero) tables.
func TestTablesWeightsSizes(t *testing.T) {
	for _, tc := range []struct {
		dense float64
		enc   string
		most  int
	}{
		{1, games.EncodingInt16, 2*911_000*105/100 + 8000},
		{1, games.EncodingFloat32, 4*911_000*105/100 + 8000},
		{0.01, games.EncodingInt16, 100_000},
		{0, games.EncodingInt16, 20_000},
	} {
		g, ev, w := patterns(t, 2, tc.dense)
		file := writeTables(t, g, ev, w, tc.enc)
		t.Logf("patterns, %g of the %d values non-zero, %s: %d bytes", tc.dense, len(ev.Data), tc.enc, len(file))
		if len(file) > tc.most {
			t.Errorf("%g non-zero, %s: %d bytes, want at most %d", tc.dense, tc.enc, len(file), tc.most)
		}
	}
}

// TestTablesWeightsErrors: every kind of bad compact file is refused with
// a message that says what is wrong.
func TestTablesWeightsErrors(t *testing.T) {
	g, ev, w := patterns(t, 3, 0.3)
	valid := writeTables(t, g, ev, w, "")
	h, data := split(t, valid)
	first, second := h.Tables[0], h.Tables[1]
	mutate := func(f func(h *games.TablesHeader)) []byte {
		var c games.TablesHeader
		line, _ := json.Marshal(h)
		json.Unmarshal(line, &c)
		f(&c)
		return join(t, c, data)
	}
	// The same data without the first table, and the header to match.
	noFirst := mutate(func(c *games.TablesHeader) { c.Tables = c.Tables[1:] })
	noFirst = join(t, split2(t, noFirst), data[2*8*first.Shape[1]:])
	cut := func(n int) []byte { return join(t, h, data[:n]) }
	secondAt := 2 * 8 * first.Shape[1]
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"wrong game", mutate(func(c *games.TablesHeader) { c.Game = "chess" }), `the file is for game "chess", not "othello"`},
		{"evaluator without tables", mutate(func(c *games.TablesHeader) { c.Evaluator = "full" }), "evaluator othello/full has no tables: its weights file is JSON"},
		{"unknown evaluator", mutate(func(c *games.TablesHeader) { c.Evaluator = "edax" }), `unknown evaluator "edax" for othello: give one of report, full, patterns`},
		{"no evaluator", mutate(func(c *games.TablesHeader) { c.Evaluator = "" }), "names no evaluator"},
		{"wrong shape", mutate(func(c *games.TablesHeader) { c.Tables[1].Shape = []int{8, 100} }),
			fmt.Sprintf("table %s: shape [8 100], want %v", second.Name, second.Shape)},
		{"huge shape", mutate(func(c *games.TablesHeader) { c.Tables[0].Shape = []int{1 << 40, 1 << 40} }),
			fmt.Sprintf("table %s: shape [1099511627776 1099511627776], want %v", first.Name, first.Shape)},
		{"missing table", noFirst, fmt.Sprintf("tables missing for othello/patterns: [%s]", first.Name)},
		{"unknown table", mutate(func(c *games.TablesHeader) {
			c.Tables = append(c.Tables, games.TableEncoding{Name: "x-squares", Shape: []int{8}, Encoding: "int16", Scale: 1})
		}), `unknown table "x-squares" for othello/patterns (tables: ` + first.Name + ", " + second.Name},
		{"twice", mutate(func(c *games.TablesHeader) { c.Tables[1] = c.Tables[0] }), fmt.Sprintf("table %s appears twice", first.Name)},
		{"encoding", mutate(func(c *games.TablesHeader) { c.Tables[0].Encoding = "int8" }), `encoding "int8" (accepted: int16, float32)`},
		{"zero scale", mutate(func(c *games.TablesHeader) { c.Tables[0].Scale = 0 }), "scale 0 (an int16 table needs a scale above 0"},
		{"huge scale", mutate(func(c *games.TablesHeader) { c.Tables[0].Scale = 1e300 }), "scale 1e+300 (an int16 table needs"},
		{"float32 scale", mutate(func(c *games.TablesHeader) { c.Tables[0].Encoding = "float32" }), "a scale"},
		{"feature missing", mutate(func(c *games.TablesHeader) { delete(c.Weights, "parity@3") }), "features missing for othello/patterns: [parity@3]"},
		{"feature unknown", mutate(func(c *games.TablesHeader) { c.Weights["frontier"] = 1 }), "unknown features for othello/patterns: [frontier]"},
		{"feature out of range", mutate(func(c *games.TablesHeader) { c.Weights["mobility@2"] = 1000 }), `weight of feature "mobility@2" is 1000, outside its range [-100, 100]`},
		{"version", mutate(func(c *games.TablesHeader) { c.Version = 2 }), `format "gametune-weights" version 2 (this gametune reads "gametune-weights" version 1)`},
		{"format", mutate(func(c *games.TablesHeader) { c.Format = "edax-eval" }), `format "edax-eval" version 1`},
		{"unknown header field", join(t, []byte(`{"format": "gametune-weights", "colour": 1}`), data), `unknown field "colour"`},
		{"header not JSON", join(t, []byte(`weights`), data), "the header line is not a gametune-weights header"},
		{"header too long", join(t, bytes.Repeat([]byte(" "), games.MaxTablesHeader+1), data), "the header line is longer than 1 MiB, the most read"},
		{"truncated: no data", cut(0), fmt.Sprintf("truncated: table %s has 0 of %d values", first.Name, 8*first.Shape[1])},
		{"truncated in a value", cut(2001), fmt.Sprintf("truncated: table %s has 1000 of %d values", first.Name, 8*first.Shape[1])},
		{"truncated: second table", cut(secondAt + 2*1234), fmt.Sprintf("truncated: table %s has 1234 of %d values", second.Name, 8*second.Shape[1])},
		{"truncated: last value", cut(len(data) - 2), fmt.Sprintf("truncated: table %s has %d of %d values", h.Tables[len(h.Tables)-1].Name, ev.Tables[len(ev.Tables)-1].Size()-1, ev.Tables[len(ev.Tables)-1].Size())},
		{"left over", join(t, h, append(append([]byte{}, data...), 1, 2, 3)), fmt.Sprintf("3 bytes left over after the last table (the header's tables take %d bytes)", len(data))},
		{"int16 data read as float32", mutate(func(c *games.TablesHeader) {
			for i := range c.Tables {
				c.Tables[i].Encoding, c.Tables[i].Scale = "float32", 0
			}
		}), fmt.Sprintf("table %s: value 756 is NaN (must be finite)", first.Name)}, // int16 pairs that make a NaN
		{"header only", gzipOf([]byte(`{"format"`)), "truncated: the header line ends before its newline"},
		{"empty gzip", gzipOf(nil), "truncated: the header line ends before its newline"},
		{"not gzip after the magic", []byte("\x1f\x8bnot gzip at all"), "corrupt gzip stream (in the gzip header): gzip: invalid header"},
		{"magic only", []byte{0x1f, 0x8b}, "truncated: in the gzip header"},
		{"corrupt checksum", flip(valid, len(valid)-6), "corrupt gzip stream after the last table: gzip: invalid checksum"},
		{"trailing garbage", append(append([]byte{}, valid...), "garbage after the gzip stream"...), "corrupt gzip stream after the last table: gzip: invalid header"},
		{"uncompressed", append(mustJSON(t, h), '\n'), "a gametune-weights header without its gzip compression"},
		{"not a weights file", []byte("PK\x03\x04 a zip"), "not a weights file (JSON"},
	} {
		_, _, err := games.ParseWeights(tc.file, g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	// Float32 values that are not finite.
	nan := make([]byte, 4*len(ev.Data))
	binary.LittleEndian.PutUint32(nan[4*7:], math.Float32bits(float32(math.Inf(1))))
	h32 := h
	h32.Tables = append([]games.TableEncoding(nil), h.Tables...)
	for i := range h32.Tables {
		h32.Tables[i].Encoding, h32.Tables[i].Scale = "float32", 0
	}
	if _, _, err := games.ParseWeights(join(t, h32, nan), g); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("table %s: value 7 is +Inf (must be finite)", first.Name)) {
		t.Errorf("an infinite value: %v", err)
	}
	// A JSON file for the evaluator with tables.
	jsonFile := `{"game": "othello", "evaluator": "patterns", "weights": {}}`
	if _, _, err := games.ParseWeights([]byte(jsonFile), g); err == nil || !strings.Contains(err.Error(), "the tables of othello/patterns are missing") ||
		!strings.Contains(err.Error(), "default:patterns") {
		t.Errorf("a JSON file for patterns: %v", err)
	}
}

// TestTablesWeightsCut: the compact file cut anywhere is refused, as
// truncated.
func TestTablesWeightsCut(t *testing.T) {
	g, ev, w := patterns(t, 4, 0.5)
	valid := writeTables(t, g, ev, w, "")
	for _, n := range []int{2, 10, 11, 30, 200, len(valid) / 3, len(valid) / 2, len(valid) - 9, len(valid) - 8, len(valid) - 1} {
		_, _, err := games.ParseWeights(valid[:n], g)
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("cut at %d of %d bytes: %v, want truncated", n, len(valid), err)
		}
	}
}

// TestTablesWeightsReadLimit: ReadWeights reads a compact file through
// MaxTablesFile (and a JSON one through MaxWeightsFile), saying so.
func TestTablesWeightsReadLimit(t *testing.T) {
	g, ev, w := patterns(t, 5, 0.1)
	dir := t.TempDir()
	path := filepath.Join(dir, "patterns.weights")
	if err := os.WriteFile(path, writeTables(t, g, ev, w, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, err := games.ReadWeights(path, g); err != nil || got.Name != "patterns" {
		t.Fatalf("ReadWeights: %v", err)
	}
	if name, err := games.WeightsGame(path); err != nil || name != "othello" {
		t.Fatalf("WeightsGame: %q, %v", name, err)
	}
	big := filepath.Join(dir, "big.weights")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(valid5(t))
	if err := f.Truncate(games.MaxTablesFile + 1); err != nil { // sparse: cheap
		t.Fatal(err)
	}
	f.Close()
	_, _, err = games.ReadWeights(big, g)
	if !errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), "larger than 64 MiB") {
		t.Errorf("a compact file of 64 MiB + 1 byte: %v, want ErrTooLarge saying larger than 64 MiB", err)
	}
	if err := os.Truncate(big, games.MaxTablesFile); err != nil {
		t.Fatal(err)
	}
	if _, _, err = games.ReadWeights(big, g); err == nil || errors.Is(err, games.ErrTooLarge) || !strings.Contains(err.Error(), "corrupt gzip stream after the last table") {
		t.Errorf("a compact file of exactly 64 MiB (valid, then zeros): %v, want it read and refused for what follows the stream", err)
	}
}

func valid5(t *testing.T) []byte {
	g, ev, w := patterns(t, 5, 0.1)
	return writeTables(t, g, ev, w, "")
}

func split2(t *testing.T, file []byte) games.TablesHeader {
	h, _ := split(t, file)
	return h
}

func gzipOf(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func flip(data []byte, i int) []byte {
	c := append([]byte{}, data...)
	c[i] ^= 0xff
	return c
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzParseWeights: whatever the bytes, ParseWeights of either format
// returns an error or weights and tables that pass the checks.
func FuzzParseWeights(f *testing.F) {
	g := othello.Game()
	full, _ := games.FindEvaluator(g, "full")
	var j bytes.Buffer
	games.WriteWeights(&j, g, full, full.Defaults(), nil)
	f.Add(j.Bytes())
	_, ev, w := patterns(f, 6, 0.001)
	valid := writeTables(f, g, ev, w, "")
	f.Add(valid)
	f.Add(writeTables(f, g, ev, w, games.EncodingFloat32))
	f.Add(valid[:len(valid)/2])
	h, data := split(f, valid)
	f.Add(append(mustLine(h), data[:100]...)) // uncompressed
	f.Add(join(f, []byte(`{"format":"gametune-weights","version":1,"game":"othello","evaluator":"patterns","weights":{},"tables":[]}`), nil))
	f.Fuzz(func(t *testing.T, file []byte) {
		ev, w, err := games.ParseWeights(file, g)
		if err != nil {
			return
		}
		if err := ev.Check(w); err != nil {
			t.Fatalf("accepted weights fail the check: %v", err)
		}
		if len(ev.Data) != ev.TablesSize() {
			t.Fatalf("accepted %d table values for %d", len(ev.Data), ev.TablesSize())
		}
		for i, v := range ev.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("accepted value %d: %v", i, v)
			}
		}
	})
}

func mustLine(h games.TablesHeader) []byte {
	b, _ := json.Marshal(h)
	return append(b, '\n')
}

// BenchmarkTablesWeights writes and reads the patterns evaluator's
// compact file (random tables, int16).
func BenchmarkTablesWeights(b *testing.B) {
	g, ev, w := patterns(b, 7, 1)
	file := writeTables(b, g, ev, w, "")
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			games.WriteWeights(io.Discard, g, ev, w, nil)
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := games.ParseWeights(file, g); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestExtremes keeps the three largest values above zero, largest first,
// and the three smallest below, smallest first (ties to the smaller place);
// zeros are neither. TestStageSpan finds a stage's counts.
func TestExtremes(t *testing.T) {
	values := []float64{5, -1, 9, 0, 7, -3, 9, 8, -1, -2}
	best, worst := games.Extremes(len(values), 3, func(k int) float64 { return values[k] })
	if fmt.Sprint(best, worst) != "[2 6 7] [5 9 1]" {
		t.Errorf("Extremes: best %v, worst %v; want [2 6 7] [5 9 1]", best, worst)
	}
}

func TestStageSpan(t *testing.T) {
	stage := func(n int) int { return n / 10 }
	for _, c := range []struct{ st, lo, hi int }{{0, 4, 9}, {1, 10, 19}, {6, 60, 64}, {7, -1, -1}} {
		if lo, hi := games.StageSpan(4, 64, c.st, stage); lo != c.lo || hi != c.hi {
			t.Errorf("StageSpan(4, 64, %d) = %d, %d; want %d, %d", c.st, lo, hi, c.lo, c.hi)
		}
	}
}
