package population

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestParamsOutOfRange: a parameter line whose numbers the store cannot
// keep or an engine option cannot take (the reported line, min -1e308 and
// max 1e308), or whose range, start, c_end or r_end make no sense, is
// refused with an error naming the line, the parameter, the field and the
// bounds accepted.
func TestParamsOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"Foo, int, 5, -1e308, 1e308, 1, 0.002", []string{"line 1", "Foo", "min -1e+308", "-2147483647 to 2147483647"}},
		{"Foo, int, 5, 0, 1e10, 1, 0.002", []string{"Foo", "max 1e+10", "-2147483647 to 2147483647"}},
		{"Foo, float, 3e9, 0, 10, 1, 0.002", []string{"Foo", "start 3e+09", "-2147483647 to 2147483647"}},
		{"Foo, int, 5, 0, Inf, 1, 0.002", []string{"Foo", `max "Inf" is not a finite number`}},
		{"Foo, int, NaN, 0, 10, 1, 0.002", []string{"Foo", `start "NaN" is not a finite number`}},
		{"Foo, int, 5, 10, 10, 1, 0.002", []string{"Foo", "min 10 = max 10", "min must be less than max"}},
		{"Foo, int, 5, 20, 10, 1, 0.002", []string{"Foo", "min 20 > max 10", "min must be less than max"}},
		{"Foo, int, 50, 0, 10, 1, 0.002", []string{"Foo", "start 50 is outside [0, 10]"}},
		{"Foo, int, 5, 0, 10, 0, 0.002", []string{"Foo", "c_end 0", "from 1e-09 to the range max - min (10)"}},
		{"Foo, int, 5, 0, 10, -1, 0.002", []string{"Foo", "c_end -1", "from 1e-09"}},
		{"Foo, int, 5, 0, 10, 1e308, 0.002", []string{"Foo", "c_end 1e+308", "to the range max - min (10)"}},
		{"Foo, int, 5, 0, 10, 1e-300, 0.002", []string{"Foo", "c_end 1e-300"}},
		{"Foo, int, 5, 0, 10, 1, 0", []string{"Foo", "r_end 0", "greater than 0 and at most 1e+06"}},
		{"Foo, int, 5, 0, 10, 1, 1e300", []string{"Foo", "r_end 1e+300", "at most 1e+06"}},
		{"Foo, int, 5, 0, 10, 1, -Inf", []string{"Foo", `r_end "-Inf" is not a finite number`}},
		{" , int, 5, 0, 10, 1, 0.002", []string{"line 1", "no name"}},
		{"Foo, int, 5, 0, 10, 1", []string{"line 1", "Foo", `start "int" is not a finite number`, "name, int|float, start, min, max, c_end, r_end", "name,start,min,max,c_end,r_end"}},
		{"Foo, 5, 0, 10, 1", []string{"line 1", "5 fields", "want 7", "or 6"}},
	} {
		_, _, err := EngineEvaluator([]string{tc.line})
		if err == nil || !errors.Is(err, ErrSPSAParams) {
			t.Errorf("%q: error %v, want one wrapping ErrSPSAParams", tc.line, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not say %q", tc.line, err, w)
			}
		}
	}
	// The same bounds hold for an evaluator's features: a feature's range
	// wider than the bounds does not widen them.
	ev := &games.Evaluator{Name: "wide", Features: []games.Feature{{Name: "w", Min: -1e300, Max: 1e300}}}
	if _, err := ParseSPSAParams([]string{"w, float, 0, -1e12, 1e12, 1, 0.002"}, ev); err == nil || !strings.Contains(err.Error(), "min -1e+12") {
		t.Errorf("an evaluator's wide feature: error %v, want min -1e+12 refused", err)
	}
	// At the bounds, the line is accepted.
	if _, ps, err := EngineEvaluator([]string{"Edge, int, 0, -2147483647, 2147483647, 4294967294, 1e6", "Tiny, float, 0, 0, 1e-9, 1e-9, 1e-9"}); err != nil || len(ps) != 2 {
		t.Errorf("lines at the bounds: %v", err)
	}
}

// stockfishTune is what a Stockfish built with TUNE(...) prints (tune.cpp's
// make_option: name, value, min, max, (max - min) / 20, "0.0020", no
// spaces), the lines fishtest's SPSA form takes, for three values of its
// search: one positive, one negative, one array entry.
const stockfishTune = `FutilityMarginBase,118,0,236,11.8,0.0020
NullMoveDivisor,-20,-40,0,2,0.0020
LMRTable[3],1200,0,2400,120,0.0020
`

// openBenchTune is the same parameters in OpenBench's 7-field form.
const openBenchTune = `FutilityMarginBase, int, 118, 0, 236, 11.8, 0.002
NullMoveDivisor, int, -20, -40, 0, 2, 0.002
LMRTable[3], int, 1200, 0, 2400, 120, 0.002
`

