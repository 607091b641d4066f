// Package stats holds the statistics of engine testing as pure functions:
// wins, draws and losses, the score, the Elo difference with its 95%
// interval (per game or per colour-swapped pair), the likelihood of
// superiority, and the sequential probability ratio test of fishtest and
// fastchess, per game (trinomial) and per pair (pentanomial).
// Rate fits the ratings of a pool of players by maximum likelihood. Float
// is the JSON number of every JSON shape, which may be infinite (an Elo
// bound after a clean sweep) or undefined.
package stats

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// WDL counts results from one player's point of view. The JSON shapes of
// matches, standings, ladders and yardsticks embed it.
type WDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is W+D+L.
func (r WDL) Games() int { return r.Wins + r.Draws + r.Losses }

// Points is W + D/2.
func (r WDL) Points() float64 { return float64(r.Wins) + float64(r.Draws)/2 }

// Score is points per game; 0.5 with no game.
func (r WDL) Score() float64 {
	if r.Games() == 0 {
		return 0.5
	}
	return r.Points() / float64(r.Games())
}

// Add counts one game worth s points (1, 0.5 or 0).
func (r *WDL) Add(s float64) {
	switch {
	case s > 0.75:
		r.Wins++
	case s < 0.25:
		r.Losses++
	default:
		r.Draws++
	}
}

// Pentanomial counts colour-swapped pairs by the points the player scored
// over the pair: index 0 for 0 points, 1 for 0.5, ..., 4 for 2.
type Pentanomial [5]int

// AddPair counts one pair whose two games scored a and b points.
func (p *Pentanomial) AddPair(a, b float64) {
	i := int(math.Round(2 * (a + b)))
	p[min(max(i, 0), 4)]++
}

// Pairs is the number of pairs.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Elo converts a score in (0, 1) to an Elo difference: -400 log10(1/s - 1);
// -Inf and +Inf at 0 and 1.
func Elo(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/score-1)
}

// ExpectedScore converts an Elo difference to a score: 1/(1+10^(-elo/400)).
func ExpectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Estimate is an Elo difference with its 95% interval.
type Estimate struct {
	Score     float64
	Elo       float64
	Low, High float64 // the 95% interval; ±Inf at a score of 0 or 1
}

// String writes "+70.4 ± 73" (the interval's half width, or its bounds
// when lopsided).
func (e Estimate) String() string {
	e.Elo, e.Low, e.High = e.Elo+0, e.Low+0, e.High+0 // no "-0.0"
	if math.IsInf(e.Low, 0) || math.IsInf(e.High, 0) || math.IsInf(e.Elo, 0) {
		return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", e.Elo, e.Low, e.High)
	}
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, (e.High-e.Low)/2)
}

// z95 is the normal quantile of 97.5%.
var z95 = distuv.UnitNormal.Quantile(0.975)

// estimate maps mean ± z*sqrt(variance/n) through Elo. At a score of 0 or
// 1 the variance estimate is 0 and says nothing; the bound on the other
// side is then Wilson's, n/(n+z²) away from the edge, so that a clean
// sweep of n games still gives a finite lower bound.
func estimate(mean, variance float64, n int) Estimate {
	if n == 0 {
		return Estimate{Score: 0.5, Elo: 0, Low: math.Inf(-1), High: math.Inf(1)}
	}
	nf := float64(n)
	switch {
	case mean >= 1:
		return Estimate{Score: mean, Elo: math.Inf(1), Low: Elo(nf / (nf + z95*z95)), High: math.Inf(1)}
	case mean <= 0:
		return Estimate{Score: mean, Elo: math.Inf(-1), Low: math.Inf(-1), High: Elo(1 - nf/(nf+z95*z95))}
	}
	se := math.Sqrt(variance / nf)
	return Estimate{Score: mean, Elo: Elo(mean), Low: Elo(mean - z95*se), High: Elo(mean + z95*se)}
}

// trinomial returns the per-game mean score and variance.
func (r WDL) trinomial() (mean, variance float64) {
	n := float64(r.Games())
	if n == 0 {
		return 0.5, 0
	}
	mean = r.Score()
	variance = (float64(r.Wins)*(1-mean)*(1-mean) + float64(r.Draws)*(0.5-mean)*(0.5-mean) + float64(r.Losses)*mean*mean) / n
	return mean, variance
}

