package population

import (
	"context"
	"fmt"
	"math"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/tournament"
	"github.com/gametune/gametune/tournament/stats"
)

// The verification at the end of a run ("verify before you claim"): when
// a run ends with a confident best (its ladder's, or without a ladder its
// yardstick's), the best plays the reference (the start weights, or the
// defaults) in colour-swapped pairs at a deeper search, on openings the
// run never used, until a pentanomial SPRT decides or the pairs run out.
// Its games are recorded under StageVerify, pair i at index 2i and 2i+1,
// so an interrupted verification resumes from the store to the same
// verdict.

// StageVerify names the games of a run's verification.
const StageVerify = "verify"

// Config.Verify's values.
const (
	VerifyAuto = "auto" // verify when the run ends with a confident best
	VerifyOff  = "off"  // never
)

// DefaultVerifyBounds is the verification's SPRT unless verify-bounds says
// otherwise: H0 no gain (0) against H1 10 normalized Elo, alpha = beta =
// 0.05. A best the run calls confident beats the reference in its ladder
// by an interval above 0 from a few pairs per pairing; a gain worth
// keeping at a deeper search is at least some nElo, and 10 (fishtest's
// short test is 0,2) lets the test decide a gain of 50 nElo or more in a
// few hundred pairs, while a gain that vanished is told in about as many.
const DefaultVerifyBounds = "0,10"

// The cap on a verification's pairs when verify-pairs is 0
// (AutoVerifyPairs), and verify-pairs' bound.
const (
	VerifyShare        = 0.05 // of the run's games: a budgeted run ends within 5% of its budget
	MinVerifyPairs     = 100
	MaxAutoVerifyPairs = 10_000
	MaxVerifyPairs     = 100_000
)

// The verdicts of a verification (Verification.Verdict).
const (
	VerdictHeld         = "held"         // kept by stats.Kept: H1 accepted, or the cap reached with the interval above 0
	VerdictNotHeld      = "not held"     // H0 accepted: the gain is not there
	VerdictInconclusive = "inconclusive" // the cap came first, the interval reaching 0
)

// Verification is the SPRT of a run's best against its reference at a
// deeper search, from the best's point of view.
type Verification struct {
	Best, Reference             string // their labels: "g12", "start", "defaults"
	BestGenome, ReferenceGenome int
	Depth                       int   // its search: depth + 2, or the run's own for a confirmation (0: no depth limit)
	Nodes                       int64 // 4x the nodes (0: no node limit)
	SPRT                        stats.SPRT
	MaxPairs                    int // the cap
	// Pairs are the pairs the test counted: up to the one where it
	// decided, or MaxPairs. Played counts the games played, in whole
	// blocks (a block's games after the decision are played, not counted).
	Pairs, Played int
	Pentanomial   stats.Pentanomial
	stats.WDL
	LLR    float64
	Status stats.Status
	// Elo is the best's logistic Elo over the reference from the pairs,
	// with its 95% interval.
	Elo, Low, High float64
}

// Verdict is VerdictHeld when stats.Kept keeps the best (the rule learn's
// gate decides by too: H1 accepted, or all MaxPairs pairs counted with no
// bound crossed and the 95% interval of the best's Elo above 0),
// VerdictNotHeld when the SPRT accepted H0, and VerdictInconclusive
// otherwise (the cap came first and the interval reaches 0).
func (v Verification) Verdict() string {
	switch {
	case stats.Kept(v.Status, v.Pentanomial, v.MaxPairs):
		return VerdictHeld
	case v.Status == stats.AcceptH0:
		return VerdictNotHeld
	}
	return VerdictInconclusive
}

// Search says how deep the verification searched: "depth 6", "4000
// nodes" or both.
func (v Verification) Search() string {
	switch {
	case v.Depth > 0 && v.Nodes > 0:
		return fmt.Sprintf("depth %d, %d nodes", v.Depth, v.Nodes)
	case v.Nodes > 0:
		return fmt.Sprintf("%d nodes", v.Nodes)
	}
	return fmt.Sprintf("depth %d", v.Depth)
}

// Summary is the verification in one line: "g12 against the start at depth
// 6: held (H1 accepted), +85 Elo [+60, +110] over 120 pairs, LLR 2.96
// [-2.94, 2.94], SPRT 0,10 nElo".
func (v Verification) Summary() string {
	lo, hi := v.SPRT.Bounds()
	r := func(x float64) float64 { return math.Round(x) + 0 }
	why := v.Status.String()
	if v.Status == stats.Continue {
		why = fmt.Sprintf("no bound crossed in %d pairs", v.MaxPairs)
		if v.Verdict() == VerdictHeld {
			why += ", the interval above 0"
		}
	}
	return fmt.Sprintf("%s against the %s at %s: %s (%s), %+.0f Elo [%+.0f, %+.0f] over %d pairs, LLR %.2f [%.2f, %.2f], SPRT %g,%g %s Elo",
		v.Best, v.Reference, v.Search(), v.Verdict(), why, r(v.Elo), r(v.Low), r(v.High), v.Pairs, v.LLR, lo, hi, v.SPRT.Elo0, v.SPRT.Elo1, v.SPRT.Model)
}