// TestFishtestParams: fishtest's 6-field lines, as a real Stockfish
// TUNE() prints them, are read, and equal to the same parameters in the
// 7-field form with int: fishtest rounds every parameter to a whole
// number before setting it on the engine. Both forms may be mixed.
func TestFishtestParams(t *testing.T) {
	lines6 := strings.Split(strings.TrimSpace(stockfishTune), "\n")
	lines7 := strings.Split(strings.TrimSpace(openBenchTune), "\n")
	ev6, ps6, err := EngineEvaluator(lines6)
	if err != nil {
		t.Fatalf("fishtest's lines: %v", err)
	}
	ev7, ps7, err := EngineEvaluator(lines7)
	if err != nil {
		t.Fatalf("OpenBench's lines: %v", err)
	}
	if !reflect.DeepEqual(ev6, ev7) || !reflect.DeepEqual(ps6, ps7) {
		t.Fatalf("6 fields:\n%+v\n%+v\n7 fields:\n%+v\n%+v", ev6, ps6, ev7, ps7)
	}
	want := SPSAParam{Name: "NullMoveDivisor", Feature: 1, Int: true, Start: -20, Min: -40, Max: 0, CEnd: 2, REnd: 0.002}
	if len(ps6) != 3 || ps6[1] != want || ps6[2].Name != "LMRTable[3]" || ps6[0].CEnd != 11.8 {
		t.Fatalf("params %+v, want the second %+v", ps6, want)
	}
	if f := ev6.Features[0]; f.Step != 1 || f.Default != 118 || f.Min != 0 || f.Max != 236 {
		t.Fatalf("feature %+v, want an int option 118 in [0, 236]", f)
	}
	mixed := []string{lines6[0], lines7[1], lines6[2]}
	if _, ps, err := EngineEvaluator(mixed); err != nil || !reflect.DeepEqual(ps, ps7) {
		t.Fatalf("mixed forms: %v %+v", err, ps)
	}
	// On an evaluator, too.
	toy := &games.Evaluator{Name: "toy", Features: []games.Feature{{Name: "a", Min: 0, Max: 100, Step: 1}}}
	ps, err := ParseSPSAParams([]string{"a,50,0,100,5,0.0020"}, toy)
	if err != nil || len(ps) != 1 || ps[0] != (SPSAParam{Name: "a", Int: true, Start: 50, Min: 0, Max: 100, CEnd: 5, REnd: 0.002}) {
		t.Fatalf("fishtest's line on an evaluator: %v %+v", err, ps)
	}
}

// FuzzParamLines: whatever the lines, reading them as an engine's
// parameters never panics, and what is accepted is within the bounds:
// finite, min < max, start in [min, max], c_end in [1e-9, max - min],
// r_end in (0, 1e6], and one SPSA schedule over them stays finite.
func FuzzParamLines(f *testing.F) {
	f.Add(openBenchTune)
	f.Add(stockfishTune)
	f.Add("Foo, int, 5, -1e308, 1e308, 1, 0.002\n")
	f.Add("# comment\n\nx, float, 0.5, 0, 1, 0.05, 0.002\n")
	f.Add("a,1,0,2,1e-9,1e6\nb, float, 0, -2147483647, 2147483647, 4294967294, 1e-300\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<16 {
			return
		}
		ev, ps, err := EngineEvaluator(strings.Split(text, "\n"))
		if err != nil {
			if !errors.Is(err, ErrSPSAParams) {
				t.Fatalf("error %v does not wrap ErrSPSAParams", err)
			}
			return
		}
		if len(ps) == 0 || len(ev.Features) != len(ps) {
			t.Fatalf("%d params, %d features", len(ps), len(ev.Features))
		}
		sched := spsaSchedule{Iterations: MaxSPSAIterations, A: 10 * MaxSPSAIterations, Alpha: 2, Gamma: 1}
		for _, p := range ps {
			for _, v := range []float64{p.Start, p.Min, p.Max} {
				if math.IsNaN(v) || math.Abs(v) > MaxParamValue {
					t.Fatalf("%+v: %g out of bounds", p, v)
				}
			}
			if !(p.Min < p.Max) || p.Start < p.Min || p.Start > p.Max || p.CEnd < MinParamCEnd || p.CEnd > p.Max-p.Min || p.REnd <= 0 || p.REnd > MaxParamREnd || p.Name == "" {
				t.Fatalf("accepted %+v", p)
			}
			for _, k := range []int{1, MaxSPSAIterations} {
				ck, rk := sched.at(p, k)
				if math.IsNaN(ck*rk) || math.IsInf(ck*rk, 0) || math.IsInf(ck, 0) {
					t.Fatalf("%+v: c_%d %g, R_%d %g", p, k, ck, k, rk)
				}
			}
		}
	})
}
