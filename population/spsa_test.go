package population

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gametune/gametune/games"
)

// TestSPSASchedule: the schedule is fishtest's, checked on a case computed
// by hand: N = 100 iterations, A = 10, alpha 0.602, gamma 0.101, c_end 4,
// r_end 0.0025. Then c = 4 * 100^0.101 = 6.36883..., a = 0.0025 * 16 *
// 110^0.602 = 0.670..., and at k = 1: c_1 = c, a_1 = a / 11^0.602 =
// 0.159978, R_1 = a_1/c_1^2 = 0.003944; at k = N: c_N = c_end, R_N = r_end.
func TestSPSASchedule(t *testing.T) {
	s := spsaSchedule{Iterations: 100, A: 10, Alpha: 0.602, Gamma: 0.101}
	p := SPSAParam{CEnd: 4, REnd: 0.0025}
	for _, tc := range []struct {
		k      int
		ck, rk float64
	}{
		{1, 6.368834908204681, 0.0039440281742483705},
		{50, 4.29006646727177, 0.0031304249282141997},
		{100, 4, 0.0025},
	} {
		ck, rk := s.at(p, tc.k)
		if math.Abs(ck-tc.ck) > 1e-12 || math.Abs(rk-tc.rk) > 1e-15 {
			t.Errorf("k=%d: c_k %v R_k %v, want %v %v", tc.k, ck, rk, tc.ck, tc.rk)
		}
	}
	// The update of iteration 100 after a won pair (result +2) with
	// delta +1: theta moves by R*c*2 = 0.0025*4*2 = 0.02.
	st := &spsaState{sched: s, params: []SPSAParam{{Feature: 0, CEnd: 4, REnd: 0.0025, Min: -10, Max: 10}}, theta: []float64{1}}
	st.update(100, []float64{1}, 2)
	if math.Abs(st.theta[0]-1.02) > 1e-12 {
		t.Errorf("theta %v after the update, want 1.02", st.theta[0])
	}
	st.update(100, []float64{-1}, 1e6) // clipped to the range
	if st.theta[0] != -10 {
		t.Errorf("theta %v, want clipped to -10", st.theta[0])
	}
}

// TestSPSAToyConverges: on a synthetic noisy match whose expected result
// depends on the distance of each side to a known optimum, SPSA with
// fishtest's schedule brings theta from far away to near the optimum.
func TestSPSAToyConverges(t *testing.T) {
	features := []games.Feature{
		{Name: "x", Min: -100, Max: 100, Step: 1},
		{Name: "y", Min: -100, Max: 100, Step: 0.5},
		{Name: "z", Min: 0, Max: 10, Step: 0},
	}
	optimum := []float64{30, -45, 7}
	n := 4000
	params := []SPSAParam{
		{Name: "x", Feature: 0, Int: true, Start: -80, Min: -100, Max: 100, CEnd: 10, REnd: 0.02},
		{Name: "y", Feature: 1, Start: 60, Min: -100, Max: 100, CEnd: 10, REnd: 0.02},
		{Name: "z", Feature: 2, Start: 1, Min: 0, Max: 10, CEnd: 0.5, REnd: 0.02},
	}
	s := &spsaState{sched: spsaSchedule{Iterations: n, A: 0.1 * float64(n), Alpha: 0.602, Gamma: 0.101},
		params: params, theta: []float64{-80, 60, 1}, space: space{features}}
	// Strength in Elo: 0 at the optimum, -100 Elo at one c_end-scaled
	// distance of 50 (x, y) or 2.5 (z).
	elo := func(w []float64) float64 {
		e := 0.0
		for i, sc := range []float64{50, 50, 2.5} {
			d := (w[i] - optimum[i]) / sc
			e -= 100 * d * d
		}
		return e
	}
	for k := 1; k <= n; k++ {
		rng := rngFor(7, "toy", 0, k)
		delta, plus, minus := s.perturb(rng, k)
		p := 1 / (1 + math.Pow(10, (elo(minus)-elo(plus))/400))
		result := 0.0
		for g := 0; g < 2; g++ {
			switch u := rng.Float64(); {
			case u < p*0.8:
				result++
			case u > 1-(1-p)*0.8:
				result--
			}
		}
		s.update(k, delta, result)
	}
	for i, want := range optimum {
		tol := []float64{6, 6, 0.6}[i]
		if math.Abs(s.theta[i]-want) > tol {
			t.Errorf("%s: theta %.2f, want %g ± %g", features[i].Name, s.theta[i], want, tol)
		}
	}
	t.Logf("theta after %d iterations: %.2f (optimum %v)", n, s.theta, optimum)
}

