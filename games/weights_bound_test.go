package games_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/games/all"
)

// TestTablesWeightsBound: a compact file whose values could saturate every
// score is refused with the bound in the message: int16 tables at the
// largest scale a float32 allows (values near 3.4e38), refused by their
// header, or at a scale over MaxTableValue/32767 with values of 32767;
// float32 values of 3e38, or just over the bound. The bound itself reads,
// a table of zeros at scale 1 (as the writer makes them) too, and the
// writer refuses what the reader would.
func TestTablesWeightsBound(t *testing.T) {
	g, ev, w := patterns(t, 5, 0.2)
	valid := writeTables(t, g, ev, w, games.EncodingFloat32)
	h, _ := split(t, valid)
	int16File := func(scale float64, q int16) []byte {
		h16 := h
		h16.Tables = append([]games.TableEncoding(nil), h.Tables...)
		for i := range h16.Tables {
			h16.Tables[i].Encoding, h16.Tables[i].Scale = games.EncodingInt16, scale
		}
		data := make([]byte, 2*len(ev.Data))
		for i := range len(ev.Data) {
			binary.LittleEndian.PutUint16(data[2*i:], uint16(q))
		}
		return join(t, h16, data)
	}
	float32File := func(v float32) []byte {
		data := make([]byte, 4*len(ev.Data))
		binary.LittleEndian.PutUint32(data[4*5:], math.Float32bits(v))
		return join(t, h, data)
	}
	largest := games.MaxTableValue / 32767.0
	first := h.Tables[0].Name
	for _, tc := range []struct {
		name string
		file []byte
		want string // "" when the file reads
	}{
		{"int16 at float32's largest scale", int16File(math.MaxFloat32/32768, 32767), "scale 1.0384593098099636e+34 (an int16 table needs a scale above 0, at most 1024)"},
		{"int16 over the scale of the bound", int16File(largest*1.001, 32767), "table " + first + ": value 0 is 1025.02"},
		{"int16 at the scale of the bound", int16File(largest, 32767), ""},
		{"int16 zeros at scale 1", int16File(1, 0), "zeros"},
		{"int16 -32768 at the largest scale", int16File(largest, -32768), "table " + first + ": value 0 is -1024.03"},
		{"float32 3e38", float32File(3e38), "table " + first + ": value 5 is 3e+38; a table value lies within ±1024, so that no evaluation saturates"},
		{"float32 just over", float32File(math.Nextafter32(games.MaxTableValue, 2048)), "value 5 is 1024.0001"},
		{"float32 at the bound", float32File(-games.MaxTableValue), ""},
	} {
		got, _, err := games.ParseWeights(tc.file, g)
		switch {
		case tc.want == "zeros" && (err != nil || got.Data[5] != 0):
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "zeros":
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && got.Data[5] == 0:
			t.Errorf("%s: read value 5 as 0", tc.name)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	over := append([]float32(nil), ev.Data...)
	over[9] = 1025
	bad, err := ev.WithData(over)
	if err != nil {
		t.Fatal(err)
	}
	if err := games.WriteWeights(&strings.Builder{}, g, bad, w, nil); err == nil || !strings.Contains(err.Error(), "value 9 of the tables of \"patterns\" is 1025 (must be finite, within ±1024") {
		t.Errorf("writing a value of 1025: %v", err)
	}
}

// TestTablesCannotSaturate holds MaxTableValue's reason: in the positions
// of random games of every game, the coefficients of the table entries an
// evaluator with tables activates sum to at most 128 in magnitude, so that
// tables within ±MaxTableValue, times scales within their ranges, add at
// most MaxEval/2 to a score; and an evaluation with every entry at the
// bound and every scale at its most stays clear of ±MaxEval.
func TestTablesCannotSaturate(t *testing.T) {
	const most = 128
	for _, g := range all.Games() {
		for _, ev := range g.Evaluators() {
			if ev.Bind == nil {
				continue
			}
			full := make([]float32, ev.TablesSize())
			for i := range full {
				full[i] = games.MaxTableValue
			}
			bound, err := ev.WithData(full)
			if err != nil {
				t.Fatal(err)
			}
			w, scale := ev.Defaults(), 0.0
			for i, f := range ev.Features {
				if ev.IsScale(i) {
					w[i], scale = f.Max, max(scale, math.Abs(f.Min), math.Abs(f.Max))
				}
			}
			rng := rand.New(rand.NewPCG(1, 57))
			var terms []games.TableTerm
			var legal []games.Move
			peak := 0.0
			for range 200 {
				p := g.Start()
				for range 300 {
					terms = ev.Terms(p, terms[:0])
					sum := 0.0
					for _, term := range terms {
						sum += math.Abs(float64(term.Coef))
					}
					peak = max(peak, sum)
					if v := bound.Evaluate(p, w); v <= -games.MaxEval || v >= games.MaxEval {
						t.Fatalf("%s/%s: with every entry at the bound, %s scores %d", g.Name(), ev.Name, p, v)
					}
					var out games.Outcome
					if legal, out = p.Moves(legal[:0]); out != games.Ongoing {
						break
					}
					p.Play(legal[rng.IntN(len(legal))])
				}
			}
			if peak > most || scale*most*games.MaxTableValue > games.MaxEval/2 {
				t.Errorf("%s/%s: coefficients sum to %g, scales reach %g: tables within ±%d could add more than MaxEval/2", g.Name(), ev.Name, peak, scale, games.MaxTableValue)
			}
			t.Logf("%s/%s: coefficients sum to %g at most", g.Name(), ev.Name, peak)
		}
	}
}
