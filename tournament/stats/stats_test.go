package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f", name, got, want)
	}
}

// TestEloByHand: W=60 D=0 L=40.
// Score s = 60/100 = 0.6; Elo = -400 log10(1/0.6 - 1) = -400 log10(2/3)
// = -400 * (-0.176091) = +70.436.
// Per-game variance = (60 (1-0.6)^2 + 40 (0.6)^2) / 100 = (9.6 + 14.4)/100
// = 0.24; standard error = sqrt(0.24/100) = 0.048990; 95%: z = 1.959964,
// s in [0.6 - 0.096018, 0.6 + 0.096018] = [0.503982, 0.696018], so
// Elo in [-400 log10(1/0.503982 - 1), -400 log10(1/0.696018 - 1)]
// = [+2.767, +143.909].
// LOS = Phi((60-40)/sqrt(100)) = Phi(2) = 0.977250.
func TestEloByHand(t *testing.T) {
	r := WDL{Wins: 60, Losses: 40}
	e := r.EloEstimate()
	near(t, "score", e.Score, 0.6, 1e-12)
	near(t, "elo", e.Elo, 70.436, 0.001)
	near(t, "low", e.Low, 2.767, 0.001)
	near(t, "high", e.High, 143.909, 0.001)
	near(t, "los", r.LOS(), 0.977250, 1e-6)
}

// TestDrawsNarrowTheInterval: 100 draws and nothing else is a score of 0.5
// with zero variance: Elo 0 with an interval of width 0; LOS 0.5.
func TestEdgeCases(t *testing.T) {
	e := (WDL{Draws: 100}).EloEstimate()
	if e.Elo != 0 || e.Low != 0 || e.High != 0 {
		t.Errorf("all draws: %+v", e)
	}
	if l := (WDL{Draws: 10}).LOS(); l != 0.5 {
		t.Errorf("LOS without decisive games = %v", l)
	}
	// 20 wins out of 20: Elo +Inf, and Wilson's lower bound on the score,
	// 20/(20 + 1.959964^2) = 20/23.841459 = 0.838875, so Elo >= +284.6.
	e = (WDL{Wins: 20}).EloEstimate()
	if !math.IsInf(e.Elo, 1) || !math.IsInf(e.High, 1) {
		t.Errorf("all wins: %+v, want +Inf", e)
	}
	near(t, "all wins: low", e.Low, 286.6, 0.1)
	e = (WDL{Losses: 20}).EloEstimate()
	near(t, "all losses: high", e.High, -286.6, 0.1)
	e = (WDL{}).EloEstimate()
	if e.Elo != 0 || !math.IsInf(e.Low, -1) || !math.IsInf(e.High, 1) {
		t.Errorf("no games: %+v", e)
	}
	if (WDL{}).Score() != 0.5 {
		t.Error("no games: score not 0.5")
	}
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if l := s.LLR(WDL{}); l != 0 {
		t.Errorf("LLR of nothing = %v", l)
	}
	if l := s.LLR(WDL{Draws: 7}); math.Abs(l) > 0.01 || math.IsNaN(l) {
		t.Errorf("LLR of draws only = %v", l)
	}
}

// TestSPRTTrinomial: H0 elo 0, H1 elo 10 (logistic), alpha = beta = 0.05.
// Bounds: ln(0.05/0.95) = -2.944439 and ln(0.95/0.05) = +2.944439.
// s0 = 0.5; s1 = 1/(1 + 10^(-10/400)) = 0.514387. With wins and losses
// only, the distribution of mean s nearest the counts is a win with
// probability s (the draw never seen counts 0.001 and moves the figure
// in the fourth decimal): W=60 L=40 gives
// LLR = 60 ln(0.514387/0.5) + 40 ln(0.485613/0.5)
// = 60 * 0.028357 - 40 * 0.029195 = 0.53363: continue.
func TestSPRTTrinomial(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	lo, hi := s.Bounds()
	near(t, "lower", lo, -2.944439, 1e-6)
	near(t, "upper", hi, 2.944439, 1e-6)
	llr := s.LLR(WDL{Wins: 60, Losses: 40})
	near(t, "llr", llr, 0.53363, 1e-3)
	if s.Decide(llr) != Continue {
		t.Error("should continue")
	}
	// Six times the games: the LLR is six times larger, 3.20: H1.
	llr = s.LLR(WDL{Wins: 360, Losses: 240})
	near(t, "llr x6", llr, 6*0.53363, 6e-3)
	if s.Decide(llr) != AcceptH1 {
		t.Error("should accept H1")
	}
	// The mirror image accepts H0.
	if s.Decide(s.LLR(WDL{Wins: 240, Losses: 360})) != AcceptH0 {
		t.Error("should accept H0")
	}
}

