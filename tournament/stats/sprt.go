package stats

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Model is the Elo scale an SPRT's hypotheses are written in.
type Model int

const (
	// Normalized Elo (nElo): the score's distance from 0.5 in standard
	// deviations of one game (of one pair, over sqrt 2, for pentanomial
	// counts), times 800/ln 10. fishtest's and fastchess's default: bounds
	// in nElo mean the same test at any draw rate.
	Normalized Model = iota
	// Logistic Elo: expected score 1/(1+10^(-elo/400)).
	Logistic
)

func (m Model) String() string {
	if m == Logistic {
		return "logistic"
	}
	return "normalized"
}

// neloScale is 800/ln 10: a normalized Elo of neloScale is one standard
// deviation.
var neloScale = 800 / math.Ln10

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against H1:
// elo = Elo1, in the Elo scale of Model, with error rates Alpha and Beta.
// The log-likelihood ratio is fastchess's and fishtest's: the ratio of the
// maximum-likelihood distributions of results with the expectation each
// hypothesis fixes, given the observed frequencies (M. Van den Bergh,
// "Comments on normalized Elo", proposition 1.1 and section 4.1), where an
// outcome never seen counts 0.001.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
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

// LLR is the log-likelihood ratio of the per-game (trinomial) results.
func (t SPRT) LLR(r WDL) float64 {
	if r.Games() == 0 {
		return 0
	}
	return t.llr([]float64{0, 0.5, 1}, []int{r.Losses, r.Draws, r.Wins}, 1)
}

// LLRPairs is the log-likelihood ratio of the per-pair (pentanomial)
// results; in normalized Elo a pair's standard deviation is one game's over
// sqrt 2, so the hypotheses scale by sqrt 2.
func (t SPRT) LLRPairs(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	return t.llr([]float64{0, 0.25, 0.5, 0.75, 1}, p[:], math.Sqrt2)
}

func (t SPRT) llr(scores []float64, counts []int, scale float64) float64 {
	freq := make([]float64, len(counts))
	total := 0.0
	for i, c := range counts {
		freq[i] = float64(c)
		if c == 0 {
			freq[i] = 1e-3
		}
		total += freq[i]
	}
	for i := range freq {
		freq[i] /= total
	}
	var p0, p1 []float64
	if t.Model == Logistic {
		p0 = mleScore(scores, freq, ExpectedScore(t.Elo0))
		p1 = mleScore(scores, freq, ExpectedScore(t.Elo1))
	} else {
		p0 = mleNormalized(scores, freq, scale*t.Elo0/neloScale)
		p1 = mleNormalized(scores, freq, scale*t.Elo1/neloScale)
	}
	llr := 0.0
	for i, f := range freq {
		llr += f * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * llr
}

// mleScore is the distribution nearest (in likelihood) to the observed
// frequencies freq of scores whose expectation is s: freq_i/(1 +
// theta (a_i - s)) with theta solving sum freq_i (a_i - s)/(1 + theta
// (a_i - s)) = 0.
func mleScore(scores, freq []float64, s float64) []float64 {
	phi := make([]float64, len(scores))
	for i, a := range scores {
		phi[i] = a - s
	}
	return reweight(freq, phi)
}

// mleNormalized is the distribution nearest to freq whose normalized
// score (mu - 1/2)/sigma is tStar, found by the fixed-point iteration of
// section 4.1 from the uniform distribution.
func mleNormalized(scores, freq []float64, tStar float64) []float64 {
	p := make([]float64, len(scores))
	for i := range p {
		p[i] = 1 / float64(len(p))
	}
	phi := make([]float64, len(scores))
	for range 1000 {
		mu, variance := 0.0, 0.0
		for i, a := range scores {
			mu += p[i] * a
		}
		for i, a := range scores {
			variance += p[i] * (a - mu) * (a - mu)
		}
		sigma := math.Sqrt(variance)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - 0.5 - 0.5*tStar*sigma*(1+z*z)
		}
		next := reweight(freq, phi)
		diff := 0.0
		for i := range p {
			diff = max(diff, math.Abs(next[i]-p[i]))
		}
		p = next
		if diff < 1e-10 {
			break
		}
	}
	return p
}