// AddPair counts one pair whose games scored a and b points for the best,
// and runs the test on the pairs so far; a pair after the test decided is
// not counted.
func (v *Verification) AddPair(a, b float64) {
	if v.Status != stats.Continue {
		return
	}
	v.Pentanomial.AddPair(a, b)
	v.WDL.Add(a)
	v.WDL.Add(b)
	v.Pairs++
	v.LLR = v.SPRT.LLRPairs(v.Pentanomial)
	v.Status = v.SPRT.Decide(v.LLR)
	e := v.Pentanomial.EloEstimate()
	v.Elo, v.Low, v.High = e.Elo, e.Low, e.High
}

// AutoVerifyPairs is the cap on a verification's pairs for a run of spent
// games when verify-pairs is 0: VerifyShare of them, at least
// MinVerifyPairs pairs and at most MaxAutoVerifyPairs.
func AutoVerifyPairs(spent int) int {
	p := int(math.Round(VerifyShare * float64(spent) / 2))
	return min(max(p, MinVerifyPairs), MaxAutoVerifyPairs)
}

// validateVerify checks the verification's keys.
func (c Config) validateVerify() error {
	if c.Verify != VerifyAuto && c.Verify != VerifyOff {
		return bad("verify %q: %s (verify a confident best at a deeper search) or %s", c.Verify, VerifyAuto, VerifyOff)
	}
	if _, err := stats.ParseSPRT(c.VerifyBounds); err != nil {
		return bad("verify-bounds: %v", err)
	}
	return check(c.VerifyPairs >= 0 && c.VerifyPairs <= MaxVerifyPairs,
		"verify-pairs %d: 1 to %d pairs, or 0 for a twentieth of the run's games", c.VerifyPairs, MaxVerifyPairs)
}

// deeper is the verification's search: depth + 2 and 4x the nodes (each
// limit the run set, within engine's bounds).
func (c Config) deeper() engine.Limits {
	l := engine.Limits{Depth: c.Depth, Nodes: c.Nodes}
	if l.Depth > 0 {
		l.Depth = min(l.Depth+2, engine.MaxDepth)
	}
	if l.Nodes > 0 {
		l.Nodes = min(4*l.Nodes, engine.MaxNodes)
	}
	return l
}

// toVerify returns the best to verify and the reference, when the run is
// verified: verify auto, a confident best (the ladder's when there is one,
// else ChooseBest's by the yardstick) or a ladder's strongest rated above
// the reference, and the evaluator's own search (a
// run tuning an external engine's options searches as the engine's spec
// says, which cannot be made deeper).
func (t *Tuner) toVerify(l *Ladder) (best, ref LadderEntry, deeper, ok bool) {
	if t.cfg.Verify != VerifyAuto || t.makePlayer != nil {
		return best, ref, false, false
	}
	if l != nil {
		// A strongest the ladder rates above the reference but cannot
		// call confident is verified too, at the run's own search: the
		// question there is whether it is better at all, and a
		// verification that holds makes it the best (ChooseBest).
		best, ref := l.Entries[l.Best], l.Entries[l.Reference]
		return best, ref, l.Confident(), l.Confident() || l.Best != l.Reference && best.Elo > ref.Elo
	}
	c, err := ChooseBest(t.ev, t.cfg, t.champion, nil, nil)
	if err != nil || !c.Confident {
		return best, ref, false, false
	}
	// Without a ladder only the yardstick says a best is confident, and it
	// rates against the defaults.
	return LadderEntry{Label: c.Label, Genome: c.Genome, Weights: c.Weights},
		LadderEntry{Label: "defaults", Genome: DefaultsID, Weights: t.ev.Defaults()}, true, true
}

// verifyBlock is how many pairs a verification plays at a time: the test
// runs after each block on its pairs in order, so the games played depend
// on the cap alone, never on the workers.
func verifyBlock(maxPairs int) int {
	return min(maxPairs, max(16, maxPairs/16))
}