// EloEstimate is the Elo difference of r with a 95% interval from the
// per-game variance.
func (r WDL) EloEstimate() Estimate {
	m, v := r.trinomial()
	return estimate(m, v, r.Games())
}

// pentanomial returns the per-pair mean score (in [0, 1]) and variance.
func (p Pentanomial) pentanomial() (mean, variance float64) {
	n := float64(p.Pairs())
	if n == 0 {
		return 0.5, 0
	}
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= n
	for i, c := range p {
		d := float64(i)/4 - mean
		variance += float64(c) * d * d
	}
	return mean, variance / n
}

// EloEstimate is the Elo difference with a 95% interval from the per-pair
// variance, which accounts for the openings' bias.
func (p Pentanomial) EloEstimate() Estimate {
	m, v := p.pentanomial()
	return estimate(m, v, p.Pairs())
}

// LOS is the likelihood of superiority: the probability that the player is
// the stronger, Phi((W-L)/sqrt(W+L)); 0.5 without a decisive game.
func (r WDL) LOS() float64 {
	if r.Wins+r.Losses == 0 {
		return 0.5
	}
	return distuv.UnitNormal.CDF(float64(r.Wins-r.Losses) / math.Sqrt(float64(r.Wins+r.Losses)))
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against H1:
// elo = Elo1, with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Status is the state of a test.
type Status int

const (
	Continue Status = iota // no bound crossed
	AcceptH0               // the lower bound was crossed: not the gain sought
	AcceptH1               // the upper bound was crossed: the gain is there
)

func (s Status) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[s]
}

// Bounds are the log-likelihood-ratio bounds: ln(beta/(1-alpha)) and
// ln((1-beta)/alpha).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// llr is the generalised SPRT's log-likelihood ratio for n samples of mean
// and variance, under the logistic Elo model:
// n (s1 - s0) (2 mean - s0 - s1) / (2 variance).
func (t SPRT) llr(mean, variance float64, n int) float64 {
	if n == 0 || variance <= 0 {
		return 0
	}
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	return float64(n) * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

// LLR is the log-likelihood ratio of the per-game (trinomial) results.
func (t SPRT) LLR(r WDL) float64 {
	m, v := r.trinomial()
	return t.llr(m, v, r.Games())
}

// LLRPairs is the log-likelihood ratio of the per-pair (pentanomial) results.
func (t SPRT) LLRPairs(p Pentanomial) float64 {
	m, v := p.pentanomial()
	return t.llr(m, v, p.Pairs())
}

// Decide says whether llr crosses a bound.
func (t SPRT) Decide(llr float64) Status {
	lo, hi := t.Bounds()
	switch {
	case llr <= lo:
		return AcceptH0
	case llr >= hi:
		return AcceptH1
	}
	return Continue
}

// ErrBadSPRT is wrapped by ParseSPRT's errors.
var ErrBadSPRT = errors.New("stats: bad SPRT")

// ParseSPRT reads "elo0,elo1" or "elo0,elo1,alpha,beta" (alpha and beta
// default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return SPRT{}, fmt.Errorf("%w %q: want elo0,elo1 or elo0,elo1,alpha,beta (e.g. 0,5 or 0,5,0.05,0.05)", ErrBadSPRT, s)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("%w %q: %q is not a number", ErrBadSPRT, s, p)
		}
		v[i] = x
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: 0.05, Beta: 0.05}
	if len(v) == 4 {
		t.Alpha, t.Beta = v[2], v[3]
	}
	if t.Elo0 >= t.Elo1 {
		return SPRT{}, fmt.Errorf("%w %q: elo0 (%g) must be below elo1 (%g)", ErrBadSPRT, s, t.Elo0, t.Elo1)
	}
	if !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5) {
		return SPRT{}, fmt.Errorf("%w %q: alpha and beta must lie in (0, 0.5)", ErrBadSPRT, s)
	}
	return t, nil
}
