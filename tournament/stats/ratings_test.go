package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// rate is Rate for a test that expects no error.
func rate(t *testing.T, n int, results []PairResult, opts RatingOptions) Ratings {
	t.Helper()
	r, err := Rate(n, results, opts)
	if err != nil {
		t.Fatalf("Rate: %v", err)
	}
	return r
}

// noPrior fits by plain maximum likelihood, anchored at player 0.
var noPrior = RatingOptions{PriorGames: -1}

// TestRatePlainElo: without draws the fitted draw margin is 0 and the model
// is plain Elo, so 75 wins and 25 losses give Elo(0.75) = 400 log10(3) =
// +190.85.
func TestRatePlainElo(t *testing.T) {
	r := rate(t, 2, []PairResult{{A: 1, B: 0, WDL: WDL{Wins: 75, Losses: 25}}}, noPrior)
	near(t, "elo", r.Players[1].Elo, Elo(0.75), 0.1)
	near(t, "elo", r.Players[1].Elo, 190.85, 0.01)
	if r.DrawElo != 0 {
		t.Errorf("draw elo = %v, want 0", r.DrawElo)
	}
	if p := r.Players[0]; p.Elo != 0 || p.Low != 0 || p.High != 0 || p.Games != 100 {
		t.Errorf("anchor = %+v, want 0 with 100 games", p)
	}
}

// TestRateDrawMargin: with W/D/L = 30/40/30 the players are equal and the
// model's P(win) = 1/(1+10^(δ/400)) must be the observed 0.3, so
// 10^(δ/400) = 7/3 and δ = 400 log10(7/3) = 147.19. The default prior adds
// one game, half won and half lost: 30.5/40/30.5, P(win) = 30.5/101,
// δ = 400 log10(70.5/30.5) = 145.56; a prior of 9 games: 34.5/40/34.5,
// δ = 400 log10(74.5/34.5) = 133.73.
func TestRateDrawMargin(t *testing.T) {
	results := []PairResult{{A: 0, B: 1, WDL: WDL{Wins: 30, Draws: 40, Losses: 30}}}
	for _, tc := range []struct {
		name  string
		opts  RatingOptions
		delta float64
	}{
		{"no prior", noPrior, 400 * math.Log10(7.0/3)},
		{"default prior", RatingOptions{}, 145.56},
		{"prior of 9", RatingOptions{PriorGames: 9}, 133.73},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rate(t, 2, results, tc.opts)
			near(t, "elo", r.Players[1].Elo, 0, 1e-6)
			near(t, "draw elo", r.DrawElo, tc.delta, 0.5)
		})
	}
}

// TestRateChain: A beats B 64-36, B beats C 64-36, and A beats C at the
// score these imply, 0.64²/(0.64²+0.36²) = 256/337. Consistent data are
// fitted exactly: A-B = B-C = Elo(0.64) = 99.96, A-C = 199.93.
func TestRateChain(t *testing.T) {
	const a, b, c = 2, 1, 0
	r := rate(t, 3, []PairResult{
		{A: a, B: b, WDL: WDL{Wins: 64, Losses: 36}},
		{A: b, B: c, WDL: WDL{Wins: 64, Losses: 36}},
		{A: a, B: c, WDL: WDL{Wins: 256, Losses: 81}},
	}, noPrior)
	e := r.Players
	near(t, "A-B", e[a].Elo-e[b].Elo, Elo(0.64), 1)
	near(t, "B-C", e[b].Elo-e[c].Elo, Elo(0.64), 1)
	near(t, "A-C", e[a].Elo-e[c].Elo, Elo(256.0/337), 1)
	near(t, "A-C", e[a].Elo-e[c].Elo, 2*Elo(0.64), 1)
}

// simulate plays pairs colour-swapped pairs between every two players
// whose ratings are elos, under the model with draw margin drawElo.
func simulate(rng *rand.Rand, elos []float64, drawElo float64, pairs int) []PairResult {
	var out []PairResult
	for i := range elos {
		for j := i + 1; j < len(elos); j++ {
			d := elos[i] - elos[j]
			win := 1 / (1 + math.Pow(10, (drawElo-d)/400))
			loss := 1 / (1 + math.Pow(10, (drawElo+d)/400))
			var w WDL
			for range 2 * pairs {
				switch u := rng.Float64(); {
				case u < win:
					w.Wins++
				case u < win+loss:
					w.Losses++
				default:
					w.Draws++
				}
			}
			out = append(out, PairResult{A: i, B: j, WDL: w})
		}
	}
	return out
}

