package population

import (
	"context"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/tournament"
)

// game is one game to play: its key, its players' genome ids and weights.
type game struct {
	key           GameKey
	first, second int
	wFirst        []float64
	wSecond       []float64
	opening       string
	limits        engine.Limits // the search of both players; zero: the run's
}

// appendPair appends the colour-swapped pair of games between a and b from
// one opening: a moves first in the game at key, b in the game after it.
func appendPair(batch []game, key GameKey, a, b Genome, opening string) []game {
	back := key
	back.Index++
	return append(batch,
		game{key: key, first: a.ID, second: b.ID, wFirst: a.Weights, wSecond: b.Weights, opening: opening},
		game{key: back, first: b.ID, second: a.ID, wFirst: b.Weights, wSecond: a.Weights, opening: opening})
}

// pairScore is the score of game i of a batch of pairs (appendPair) for
// the pair's a: its score as first player in even games, as second in odd.
func pairScore(r tournament.Record, i int) float64 {
	if i%2 == 1 {
		return 1 - r.Score()
	}
	return r.Score()
}

// play plays the games not yet in the store, recording each as it finishes,
// and returns every game's record in order without its moves and opening
// (they are in the store), so that a generation's results stay small.
func (t *Tuner) play(ctx context.Context, batch []game) ([]tournament.Record, error) {
	t.spent += len(batch)
	recs, todo, err := t.recorded(ctx, batch)
	if err != nil {
		return nil, err
	}
	known := len(batch) - len(todo)
	stage, gen := "", 0
	if len(batch) > 0 {
		stage, gen = batch[0].key.Stage, batch[0].key.Generation
	}
	if t.OnGame != nil && known > 0 {
		t.OnGame(Progress{Stage: stage, Generation: gen, Done: known, Total: len(batch)})
	}
	specs := make([]tournament.GameSpec, len(todo))
	for j, i := range todo {
		if j%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		g := batch[i]
		specs[j] = tournament.GameSpec{
			Game: t.game, Opening: g.opening,
			First:  t.side(g.first, g.wFirst),
			Second: t.side(g.second, g.wSecond),
			Seed:   uint64(i), MaxPlies: t.cfg.MaxPlies,
		}
		if g.limits != (engine.Limits{}) {
			specs[j].First.Limits, specs[j].Second.Limits = g.limits, g.limits
		}
	}
	err = t.run.Run(ctx, specs, func(j int, rec tournament.Record) error {
		i := todo[j]
		recs[i] = withoutMoves(rec)
		g := batch[i]
		if err := t.store.RecordGame(GameResult{Key: g.key, First: g.first, Second: g.second, Record: rec}); err != nil {
			return err
		}
		known++
		if t.OnGame != nil {
			t.OnGame(Progress{Stage: stage, Generation: gen, Done: known, Total: len(batch), Played: true})
		}
		return nil
	})
	return recs, err
}

// recorded returns the records of the batch's games found in the store
// (without their moves) and the indices of those still to play.
func (t *Tuner) recorded(ctx context.Context, batch []game) ([]tournament.Record, []int, error) {
	recs := make([]tournament.Record, len(batch))
	var todo []int
	for i, g := range batch {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		r, ok, err := t.store.Game(g.key)
		if err != nil {
			return nil, nil, err
		}
		if ok && r.First == g.first && r.Second == g.second {
			recs[i] = withoutMoves(r.Record)
			continue
		}
		todo = append(todo, i)
	}
	return recs, todo, nil
}

func withoutMoves(r tournament.Record) tournament.Record {
	r.Moves, r.Opening = nil, ""
	return r
}
