package population

import (
	"context"
	"fmt"
	"slices"

	"github.com/gametune/gametune/tournament/stats"
)

// yardstick plays the best genome against the default weights, against
// the champion measured before it when that one has other weights, and
// against each of the run's opponents. Its games' keys: pair i against
// the defaults at 2i, against the previous champion at 2(pairs+i), against
// opponent o at 2(2 pairs+o pairs+i), from the same opening as pair i
// against the defaults.
func (t *Tuner) yardstick(ctx context.Context, generation int, best Genome) (*Yardstick, error) {
	pairs := t.cfg.YardstickPairs
	if pairs == 0 {
		return nil, nil
	}
	def := Genome{ID: DefaultsID, Weights: t.ev.Defaults()}
	batch := make([]game, 0, 2*pairs*(2+len(t.opponents)))
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
	for o := range t.opponents {
		for i := 0; i < pairs; i++ {
			batch = appendPair(batch, GameKey{StageYardstick, generation, 2 * (2*pairs + o*pairs + i)}, best, Genome{ID: OpponentID(o)}, t.opening(StageYardstick, generation, i))
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
	own := 2 * pairs // games against the defaults and the previous champion
	if hasPrev {
		own += 2 * pairs
	}
	for i, r := range recs[:own] {
		if i < 2*pairs {
			y.Add(pairScore(r, i))
		} else {
			y.VsPrevious.Add(pairScore(r, i))
		}
	}
	if len(t.opponents) > 0 {
		y.VsOpponents = make([]stats.WDL, len(t.opponents))
		for j, r := range recs[own:] {
			y.VsOpponents[j/(2*pairs)].Add(pairScore(r, j))
		}
	}
	y.Score = y.WDL.Score()
	elo, low, high, err := t.yard.add(best, y)
	if err != nil {
		return nil, err
	}
	y.Elo, y.EloLow, y.EloHigh = elo, low, high
	return y, nil
}

// yardstickPanel pools every yardstick game of a run: the defaults (player
// 0), the run's opponents (players 1 to n) and each champion measured (one
// player per weight vector), with their results, so that a champion's
// rating comes from all of them.
type yardstickPanel struct {
	players []Genome // players[0] is the defaults, then the opponents, then the champions
	results []stats.PairResult
	last    int // the champion measured last; 0 before any
}

// previous returns the champion measured last, if any.
func (y *yardstickPanel) previous() (Genome, bool) {
	if y.last == 0 {
		return Genome{}, false
	}
	return y.players[y.last], true
}

// add pools a champion's yardstick games m (against the defaults, the
// previous champion when m names one, and each opponent) and returns its
// rating with its 95% interval, the defaults being 0.
func (y *yardstickPanel) add(best Genome, m *Yardstick) (elo, low, high float64, err error) {
	if len(y.players) == 0 {
		y.players = []Genome{{ID: DefaultsID}}
		for o := range m.VsOpponents {
			y.players = append(y.players, Genome{ID: OpponentID(o)})
		}
	}
	champions := 1 + len(m.VsOpponents) // the first champion's place
	i := slices.IndexFunc(y.players[champions:], func(g Genome) bool { return slices.Equal(g.Weights, best.Weights) })
	if i < 0 {
		y.players = append(y.players, best)
		i = len(y.players) - 1
	} else {
		i += champions
	}
	y.players[i].ID = best.ID
	y.results = append(y.results, stats.PairResult{A: i, B: 0, WDL: m.WDL})
	if m.Previous != NoGenome {
		y.results = append(y.results, stats.PairResult{A: i, B: y.last, WDL: m.VsPrevious})
	}
	for o, r := range m.VsOpponents {
		y.results = append(y.results, stats.PairResult{A: i, B: 1 + o, WDL: r})
	}
	y.last = i
	r, err := stats.Rate(len(y.players), y.results, stats.RatingOptions{Anchor: 0})
	if err != nil {
		return 0, 0, 0, fmt.Errorf("population: rating the yardstick: %w", err)
	}
	p := r.Players[i]
	return p.Elo, p.Low, p.High, nil
}