// TestRateSymmetries: symmetric results rate everyone 0; writing every
// result from B's side changes nothing; swapping wins and losses negates
// the ratings; the results' order does not matter.
func TestRateSymmetries(t *testing.T) {
	sym := rate(t, 3, []PairResult{
		{A: 0, B: 1, WDL: WDL{Wins: 7, Draws: 5, Losses: 7}},
		{A: 1, B: 2, WDL: WDL{Wins: 3, Draws: 2, Losses: 3}},
		{A: 2, B: 0, WDL: WDL{Wins: 4, Draws: 0, Losses: 4}},
	}, RatingOptions{})
	for i, p := range sym.Players {
		near(t, fmt.Sprintf("symmetric: player %d", i), p.Elo, 0, 1e-6)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	results := simulate(rng, []float64{0, 50, -120, 200, 10, 80}, 100, 3)
	opts := RatingOptions{Anchor: 2}
	base := rate(t, 6, results, opts)

	flipped := make([]PairResult, len(results))
	negated := make([]PairResult, len(results))
	for i, r := range results {
		w := r.WDL
		flipped[i] = PairResult{A: r.B, B: r.A, WDL: WDL{Wins: w.Losses, Draws: w.Draws, Losses: w.Wins}}
		negated[i] = PairResult{A: r.A, B: r.B, WDL: WDL{Wins: w.Losses, Draws: w.Draws, Losses: w.Wins}}
	}
	shuffled := slices.Clone(results)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })

	for _, tc := range []struct {
		name    string
		results []PairResult
		sign    float64
	}{
		{"from B's side", flipped, 1},
		{"wins and losses swapped", negated, -1},
		{"shuffled", shuffled, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rate(t, 6, tc.results, opts)
			for i, p := range r.Players {
				near(t, fmt.Sprintf("player %d", i), p.Elo, tc.sign*base.Players[i].Elo, 1e-4)
				near(t, fmt.Sprintf("player %d: half width", i), (p.High-p.Low)/2, (base.Players[i].High-base.Players[i].Low)/2, 1e-4)
			}
			near(t, "draw elo", r.DrawElo, base.DrawElo, 1e-4)
		})
	}
}

// TestRateInterval: for two players, N games without draws and a score s,
// the likelihood's information about d (natural units) is N s(1-s), so
// the standard error in Elo is (400/ln 10)/sqrt(N s(1-s)), which is also
// the delta method's: dElo/ds = (400/ln 10)/(s(1-s)) times sqrt(s(1-s)/N).
// For s = 0.6, N = 100: 173.72/sqrt(24) = 35.46 Elo, ±69.50 at 95%.
// Four times the games halve it.
func TestRateInterval(t *testing.T) {
	var half []float64
	for _, n := range []int{100, 400} {
		r := rate(t, 2, []PairResult{{A: 1, B: 0, WDL: WDL{Wins: 6 * n / 10, Losses: 4 * n / 10}}}, noPrior)
		s := 0.6
		se := 400 / math.Ln10 / math.Sqrt(float64(n)*s*(1-s))
		p := r.Players[1]
		h := (p.High - p.Low) / 2
		near(t, fmt.Sprintf("N=%d: half width / (1.96 se)", n), h/(z95*se), 1, 0.02)
		near(t, fmt.Sprintf("N=%d: centred", n), p.High-p.Elo, p.Elo-p.Low, 1e-9)
		half = append(half, h)
	}
	near(t, "N=100 half width", half[0], 69.50, 0.05)
	near(t, "half width ratio, 4x games", half[0]/half[1], 2, 0.02)
}

// TestRateCleanSweep: 20 wins out of 20 have an infinite maximum-likelihood
// rating. The default prior adds half a win and half a loss: 20.5/0/0.5,
// so Elo = 400 log10(20.5/0.5) = 400 log10(41) = +645.1, with a standard
// error of (400/ln 10)/sqrt(21 (20.5/21)(0.5/21)) = 173.72/sqrt(0.48810)
// = 248.65, so Low = 645.1 - 1.96*248.65 = +157.8.
func TestRateCleanSweep(t *testing.T) {
	results := []PairResult{{A: 1, B: 0, WDL: WDL{Wins: 20}}}
	r := rate(t, 2, results, RatingOptions{})
	p := r.Players[1]
	if math.IsInf(p.High, 0) || p.Elo <= 0 || !(p.Low > 0) {
		t.Errorf("clean sweep with the default prior: %+v, want finite and Low > 0", p)
	}
	near(t, "elo", p.Elo, 645.1, 0.1)
	near(t, "low", p.Low, 157.8, 0.1)

	// With draws too, the draw margin is fitted to the pair alone.
	r = rate(t, 2, []PairResult{{A: 0, B: 1, WDL: WDL{Wins: 15, Draws: 5}}}, RatingOptions{})
	if p := r.Players[1]; !(p.High < 0) || math.IsInf(p.Low, 0) || !(r.DrawElo > 0) {
		t.Errorf("15 wins and 5 draws with the default prior: %+v, draw elo %v", p, r.DrawElo)
	}

	_, err := Rate(2, results, noPrior)
	var unrated *UnratedError
	if !errors.Is(err, ErrUnbounded) || !errors.As(err, &unrated) || !slices.Equal(unrated.Players, []int{1}) {
		t.Errorf("clean sweep without a prior: %v, want ErrUnbounded for player 1", err)
	}
}

