package population

import (
	"fmt"
	"math"
	"slices"

	"github.com/gametune/gametune/games"
)

// Choice is the genome a run hands out as its best, with the evidence for
// it. Every place that names a run's best (the run's summary, runs, show,
// export, the report) takes it from ChooseBest, so they all agree.
type Choice struct {
	Label      string // "g12" (the champion of generation 12), "start" or "defaults"
	Genome     int    // genome id; StartID or DefaultsID
	Generation int    // -1 for the start and the defaults
	Weights    []float64
	// Reference is what tuning had to beat: "start" when the run began
	// from start weights other than the defaults, else "defaults".
	Reference string
	// Source says where the evidence comes from: "ladder", "yardstick",
	// or "none" (nothing measured yet).
	Source string
	// Candidate is the strongest genome measured ("" when none), and Elo,
	// Low, High its rating minus the reference's with the 95% interval
	// (NaN when not measured against the reference).
	Candidate      string
	Elo, Low, High float64
	// Confident reports whether the candidate beats the reference with 95%
	// confidence; the Choice is then the candidate, else the reference.
	Confident bool
	// Family is the number of candidates Low and High are family-wise over
	// (widen): the strongest of many came out high partly by chance, so its
	// interval is wider than its own 95% interval in the ladder or the
	// yardstick. 0 or 1: a plain 95% interval.
	Family int
}

// interval is the candidate's interval, named family-wise when widened.
func (c Choice) interval() string {
	s := fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f]", c.Elo, c.Low, c.High)
	if c.Family > 1 {
		s += fmt.Sprintf(" (95%% family-wise over %d candidates, wider than its own interval)", c.Family)
	}
	return s
}

// Summary is one line for people: which genome is best and why.
func (c Choice) Summary() string {
	if c.Confident {
		return fmt.Sprintf("%s (genome %d), %s over the %s, by the %s", c.Label, c.Genome, c.interval(), c.Reference, c.Source)
	}
	switch {
	case c.Candidate == "":
		return fmt.Sprintf("the %s: nothing measured beats them yet", c.Reference)
	case math.IsNaN(c.Elo):
		return fmt.Sprintf("the %s: no genome was measured against them yet (strongest so far: %s, by the %s)", c.Reference, c.Candidate, c.Source)
	case c.Candidate == c.Reference:
		return fmt.Sprintf("the %s: no genome is rated above them (by the %s)", c.Reference, c.Source)
	}
	return fmt.Sprintf("the %s: no genome beats them with 95%% confidence (strongest: %s, %s, by the %s)", c.Reference, c.Candidate, c.interval(), c.Source)
}

// ChooseBest names a run's best genome from its history and ladder (nil
// when it has none yet): the ladder's highest rated entry when it beats the
// reference (the start weights, or the defaults) with 95% confidence;
// without a ladder, the champion whose yardstick rating has the highest
// lower bound, when that bound is above 0 and the reference is the
// defaults (the yardstick rates against the defaults only). Intervals are
// family-wise over the candidates (widen): the strongest of many is picked
// because it came out high. Otherwise the
// best is the reference itself: tuning has not shown a gain.
//
// A ladder's strongest that is not confident is still the best when its
// verification (ver, nil for none) held: an SPRT on games the ladder
// never saw, of the one candidate the ladder picked, so that no widening
// applies; its Elo and interval are the verification's.
func ChooseBest(ev *games.Evaluator, cfg Config, hist []Generation, ladder *Ladder, ver *Verification) (Choice, error) {
	def := ev.Defaults()
	start, err := startWeights(ev, cfg)
	if err != nil {
		return Choice{}, err
	}
	ref := Choice{Label: "defaults", Genome: DefaultsID, Generation: -1, Weights: def, Reference: "defaults",
		Source: "none", Elo: math.NaN(), Low: math.NaN(), High: math.NaN()}
	if start != nil && !slices.Equal(start, def) && cfg.StartIsReference() {
		ref.Label, ref.Genome, ref.Weights, ref.Reference = "start", StartID, start, "start"
	}
	if ladder != nil && len(ladder.Entries) > 0 {
		b := ladder.Entries[ladder.Best]
		ref.Source, ref.Candidate = "ladder", b.Label
		ref.Elo, ref.Low, ref.High, ref.Family = b.Elo-ladder.Entries[ladder.Reference].Elo, ladder.BestLow, ladder.BestHigh, ladder.candidates()
		if ladder.Confident() {
			return Choice{Label: b.Label, Genome: b.Genome, Generation: b.Generation, Weights: b.Weights, Reference: ref.Reference,
				Source: "ladder", Candidate: b.Label, Elo: ref.Elo, Low: ref.Low, High: ref.High, Confident: true, Family: ref.Family}, nil
		}
		if confirms(ver, b, ladder.Entries[ladder.Reference]) {
			return Choice{Label: b.Label, Genome: b.Genome, Generation: b.Generation, Weights: b.Weights, Reference: ref.Reference,
				Source: "verification", Candidate: b.Label, Elo: ver.Elo, Low: ver.Low, High: ver.High, Confident: true}, nil
		}
		return ref, nil
	}
	best, measured := -1, 0
	for i, g := range hist {
		if y := g.Yardstick; y != nil {
			measured++
			if best < 0 || y.EloLow > hist[best].Yardstick.EloLow {
				best = i
			}
		}
	}
	if best < 0 {
		return ref, nil
	}
	g := hist[best]
	y := g.Yardstick
	ref.Source, ref.Candidate = "yardstick", ChampionLabel(g.Index)
	if ref.Reference != "defaults" {
		return ref, nil // the yardstick does not rate against the start
	}
	low, high := widen(y.Elo, y.EloLow, y.EloHigh, measured)
	ref.Elo, ref.Low, ref.High, ref.Family = y.Elo, low, high, measured
	if low <= 0 {
		return ref, nil
	}
	for _, x := range g.Genomes {
		if x.ID == y.Genome {
			return Choice{Label: ref.Candidate, Genome: x.ID, Generation: g.Index, Weights: x.Weights, Reference: ref.Reference,
				Source: "yardstick", Candidate: ref.Candidate, Elo: y.Elo, Low: low, High: high, Confident: true, Family: measured}, nil
		}
	}
	return Choice{}, fmt.Errorf("population: generation %d's yardstick names genome %d, which is not in it", g.Index, y.Genome)
}

// startWeights is the run's start weights as a vector: nil when it had none.
func confirms(ver *Verification, best, ref LadderEntry) bool {
	return ver != nil && ver.Verdict() == VerdictHeld && ver.Best == best.Label && ver.BestGenome == best.Genome &&
		ver.Reference == ref.Label && ver.ReferenceGenome == ref.Genome
}

func startWeights(ev *games.Evaluator, cfg Config) ([]float64, error) {
	if cfg.StartWeights == nil {
		return nil, nil
	}
	w := make([]float64, len(ev.Features))
	for i, f := range ev.Features {
		v, ok := cfg.StartWeights[f.Name]
		if !ok {
			return nil, fmt.Errorf("population: the start weights lack feature %q", f.Name)
		}
		w[i] = v
	}
	return w, nil
}
