package stats

import (
	"math"
	"testing"
)

// fastchess's test suite (app/tests/sprt_test.cpp and elo_test.cpp of
// Disservin/fastchess) gives these figures, rounded to two decimals, for
// its exact maximum-likelihood LLR and its normalized Elo. Its trinomial
// counts are written (wins, losses, draws), its pentanomial counts (LL, LD,
// WL, DD, WD, WW); gametune's Pentanomial counts pairs by points (0, 0.5,
// 1, 1.5, 2), so WL and DD add up into the middle.
func fastchessWDL(wins, losses, draws int) WDL {
	return WDL{Wins: wins, Draws: draws, Losses: losses}
}

func fastchessPenta(ll, ld, wl, dd, wd, ww int) Pentanomial {
	return Pentanomial{ll, ld, wl + dd, wd, ww}
}

// within is doctest's Approx(want).epsilon(0.01): a relative error of 1%.
func within(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 0.01*math.Max(math.Abs(got), math.Abs(want)) {
		t.Errorf("%s = %.4f, fastchess %.2f", what, got, want)
	}
}

func TestSPRTFastchessFigures(t *testing.T) {
	normalized := func(elo0, elo1 float64) SPRT { return SPRT{elo0, elo1, 0.05, 0.05, Normalized} }
	logistic := func(elo0, elo1 float64) SPRT { return SPRT{elo0, elo1, 0.05, 0.05, Logistic} }
	for _, c := range []struct {
		name string
		sprt SPRT
		wdl  WDL
		want float64
	}{
		{"normalized trinomial 1", normalized(0, 2), fastchessWDL(36433, 36027, 68692), 0.92},
		{"normalized trinomial 2", normalized(-1.75, 0.25), fastchessWDL(10871, 10650, 20431), 2.30},
		{"logistic trinomial 1", logistic(0.5, 2.5), fastchessWDL(21404, 21184, 40708), -1.57},
		{"logistic trinomial 2", logistic(0, 2), fastchessWDL(57433, 57030, 106593), -2.59},
	} {
		within(t, c.name, c.sprt.LLR(c.wdl), c.want)
	}
	for _, c := range []struct {
		name  string
		sprt  SPRT
		penta Pentanomial
		want  float64
	}{
		{"normalized pentanomial 1", normalized(0, 2), fastchessPenta(365, 16618, 36029, 200, 16974, 390), 2.25},
		{"normalized pentanomial 2", normalized(-1.75, 0.25), fastchessPenta(127, 4883, 10311, 401, 5150, 104), 3.01},
		{"logistic pentanomial 1", logistic(0.5, 2.5), fastchessPenta(223, 9863, 20279, 1000, 10037, 246), -3.07},
		{"logistic pentanomial 2", logistic(0, 2), fastchessPenta(871, 26175, 55003, 980, 26678, 821), -4.98},
	} {
		within(t, c.name, c.sprt.LLRPairs(c.penta), c.want)
	}
	// fastchess's third cases have a single outcome: 16,700 draws (it
	// prints LLR +2.97 for 0,5) and 104 pairs won twice (+2.94). With
	// draws only the observed normalized Elo is 0, elo0 itself, so the
	// distribution nearest the counts under H0 is the counts' own and the
	// LLR is minus a Kullback-Leibler divergence: it cannot be positive,
	// and a converged fit gives -3.45. Such counts are degenerate (every
	// other outcome weighs 0.001); gametune holds only to the signs.
	if l := normalized(0, 5).LLR(fastchessWDL(0, 0, 16700)); !(l < 0) {
		t.Errorf("draws only: LLR %.4f, want below 0", l)
	}
	if l := normalized(0, 5).LLRPairs(fastchessPenta(0, 0, 0, 0, 0, 104)); !(l > 0) {
		t.Errorf("pairs won only: LLR %.4f, want above 0", l)
	}
}

