package tournament

import (
	"context"
	"errors"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// MatchSpecs returns the games of a match between a and b: pairs
// colour-swapped pairs, pair i from opening i modulo the openings (the
// start when there are none), a first in the first game of each pair.
func MatchSpecs(g games.Game, a, b Player, pairs int, openings []string, maxPlies int, adj Adjudication) []GameSpec {
	specs := make([]GameSpec, 0, 2*pairs)
	for i := 0; i < pairs; i++ {
		op := ""
		if len(openings) > 0 {
			op = openings[i%len(openings)]
		}
		pair := Pair(GameSpec{Game: g, Opening: op, First: a, Second: b, Seed: uint64(2 * i), MaxPlies: maxPlies, Adjudication: adj})
		specs = append(specs, pair[:]...)
	}
	return specs
}

// MatchResult is the running tally of a match from a's point of view.
type MatchResult struct {
	WDL         stats.WDL
	Pentanomial stats.Pentanomial
	Records     []Record
	LLR         float64      // pentanomial LLR when an SPRT runs
	SPRT        *stats.SPRT  // nil without a test
	Status      stats.Status // the SPRT's verdict
}

// errSPRTStop stops a match whose SPRT crossed a bound.
var errSPRTStop = errors.New("tournament: SPRT bound crossed")

// RunMatch plays the match's specs (from MatchSpecs) on run (the local
// pool or another transport). After
// each finished pair it updates the tally, calls progress (if not nil),
// and stops early when the SPRT (if not nil) crosses a bound. An error
// from progress stops the match and is returned. When ctx is cancelled it
// returns the tally of the games finished so far with ctx's error.
func RunMatch(ctx context.Context, run Runner, specs []GameSpec, sprt *stats.SPRT, progress func(*MatchResult) error) (*MatchResult, error) {
	res := &MatchResult{SPRT: sprt}
	var pending float64
	err := run.Run(ctx, specs, func(i int, r Record) error {
		s := r.Score()
		if i%2 == 1 {
			s = 1 - s
		}
		res.WDL.Add(s)
		res.Records = append(res.Records, r)
		if i%2 == 0 {
			pending = s
			return nil
		}
		res.Pentanomial.AddPair(pending, s)
		if sprt != nil {
			res.LLR = sprt.LLRPairs(res.Pentanomial)
			res.Status = sprt.Decide(res.LLR)
		}
		if progress != nil {
			if err := progress(res); err != nil {
				return err
			}
		}
		if res.Status != stats.Continue {
			return errSPRTStop
		}
		return nil
	})
	if errors.Is(err, errSPRTStop) {
		err = nil
	}
	return res, err
}