func TestParseSPSAParams(t *testing.T) {
	ev := &games.Evaluator{Name: "toy", Features: []games.Feature{
		{Name: "a", Min: 0, Max: 100, Step: 1}, {Name: "b", Min: -1, Max: 1, Step: 0.1}}}
	good := []string{"# name, type, start, min, max, c_end, r_end", "a, int, 50, 0, 100, 5, 0.002", "", "b,float,0,-1,1,0.1,0.002"}
	ps, err := ParseSPSAParams(good, ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || !ps[0].Int || ps[1].Int || ps[1].Feature != 1 || ps[0].CEnd != 5 {
		t.Fatalf("parsed %+v", ps)
	}
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"a, int, 50, 60, 40, 5, 0.002"}, "line 1: a: min 60 > max 40"},
		{[]string{"a, int, 50, 0, 100, 0, 0.002"}, "line 1: a: c_end 0 must be > 0: want a number from 1e-09"},
		{[]string{"a, int, 50, 0, 100, -1, 0.002"}, "c_end -1 must be > 0"},
		{[]string{"a, int, 50, 0, 100, 5, 0.002", "", "c, int, 1, 0, 2, 1, 0.002"}, `line 3: unknown parameter "c"`},
		{[]string{"a, int, 50, 0, 100, 5, 0.002", "a, int, 50, 0, 100, 5, 0.002"}, `line 2: parameter "a" appears twice (first on line 1)`},
		{[]string{"a, int, 50, 0, 100"}, "line 1: 5 fields"},
		{[]string{"a, integer, 50, 0, 100, 5, 0.002"}, `line 1: a: type "integer"`},
		{[]string{"a, int, x, 0, 100, 5, 0.002"}, `start "x" is not a finite number`},
		{[]string{"a, int, 150, 0, 100, 5, 0.002"}, "start 150 is outside"},
		{[]string{"a, int, 50, -10, 100, 5, 0.002"}, "beyond the feature's [0, 100]"},
		{[]string{"a, int, 50, 0, 100, 5, 0"}, "r_end 0: want a number greater than 0"},
		{[]string{"# nothing"}, "no parameter lines"},
	} {
		_, err := ParseSPSAParams(tc.lines, ev)
		if err == nil || !errors.Is(err, ErrSPSAParams) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.lines, err, tc.want)
		}
	}
}

func smallSPSA() Config {
	c := smallGenetic()
	c.Algo, c.SPSAIterations, c.SPSABlock, c.SPSAREnd, c.SPSACEnd = SPSA, 10, 4, 1, 0.2
	return c
}

// TestSPSARun: a short SPSA run on tic-tac-toe records one generation per
// block, every game under its own stage, and its champion is theta.
func TestSPSARun(t *testing.T) {
	store := NewMemoryStore()
	res, err := newTestTuner(t, smallSPSA(), 2, store, nil, nil).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(store.Generations) != 3 || res.Stop != StopGenerations {
		t.Fatalf("%d generations, stop %q; want 3 blocks of up to 4 iterations", len(store.Generations), res.Stop)
	}
	if _, ok, _ := store.Game(GameKey{StageSPSA, 2, 3}); !ok {
		t.Fatal("the last block's games are not recorded under the spsa stage")
	}
	if res.Ladder == nil {
		t.Fatal("no ladder at the end of an SPSA run")
	}
}

// TestEngineParamsReachSPSA: with --tune-engine, every field of a
// --params line (type, start, min, max, c_end, r_end) reaches the SPSA
// tuner; the spsa-c-end and spsa-r-end defaults apply only to features no
// line names. c_k at the last iteration is the line's c_end.
func TestEngineParamsReachSPSA(t *testing.T) {
	lines := []string{"knight, int, 300, 200, 500, 15, 0.002", "mobility-knight, float, 4, 0, 10, 2, 0.005"}
	ev, _, err := EngineEvaluator(lines)
	if err != nil {
		t.Fatal(err)
	}
	var cfg Config
	cfg.EngineParamList = lines
	cfg.SPSACEnd, cfg.SPSAREnd = 0.05, 0.002
	ps, err := spsaParams(cfg, ev, []float64{300, 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []SPSAParam{
		{Name: "knight", Feature: 0, Int: true, Start: 300, Min: 200, Max: 500, CEnd: 15, REnd: 0.002},
		{Name: "mobility-knight", Feature: 1, Int: false, Start: 4, Min: 0, Max: 10, CEnd: 2, REnd: 0.005},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d parameters, want %d: %+v", len(ps), len(want), ps)
	}
	sched := spsaSchedule{Iterations: 80, A: 8, Alpha: 0.602, Gamma: 0.101}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("parameter %d: got %+v, want %+v", i, ps[i], want[i])
		}
		if ck, _ := sched.at(ps[i], 80); math.Abs(ck-want[i].CEnd) > 1e-9 {
			t.Errorf("%s: c_k at the last iteration %g, want its c_end %g", want[i].Name, ck, want[i].CEnd)
		}
	}
}