// TestNormalizedEloFastchessFigures: the nElo and its half interval that
// fastchess prints, and its logistic Elo and half interval, for the same
// counts; then the draw ratio and pairs ratio by hand.
func TestNormalizedEloFastchessFigures(t *testing.T) {
	for _, c := range []struct {
		wdl            WDL
		nelo, nerr     float64
		elo, err, los  float64
		hasElo, hasLOS bool
		name           string
	}{
		{wdl: fastchessWDL(76, 89, 123), nelo: -20.76, nerr: 40.13, los: 0.1553, hasLOS: true, name: "EloWDL 1"},
		{wdl: fastchessWDL(136, 96, 111), nelo: 49.77, nerr: 36.77, elo: 40.70, err: 30.43, los: 0.9960, hasElo: true, hasLOS: true, name: "EloWDL 2"},
		{wdl: fastchessWDL(34, 356, 0), nelo: -508.44, nerr: 34.48, name: "EloWDL 3"},
	} {
		n := c.wdl.NormalizedElo()
		within(t, c.name+" nElo", n.Elo, c.nelo)
		within(t, c.name+" nElo error", (n.High-n.Low)/2, c.nerr)
		if c.hasElo {
			e := c.wdl.EloEstimate()
			within(t, c.name+" Elo", e.Elo, c.elo)
			within(t, c.name+" Elo error", (e.High-e.Low)/2, c.err)
		}
		if c.hasLOS && math.Abs(c.wdl.LOS()-c.los) > 0.002 {
			t.Errorf("%s LOS = %.4f, fastchess %.4f", c.name, c.wdl.LOS(), c.los)
		}
	}
	for _, c := range []struct {
		penta         Pentanomial
		nelo, nerr    float64
		elo, err, los float64
		name          string
	}{
		{fastchessPenta(34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 1.0, "EloPentanomial 1"},
		{fastchessPenta(332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 0.0505, "EloPentanomial 2"},
		{fastchessPenta(7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, 0, "EloPentanomial 3"},
	} {
		n, e := c.penta.NormalizedElo(), c.penta.EloEstimate()
		within(t, c.name+" nElo", n.Elo, c.nelo)
		within(t, c.name+" nElo error", (n.High-n.Low)/2, c.nerr)
		within(t, c.name+" Elo", e.Elo, c.elo)
		within(t, c.name+" Elo error", (e.High-e.Low)/2, c.err)
		if c.los != 0 && math.Abs(c.penta.LOS()-c.los) > 0.0005 {
			t.Errorf("%s LOS = %.4f, fastchess %.4f", c.name, c.penta.LOS(), c.los)
		}
	}
	// 290 pairs: 63 level (31 win-loss, 32 double draws), 139 won (64 +
	// 75), 88 lost (34 + 54).
	p := fastchessPenta(34, 54, 31, 32, 64, 75)
	near(t, "draw ratio", p.DrawRatio(), 63.0/290, 1e-12)
	near(t, "pairs ratio", p.PairsRatio(), 139.0/88, 1e-12)
	if !math.IsInf((Pentanomial{0, 0, 1, 1, 0}).PairsRatio(), 1) || !math.IsNaN((Pentanomial{0, 0, 3, 0, 0}).PairsRatio()) {
		t.Error("pairs ratio without lost pairs")
	}
	if e := (Pentanomial{}).NormalizedElo(); e.Elo != 0 || !math.IsInf(e.Low, -1) {
		t.Errorf("nElo of nothing: %+v", e)
	}
}

// TestNormalizedAgreesWithLogistic: where the draw ratio makes one game's
// standard deviation 1/2 (no draws), normalized and logistic Elo agree to
// first order near 0, so tests of the same small bounds give nearly the
// same LLR; and the LLR is antisymmetric under swapping the players and
// the bounds.
func TestNormalizedAgreesWithLogistic(t *testing.T) {
	r := WDL{Wins: 5200, Losses: 4800}
	// Without draws one game's sd is 1/2 near a score of 1/2, and the
	// logistic slope there is ln10/1600 per Elo, so nElo = (s - 1/2)/(1/2)
	// * 800/ln10 = Elo: bounds 0,5 mean nearly the same test in both.
	ln := SPRT{0, 5, 0.05, 0.05, Logistic}.LLR(r)
	nn := SPRT{0, 5, 0.05, 0.05, Normalized}.LLR(r)
	if math.Abs(ln-nn) > 0.02*math.Abs(ln) {
		t.Errorf("no draws: logistic LLR %.4f, normalized %.4f", ln, nn)
	}
	s := SPRT{-2, 3, 0.05, 0.05, Normalized}
	mirror := SPRT{-3, 2, 0.05, 0.05, Normalized}
	p := Pentanomial{10, 40, 100, 55, 12}
	q := Pentanomial{12, 55, 100, 40, 10}
	if a, b := s.LLRPairs(p), mirror.LLRPairs(q); math.Abs(a+b) > 1e-6 {
		t.Errorf("mirror: %.6f and %.6f", a, b)
	}
}

// TestKept: the one rule that keeps a candidate, on pairs worked by hand.
// The issue's case, 250 pairs counted [32 3 109 72 34] by points (0, 0.5,
// 1, 1.5, 2): the mean pair score is (0.25*3 + 0.5*109 + 0.75*72 + 34)/250
// = 143.25/250 = 0.573, so Elo = 400 log10(0.573/0.427) = +51.09; the
// pairs' mean square is (0.0625*3 + 0.25*109 + 0.5625*72 + 34)/250 =
// 0.40775, their variance 0.40775 - 0.573² = 0.079421, the standard error
// sqrt(0.079421/250) = 0.017824, and the interval's low end Elo(0.573 -
// 1.96*0.017824) = Elo(0.538066) = +26.5. Its LLR for 0,10 nElo, 2.23,
// crosses no bound (±2.944): the SPRT is undecided at its cap, and the
// interval above 0 keeps the candidate. The same pairs short of the cap,
// or a test that accepted H0, keep nothing; H1 keeps whatever the
// interval; 250 pairs of one win and one loss each (Elo 0, its interval
// [0, 0] by the variance 0) keep nothing either.
func TestKept(t *testing.T) {
	issue := Pentanomial{32, 3, 109, 72, 34}
	e := issue.EloEstimate()
	if math.Abs(e.Score-0.573) > 1e-12 || math.Abs(e.Elo-51.09) > 0.01 || math.Abs(e.Low-26.5) > 0.05 || e.High < 76 || e.High > 76.5 {
		t.Fatalf("the issue's pairs: %v (score %g)", e, e.Score)
	}
	test := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if llr := test.LLRPairs(issue); test.Decide(llr) != Continue || math.Abs(llr-2.23) > 0.01 {
		t.Fatalf("the issue's LLR %g decides %v", llr, test.Decide(llr))
	}
	even := Pentanomial{0, 0, 250, 0, 0}
	for _, c := range []struct {
		name     string
		status   Status
		p        Pentanomial
		maxPairs int
		want     bool
	}{
		{"undecided at the cap, interval above 0", Continue, issue, 250, true},
		{"undecided short of the cap", Continue, issue, 251, false},
		{"H0 accepted", AcceptH0, issue, 250, false},
		{"H1 accepted", AcceptH1, Pentanomial{0, 0, 1, 0, 0}, 250, true},
		{"undecided at the cap, even", Continue, even, 250, false},
		{"no pairs, no cap", Continue, Pentanomial{}, 0, false},
	} {
		if got := Kept(c.status, c.p, c.maxPairs); got != c.want {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
	}
}
