package population

import (
	"context"
	"fmt"
	"slices"

	"github.com/gametune/gametune/tournament/stats"
)

// yardstick plays the best genome against the default weights, and
// against the champion measured before it when that one has other weights.
func (t *Tuner) yardstick(ctx context.Context, generation int, best Genome) (*Yardstick, error) {
	pairs := t.cfg.YardstickPairs
	if pairs == 0 {
		return nil, nil
	}
	def := Genome{ID: DefaultsID, Weights: t.ev.Defaults()}
	batch := make([]game, 0, 2*pairs)
	for i := 0; i < pairs; i++ {
		batch = appendPair(batch, GameKey{StageYardstick, generation, 2 * i}, best, def, t.opening(StageYardstick, generation, i))
	}
	prev, hasPrev := t.yard.previous()
	if hasPrev && slices.Equal(prev.Weights, best.Weights) {
		hasPrev = false // the same weights: its games against the defaults carry on
	}
	if hasPrev {
		for i := 0; i < pairs; i++ {
			batch = appendPair(batch, GameKey{StageYardstick, generation, 2 * (pairs + i)}, best, prev, t.opening(StageYardstick, generation, pairs+i))
		}
	}
	recs, err := t.play(ctx, batch)
	if err != nil {
		return nil, err
	}
	y := &Yardstick{Genome: best.ID, Previous: NoGenome}
	if hasPrev {
		y.Previous = prev.ID
	}
	for i, r := range recs {
		if i < 2*pairs {
			y.Add(pairScore(r, i))
		} else {
			y.VsPrevious.Add(pairScore(r, i))
		}
	}
	y.Score = y.WDL.Score()
	elo, low, high, err := t.yard.add(best, y.WDL, y.VsPrevious, hasPrev)
	if err != nil {
		return nil, err
	}
	y.Elo, y.EloLow, y.EloHigh = elo, low, high
	return y, nil
}

// yardstickPanel pools every yardstick game of a run: the defaults (player
// 0) and each champion measured (one player per weight vector), with their
// results, so that a champion's rating comes from all of them.
type yardstickPanel struct {
	players []Genome // players[0] is the defaults
	results []stats.PairResult
	last    int // the player measured last; 0 before any
}

// previous returns the champion measured last, if any.
func (y *yardstickPanel) previous() (Genome, bool) {
	if y.last == 0 {
		return Genome{}, false
	}
	return y.players[y.last], true
}

// add pools a champion's yardstick games (against the defaults, and
// against the previous champion when hasPrev) and returns its rating with
// its 95% interval, the defaults being 0.
func (y *yardstickPanel) add(best Genome, vsDefaults, vsPrev stats.WDL, hasPrev bool) (elo, low, high float64, err error) {
	if len(y.players) == 0 {
		y.players = []Genome{{ID: DefaultsID}}
	}
	i := slices.IndexFunc(y.players[1:], func(g Genome) bool { return slices.Equal(g.Weights, best.Weights) }) + 1
	if i == 0 {
		y.players = append(y.players, best)
		i = len(y.players) - 1
	}
	y.players[i].ID = best.ID
	y.results = append(y.results, stats.PairResult{A: i, B: 0, WDL: vsDefaults})
	if hasPrev {
		y.results = append(y.results, stats.PairResult{A: i, B: y.last, WDL: vsPrev})
	}
	y.last = i
	r, err := stats.Rate(len(y.players), y.results, stats.RatingOptions{Anchor: 0})
	if err != nil {
		return 0, 0, 0, fmt.Errorf("population: rating the yardstick: %w", err)
	}
	p := r.Players[i]
	return p.Elo, p.Low, p.High, nil
}