// TestPentanomialByHand: pairs scoring 0, 0.5, 1, 1.5, 2 points counted
// 5, 10, 30, 15, 10 (70 pairs). Per-pair scores x/2 = 0, .25, .5, .75, 1:
// mean = (0*5 + .25*10 + .5*30 + .75*15 + 1*10)/70 = 38.75/70 = 0.553571.
// variance = sum c (x - mean)^2 / 70 = 0.073023.
// Elo = -400 log10(1/0.553571 - 1) = +37.369; se = sqrt(0.073023/70) =
// 0.032299; interval [0.553571 -+ 0.063305] -> [-6.763, +82.743].
// The generalised SPRT's approximation of the logistic LLR for 0,10,
// 70 * 0.014387 * (2*0.553571 - 1.014387) / (2*0.073023) = 0.639624, is
// within 4% of the exact one. The delta method's variance of the Elo:
// 0.073023/70 * (400 / (ln 10 * 0.553571 * 0.446429))^2 = 0.00104319 *
// 702.9406^2 = 515.464 (sd 22.70 Elo).
func TestPentanomialByHand(t *testing.T) {
	p := Pentanomial{5, 10, 30, 15, 10}
	e := p.EloEstimate()
	near(t, "score", e.Score, 0.553571, 1e-6)
	near(t, "elo", e.Elo, 37.369, 0.001)
	near(t, "low", e.Low, -6.763, 0.001)
	near(t, "high", e.High, 82.743, 0.001)
	elo, variance := p.EloVariance()
	near(t, "elo of EloVariance", elo, 37.369, 0.001)
	near(t, "variance", variance, 515.464, 0.001)
	if _, v := (Pentanomial{0, 0, 0, 0, 3}).EloVariance(); !math.IsInf(v, 1) {
		t.Errorf("a clean sweep's variance is %g, want +Inf", v)
	}
	if _, v := (Pentanomial{}).EloVariance(); !math.IsInf(v, 1) {
		t.Errorf("no pairs: variance %g, want +Inf", v)
	}
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	near(t, "llr", s.LLRPairs(p), 0.639624, 0.026)
	var q Pentanomial
	q.AddPair(1, 0.5)
	q.AddPair(0, 0)
	q.AddPair(1, 1)
	if q != (Pentanomial{1, 0, 0, 1, 1}) {
		t.Errorf("AddPair: %v", q)
	}
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT("0,5")
	if err != nil || s != (SPRT{0, 5, 0.05, 0.05, Normalized}) {
		t.Fatalf("0,5: %+v %v", s, err)
	}
	s, err = ParseSPRT("-1.5, 3, 0.1, 0.2")
	if err != nil || s != (SPRT{-1.5, 3, 0.1, 0.2, Normalized}) {
		t.Fatalf("4 fields: %+v %v", s, err)
	}
	// fastchess's words, in any order, and the two forms mixed.
	for in, want := range map[string]SPRT{
		"elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic": {0, 5, 0.05, 0.05, Logistic},
		"model=normalized elo1=2 elo0=-0.5":                 {-0.5, 2, 0.05, 0.05, Normalized},
		"0,5,model=logistic":                                {0, 5, 0.05, 0.05, Logistic},
	} {
		if s, err := ParseSPRT(in); err != nil || s != want {
			t.Errorf("%q: %+v %v, want %+v", in, s, err, want)
		}
	}
	for in, want := range map[string]string{
		"5":               "want elo0,elo1",
		"5,0":             "must be below",
		"0,5,1,0.1":       "alpha and beta",
		"0,x":             "not a number",
		"0,5,0.05":        "want elo0,elo1",
		"0,5,model=bayes": "the models are normalized and logistic",
		"elo0=0 elo0=1":   "given twice",
		"0,5,0.1,0.1,3":   "too many numbers",
		"0,5000":          "within ±1000",
		"elo0=0 gamma=1":  "unknown word",
	} {
		if _, err := ParseSPRT(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,5", "0,5,0.05,0.05", "", ",,,", "NaN,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseSPRT(s)
		if err != nil {
			return
		}
		lo, hi := p.Bounds()
		if !(lo < 0 && hi > 0) {
			t.Fatalf("%q: bounds %v %v", s, lo, hi)
		}
	})
}

func ExampleWDL_EloEstimate() {
	r := WDL{Wins: 60, Draws: 0, Losses: 40}
	fmt.Println(r.EloEstimate())
	// Output: +70.4 [+2.8, +143.9]
}
