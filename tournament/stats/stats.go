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
	"fmt"
	"math"

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

// String writes "+70.4 [-0.2, +141.0]": gametune writes every interval
// by its bounds, since an Elo interval is not symmetric.
func (e Estimate) String() string {
	e.Elo, e.Low, e.High = e.Elo+0, e.Low+0, e.High+0 // no "-0.0"
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", e.Elo, e.Low, e.High)
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

// EloVariance is the Elo of the mean pair score s, Elo(s), and the
// variance of that estimate by the delta method: the per-pair variance
// over the pairs, divided by their number, times Elo'(s)² = (400 / (ln 10
// s (1 - s)))². It is the normal approximation behind EloEstimate. With
// no pairs, or at a score of 0 or 1, the variance is +Inf.
func (p Pentanomial) EloVariance() (elo, variance float64) {
	m, v := p.pentanomial()
	n := p.Pairs()
	if n == 0 || m <= 0 || m >= 1 {
		return Elo(m), math.Inf(1)
	}
	slope := 400 / (math.Ln10 * m * (1 - m))
	return Elo(m), v / float64(n) * slope * slope
}

// LOS is the likelihood of superiority: the probability that the player is
// the stronger, Phi((W-L)/sqrt(W+L)); 0.5 without a decisive game.
func (r WDL) LOS() float64 {
	if r.Wins+r.Losses == 0 {
		return 0.5
	}
	return distuv.UnitNormal.CDF(float64(r.Wins-r.Losses) / math.Sqrt(float64(r.Wins+r.Losses)))
}

// NormalizedElo is the normalized Elo (nElo) of the per-game results,
// (score - 1/2)/sd * 800/ln 10 with sd one game's standard deviation, and
// its 95% interval, as fastchess prints it. Without games, or without any
// spread in them, it is 0 with an unbounded interval.
func (r WDL) NormalizedElo() Estimate {
	m, v := r.trinomial()
	return normalized(m, v, r.Games())
}

// NormalizedElo is the normalized Elo of the per-pair results, (score -
// 1/2)/sqrt(2 variance) * 800/ln 10 with variance a pair's (a pair's score
// in [0, 1]), and its 95% interval, as fastchess prints it.
func (p Pentanomial) NormalizedElo() Estimate {
	m, v := p.pentanomial()
	return normalized(m, 2*v, p.Pairs()*2)
}

// normalized maps a mean score with the variance of one game, over games
// games, to nElo: the interval mean ± z sd/sqrt(games) is linear in it.
func normalized(mean, variance float64, games int) Estimate {
	if games == 0 || variance <= 0 {
		return Estimate{Score: mean, Elo: 0, Low: math.Inf(-1), High: math.Inf(1)}
	}
	sd := math.Sqrt(variance)
	nelo := (mean - 0.5) / sd * neloScale
	half := z95 * neloScale / math.Sqrt(float64(games))
	return Estimate{Score: mean, Elo: nelo, Low: nelo - half, High: nelo + half}
}

// DrawRatio is the share of pairs that ended level, 1 point of 2 (a win
// and a loss, or two draws), as fastchess counts it.
func (p Pentanomial) DrawRatio() float64 {
	if p.Pairs() == 0 {
		return 0
	}
	return float64(p[2]) / float64(p.Pairs())
}

// PairsRatio is the pairs won (1.5 or 2 points) over the pairs lost (0 or
// 0.5 points); +Inf when no pair was lost but one was won, NaN without
// decisive pairs.
func (p Pentanomial) PairsRatio() float64 {
	won, lost := float64(p[3]+p[4]), float64(p[0]+p[1])
	if lost == 0 {
		if won == 0 {
			return math.NaN()
		}
		return math.Inf(1)
	}
	return won / lost
}

// LOS is the likelihood of superiority from the per-pair results,
// Phi((score - 1/2)/se) with se the standard error of a pair's score.
func (p Pentanomial) LOS() float64 {
	m, v := p.pentanomial()
	if p.Pairs() == 0 || v <= 0 {
		switch {
		case m > 0.5:
			return 1
		case m < 0.5:
			return 0
		}
		return 0.5
	}
	return distuv.UnitNormal.CDF((m - 0.5) / math.Sqrt(v/float64(p.Pairs())))
}