// reweight returns freq_i/(1 + theta phi_i) for the theta that makes
// sum freq_i phi_i/(1 + theta phi_i) zero, found by bisection: the sum
// falls from +Inf to -Inf on (-1/max phi, -1/min phi). Without a change
// of sign in phi no theta exists, and freq is returned.
func reweight(freq, phi []float64) []float64 {
	u, v := phi[0], phi[0]
	for _, x := range phi {
		u, v = min(u, x), max(v, x)
	}
	out := make([]float64, len(freq))
	copy(out, freq)
	if !(u < 0 && v > 0) {
		return out
	}
	f := func(theta float64) float64 {
		sum := 0.0
		for i, x := range phi {
			sum += freq[i] * x / (1 + theta*x)
		}
		return sum
	}
	lo, hi := -1/v, -1/u
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	theta := lo + (hi-lo)/2
	for i, x := range phi {
		out[i] = freq[i] / (1 + theta*x)
	}
	return out
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

// Kept is the one rule by which a capped test of a candidate against a
// reference, in colour-swapped pairs, keeps the candidate: its SPRT
// accepted H1 (status), or it counted its cap of maxPairs pairs without
// crossing a bound and the 95% interval of the candidate's pentanomial Elo
// (p.EloEstimate) lies above 0. A test stopped by H0, or short of its cap
// and undecided, keeps nothing. The tuners' verification
// (population.Verification.Verdict) and learn's gate (learn.Accepted)
// both decide by it. It costs O(1).
func Kept(status Status, p Pentanomial, maxPairs int) bool {
	switch status {
	case AcceptH1:
		return true
	case Continue:
		return p.Pairs() >= maxPairs && p.EloEstimate().Low > 0
	}
	return false
}

// ErrBadSPRT is wrapped by ParseSPRT's errors.
var ErrBadSPRT = errors.New("stats: bad SPRT")

const sprtForms = "want elo0,elo1[,alpha,beta][,model=normalized|logistic] (e.g. 0,5 or 0,5,0.05,0.05) " +
	"or fastchess's words (elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized)"

// ParseSPRT reads gametune's "elo0,elo1[,alpha,beta]" or fastchess's
// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic" (words separated by
// spaces or commas, in any order; the two forms may be mixed). Alpha and
// beta default to 0.05 and the model to normalized Elo, as in fastchess
// and fishtest.
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	values := map[string]*float64{"elo0": &t.Elo0, "elo1": &t.Elo1, "alpha": &t.Alpha, "beta": &t.Beta}
	order := []string{"elo0", "elo1", "alpha", "beta"}
	seen := map[string]bool{}
	positional := 0
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		key, value, named := strings.Cut(word, "=")
		if !named {
			if positional == len(order) {
				return SPRT{}, fmt.Errorf("%w %q: too many numbers; %s", ErrBadSPRT, s, sprtForms)
			}
			key, value = order[positional], word
			positional++
		}
		key = strings.ToLower(key)
		if seen[key] {
			return SPRT{}, fmt.Errorf("%w %q: %s given twice", ErrBadSPRT, s, key)
		}
		seen[key] = true
		if key == "model" {
			switch strings.ToLower(value) {
			case "normalized", "normalised":
				t.Model = Normalized
			case "logistic":
				t.Model = Logistic
			default:
				return SPRT{}, fmt.Errorf("%w %q: model %q; the models are normalized and logistic", ErrBadSPRT, s, value)
			}
			continue
		}
		dst, ok := values[key]
		if !ok {
			return SPRT{}, fmt.Errorf("%w %q: unknown word %q; %s", ErrBadSPRT, s, key, sprtForms)
		}
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("%w %q: %s %q is not a number", ErrBadSPRT, s, key, value)
		}
		*dst = x
	}
	if !seen["elo0"] || !seen["elo1"] || seen["alpha"] != seen["beta"] {
		return SPRT{}, fmt.Errorf("%w %q: %s", ErrBadSPRT, s, sprtForms)
	}
	if t.Elo0 >= t.Elo1 {
		return SPRT{}, fmt.Errorf("%w %q: elo0 (%g) must be below elo1 (%g)", ErrBadSPRT, s, t.Elo0, t.Elo1)
	}
	if !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5) {
		return SPRT{}, fmt.Errorf("%w %q: alpha and beta must lie in (0, 0.5)", ErrBadSPRT, s)
	}
	if math.Abs(t.Elo0) > 1000 || math.Abs(t.Elo1) > 1000 {
		return SPRT{}, fmt.Errorf("%w %q: elo0 and elo1 must lie within ±1000", ErrBadSPRT, s)
	}
	return t, nil
}