// Verify plays the verification of best against ref (toVerify): blocks of
// colour-swapped pairs at the deeper search (deeper, for a confident best)
// or at the run's own (to confirm a strongest), recorded under StageVerify,
// on fresh openings (verifyOpenings), until the SPRT of verify-bounds
// decides or verify-pairs pairs (0: AutoVerifyPairs of the games spent so
// far) are counted. OnGame sees the verification's games as one stage.
func (t *Tuner) Verify(ctx context.Context, best, ref LadderEntry, deeper bool) (*Verification, error) {
	test, err := stats.ParseSPRT(t.cfg.VerifyBounds)
	if err != nil {
		return nil, bad("verify-bounds: %v", err)
	}
	limits := engine.Limits{Depth: t.cfg.Depth, Nodes: t.cfg.Nodes}
	if deeper {
		limits = t.cfg.deeper()
	}
	v := &Verification{Best: best.Label, Reference: ref.Label, BestGenome: best.Genome, ReferenceGenome: ref.Genome,
		Depth: limits.Depth, Nodes: limits.Nodes, SPRT: test, MaxPairs: t.cfg.VerifyPairs, Elo: math.NaN(), Low: math.NaN(), High: math.NaN()}
	if v.MaxPairs == 0 {
		v.MaxPairs = AutoVerifyPairs(t.spent)
	}
	report := t.OnGame
	defer func() { t.OnGame = report }()
	a, b := Genome{ID: best.Genome, Weights: best.Weights}, Genome{ID: ref.Genome, Weights: ref.Weights}
	var ops verifyOpenings
	for from, n := 0, verifyBlock(v.MaxPairs); from < v.MaxPairs && v.Status == stats.Continue; from += n {
		n = min(n, v.MaxPairs-from)
		if err := t.drawVerifyOpenings(ctx, &ops, from+n); err != nil {
			return nil, err
		}
		batch := make([]game, 0, 2*n)
		for i := from; i < from+n; i++ {
			batch = appendPair(batch, GameKey{StageVerify, 0, 2 * i}, a, b, ops.at(i))
			batch[len(batch)-1].limits, batch[len(batch)-2].limits = limits, limits
		}
		if report != nil {
			before := 2 * from
			t.OnGame = func(p Progress) {
				p.Done, p.Total = before+p.Done, 2*v.MaxPairs
				report(p)
			}
		}
		recs, err := t.play(ctx, batch)
		if err != nil {
			return nil, err
		}
		v.Played += len(recs)
		for j := 0; j+1 < len(recs); j += 2 {
			v.AddPair(pairScore(recs[j], j), pairScore(recs[j+1], j+1))
		}
	}
	return v, nil
}

// verifyOpenings are a verification's openings as drawn so far.
type verifyOpenings struct {
	seen    map[string]bool // the run's, the ladder's, the training pool's, and list
	list    []string
	batches int  // batches of the stream drawn
	dry     bool // the last batch drawn added nothing: the stream is spent
}

// maxVerifyBatches bounds the batches of openings a verification draws:
// 64 openings each at most, cycled beyond.
const maxVerifyBatches = 64

// at is the opening of pair i: the list's i-th, cycled when the stream ran
// out before (a small game), or the start when it has none.
func (o *verifyOpenings) at(i int) string {
	if len(o.list) == 0 {
		return ""
	}
	return o.list[i%len(o.list)]
}

// drawVerifyOpenings draws the verification's openings until it holds n,
// or the stream is spent: batches 0, 1, ... of tournament's random
// openings (the run's kind, random:8 when the run used fixed ones) from a
// seed of the verification's own, without any opening the run used (its
// list, the yardstick's, the ladder's, its training pool), repeats
// dropped. The list's first n openings depend on the run alone, not on
// how far it was drawn before.
func (t *Tuner) drawVerifyOpenings(ctx context.Context, o *verifyOpenings, n int) error {
	if o.seen == nil {
		ladder, err := t.ladderOpenings(ctx, 0)
		if err != nil {
			return err
		}
		o.seen = map[string]bool{}
		for _, list := range [][]string{t.openings, ladder, t.pool.list} {
			for _, op := range list {
				o.seen[op] = true
			}
		}
	}
	spec := t.cfg.Openings
	if !tournament.IsRandomOpenings(spec) {
		spec = "random:8"
	}
	seed := rngFor(t.cfg.Seed, StageVerify, 0, 0).Uint64()
	for len(o.list) < n && !o.dry && o.batches < maxVerifyBatches {
		batch, err := tournament.RandomOpeningBatch(ctx, t.game, spec, seed, o.batches)
		if err != nil {
			return err
		}
		o.batches++
		o.dry = true
		for _, op := range batch {
			if !o.seen[op] {
				o.seen[op], o.dry = true, false
				o.list = append(o.list, op)
			}
		}
	}
	return nil
}

// verifyAtEnd verifies the run's best when due (toVerify), records the
// verification and puts it in res.
func (t *Tuner) verifyAtEnd(ctx context.Context, l *Ladder, res *Result) error {
	best, ref, deeper, ok := t.toVerify(l)
	if !ok {
		return nil
	}
	v, err := t.Verify(ctx, best, ref, deeper)
	if err != nil {
		return err
	}
	if err := t.store.RecordVerification(*v); err != nil {
		return err
	}
	res.Verification = v
	return nil
}