// TestRateAllDraws: with the default prior, a pool that drew every game is
// rated all 0 with finite intervals and a large draw margin.
func TestRateAllDraws(t *testing.T) {
	r := rate(t, 3, []PairResult{{0, 1, WDL{Draws: 10}}, {1, 2, WDL{Draws: 10}}}, RatingOptions{})
	for i, p := range r.Players {
		near(t, fmt.Sprintf("player %d", i), p.Elo, 0, 1e-6)
		if math.IsInf(p.Low, 0) || math.IsNaN(p.Low) {
			t.Errorf("player %d: %+v, want a finite interval", i, p)
		}
	}
	if !(r.DrawElo > 400) {
		t.Errorf("draw elo = %v, want large", r.DrawElo)
	}
}

func TestRateErrors(t *testing.T) {
	one := WDL{Wins: 1, Draws: 1, Losses: 1}
	for _, tc := range []struct {
		name    string
		n       int
		results []PairResult
		opts    RatingOptions
		want    error
		players []int
	}{
		{"one player", 1, nil, RatingOptions{}, ErrTooFewPlayers, nil},
		{"anchor too big", 2, []PairResult{{0, 1, one}}, RatingOptions{Anchor: 2}, ErrBadAnchor, nil},
		{"negative anchor", 2, []PairResult{{0, 1, one}}, RatingOptions{Anchor: -1}, ErrBadAnchor, nil},
		{"player out of range", 2, []PairResult{{0, 2, one}}, RatingOptions{}, ErrBadResult, nil},
		{"negative player", 2, []PairResult{{-1, 1, one}}, RatingOptions{}, ErrBadResult, nil},
		{"against itself", 2, []PairResult{{1, 1, one}}, RatingOptions{}, ErrBadResult, nil},
		{"negative count", 2, []PairResult{{0, 1, WDL{Wins: -1}}}, RatingOptions{}, ErrBadResult, nil},
		{"NaN prior", 2, []PairResult{{0, 1, one}}, RatingOptions{PriorGames: math.NaN()}, ErrBadPrior, nil},
		{"no games", 2, nil, RatingOptions{}, ErrDisconnected, []int{1}},
		{"an empty result", 2, []PairResult{{0, 1, WDL{}}}, RatingOptions{}, ErrDisconnected, []int{1}},
		{"island", 5, []PairResult{{0, 1, one}, {2, 3, one}, {3, 4, one}}, RatingOptions{}, ErrDisconnected, []int{2, 3, 4}},
		{"island from anchor 3", 5, []PairResult{{0, 1, one}, {2, 3, one}, {3, 4, one}}, RatingOptions{Anchor: 3}, ErrDisconnected, []int{0, 1}},
		{"only draws", 2, []PairResult{{0, 1, WDL{Draws: 4}}}, noPrior, ErrNoDecisiveGame, nil},
		{"wins and draws, no loss", 2, []PairResult{{0, 1, WDL{Wins: 3, Draws: 2}}}, noPrior, ErrUnbounded, nil},
		{"a winner over the rest", 3, []PairResult{{0, 1, one}, {2, 0, WDL{Wins: 3}}, {2, 1, WDL{Wins: 1}}}, noPrior, ErrUnbounded, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Rate(tc.n, tc.results, tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var unrated *UnratedError
			if errors.As(err, &unrated) != (tc.players != nil) || (tc.players != nil && !slices.Equal(unrated.Players, tc.players)) {
				t.Errorf("error %v: players %v, want %v", err, unrated, tc.players)
			}
		})
	}
}

// testProblem is a small pool with draws, aggregated as Rate does.
func testProblem(t *testing.T) *ladderProblem {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	pairs, _, err := aggregate(5, simulate(rng, []float64{0, 100, -50, 30, 250}, 80, 4))
	if err != nil {
		t.Fatal(err)
	}
	for i := range pairs {
		pairs[i].draws++
	}
	return newLadderProblem(5, 1, pairs, true)
}

// TestRateGradient checks the analytic gradient the optimiser uses, and the
// analytic Hessian behind the intervals, against finite differences.
func TestRateGradient(t *testing.T) {
	p := testProblem(t)
	x := []float64{0.3, -0.2, 0.1, 0.8, math.Log(0.5)}
	grad := make([]float64, len(x))
	p.objective(x, grad)
	want := fd.Gradient(nil, func(x []float64) float64 { return p.objective(x, nil) }, x, &fd.Settings{Formula: fd.Central})
	for i := range grad {
		near(t, fmt.Sprintf("gradient %d", i), grad[i], want[i], 1e-7)
	}

	// The Hessian is over (ratings, η).
	y := slices.Clone(x)
	y[4] = 0.5
	nll := func(y []float64) float64 { return p.eval(y[:4], y[4], nil, nil) }
	var h, wantH mat.SymDense
	h.ReuseAsSym(5)
	p.eval(y[:4], y[4], nil, &h)
	fd.Hessian(&wantH, nll, y, &fd.Settings{Formula: fd.Central})
	for i := range 5 {
		for j := range 5 {
			got, want := h.At(i, j), wantH.At(i, j)
			if math.Abs(got-want) > 1e-3*max(1, math.Abs(want)) {
				t.Errorf("Hessian (%d, %d) = %.6f, want %.6f", i, j, got, want)
			}
		}
	}
}

// TestRateRecovers: a pool simulated from known ratings is rated near
// them, within its intervals, and Difference agrees with the intervals
// when one side is the anchor.
func TestRateRecovers(t *testing.T) {
	elos := []float64{0, 100, -50, 30, 250, -200}
	rng := rand.New(rand.NewPCG(5, 6))
	r := rate(t, len(elos), simulate(rng, elos, 120, 50), RatingOptions{})
	for i, p := range r.Players {
		if p.Low > elos[i] || p.High < elos[i] {
			t.Errorf("player %d: %.1f [%.1f, %.1f], true %v", i, p.Elo, p.Low, p.High, elos[i])
		}
		if p.Games != 100*(len(elos)-1) {
			t.Errorf("player %d: %d games, want %d", i, p.Games, 100*(len(elos)-1))
		}
		d, lo, hi := r.Difference(i, 0)
		near(t, fmt.Sprintf("difference %d-0", i), d, p.Elo, 1e-9)
		near(t, fmt.Sprintf("difference %d-0: low", i), lo, p.Low, 1e-6)
		near(t, fmt.Sprintf("difference %d-0: high", i), hi, p.High, 1e-6)
	}
	near(t, "draw elo", r.DrawElo, 120, 15)
}

// BenchmarkRate rates 40 players after a round robin of 20 colour-swapped
// pairs per pairing (780 pairings, 31,200 games).
func BenchmarkRate(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	elos := make([]float64, 40)
	for i := range elos {
		elos[i] = 400 * (rng.Float64() - 0.5)
	}
	results := simulate(rng, elos, 100, 20)
	for b.Loop() {
		if _, err := Rate(len(elos), results, RatingOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleRate() {
	// Player 0 is the default weights, the anchor; 1 and 2 are tuned.
	results := []PairResult{
		{A: 1, B: 0, WDL: WDL{Wins: 40, Draws: 30, Losses: 30}},
		{A: 2, B: 0, WDL: WDL{Wins: 55, Draws: 25, Losses: 20}},
		{A: 2, B: 1, WDL: WDL{Wins: 35, Draws: 35, Losses: 30}},
	}
	r, err := Rate(3, results, RatingOptions{Anchor: 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range r.Players {
		fmt.Printf("player %d: %+6.1f [%+6.1f, %+6.1f] in %d games\n", i, p.Elo, p.Low, p.High, p.Games)
	}
	fmt.Printf("draw margin: %.1f Elo\n", r.DrawElo)
	d, lo, hi := r.Difference(2, 1)
	fmt.Printf("2 - 1: %+.1f [%+.1f, %+.1f]\n", d, lo, hi)
	// Output:
	// player 0:   +0.0 [  +0.0,   +0.0] in 200 games
	// player 1:  +66.2 [ +14.4, +118.0] in 200 games
	// player 2: +111.2 [ +58.5, +164.0] in 200 games
	// draw margin: 111.7 Elo
	// 2 - 1: +45.1 [-6.0, +96.1]
}
