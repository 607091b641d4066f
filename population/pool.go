package population

import (
	"context"

	"github.com/gametune/gametune/tournament"
)

// The training pool of a run on random openings (random:N): the games a
// method proposes (StageGeneration, StageKnockout, StageSPSA, StageCMAES,
// StageTexel) draw their openings from a pool that grows with the run,
// while the yardstick keeps the run's own openings (RandomOpenings' draw)
// and the ladder draws its own (ladderOpenings). Generation g's pool is
// the first openings of the stream of batches 1, 2, ... of
// tournament.RandomOpeningBatch from the run seed, repeats and every
// yardstick and ladder opening dropped: poolBatches(g) batches, 64
// openings each, doubling every PoolDoubling generations up to
// MaxTrainingOpenings. So no training game opens as a yardstick or ladder
// game does, and a generation's openings depend on the seed and its
// number alone (not on the workers, nor on where a run was resumed).
const (
	// PoolDoubling is how many generations the training pool keeps its
	// size before it doubles.
	PoolDoubling = 4
	// MaxTrainingOpenings bounds the training pool: 64 batches.
	MaxTrainingOpenings = 4096
)

// openingPool is a run's training pool as drawn so far.
type openingPool struct {
	reserved map[string]bool // the yardstick's and the ladder's openings; nil before the first draw
	seen     map[string]bool // reserved, and every opening in list
	list     []string        // the pool, in the stream's order
	sizes    []int           // sizes[b]: len(list) after batches 1..b (sizes[0] = 0)
}

// Config.TrainingPool of a run on random openings: a growing pool, or the
// run's own openings (recorded before pools grew).
const (
	GrowingPool = "growing"
	FixedPool   = "fixed"
)

// growing reports whether the run trains on a growing pool: random
// openings drawn by the run (not a list of openings), in a run created
// since the pool grows (TrainingPool recorded).
func (t *Tuner) growing() bool {
	return t.cfg.TrainingPool == GrowingPool && tournament.IsRandomOpenings(t.cfg.Openings) && len(t.cfg.OpeningList) == 0
}

// poolBatches is how many batches of the stream generation gen's pool
// holds: 1, doubling every PoolDoubling generations, at most
// MaxTrainingOpenings/RandomOpeningCount.
func poolBatches(gen int) int {
	most := MaxTrainingOpenings / tournament.RandomOpeningCount
	if gen < 0 {
		return 1
	}
	if d := gen / PoolDoubling; d < 31 {
		return min(1<<d, most)
	}
	return most
}

// growPool draws the batches generation gen's training pool needs and
// has not drawn yet; a run on other openings has nothing to draw. The
// driver calls it before each generation.
func (t *Tuner) growPool(ctx context.Context, gen int) error {
	if !t.growing() {
		return nil
	}
	p := &t.pool
	if p.reserved == nil {
		ladder, err := t.ladderOpenings(ctx, 0)
		if err != nil {
			return err
		}
		p.reserved, p.seen, p.sizes = map[string]bool{}, map[string]bool{}, []int{0}
		for _, op := range append(ladder, t.openings...) {
			key := t.openingKey(op)
			p.reserved[key], p.seen[key] = true, true
		}
	}
	draw := tournament.RandomOpeningBatch
	if t.movesOpenings {
		draw = tournament.RandomOpeningMoveBatch
	}
	for b := len(p.sizes); b <= poolBatches(gen); b++ {
		batch, err := draw(ctx, t.game, t.cfg.Openings, t.cfg.Seed, b)
		if err != nil {
			return err
		}
		for _, op := range batch {
			if key := t.openingKey(op); !p.seen[key] {
				p.seen[key] = true
				p.list = append(p.list, op)
			}
		}
		p.sizes = append(p.sizes, len(p.list))
	}
	return nil
}

// trainingOpenings returns generation gen's training pool: the run's
// openings for a run on a list of openings (or the start), and for a game
// too small to have random openings outside the yardstick's and the
// ladder's, as before pools grew.
func (t *Tuner) trainingOpenings(gen int) []string {
	p := &t.pool
	if !t.growing() || len(p.sizes) == 0 {
		return t.openings
	}
	n := p.sizes[min(poolBatches(gen), len(p.sizes)-1)]
	if n == 0 {
		return t.openings
	}
	return p.list[:n]
}

// opening picks the opening of one pair of games from its place: the
// yardstick's from the run's openings, the others' from the training pool
// of their generation.
func (t *Tuner) opening(stage string, generation, pair int) string {
	ops := t.openings
	if stage != StageYardstick {
		ops = t.trainingOpenings(generation)
	}
	if len(ops) == 0 {
		return ""
	}
	return ops[rngFor(t.cfg.Seed, stage+"-opening", generation, pair).IntN(len(ops))]
}

// openingKey is what tells openings apart: the opening itself, or, when
// openings are moves (movesOpenings), the position they lead to, so that
// moves in another order are the same opening.
func (t *Tuner) openingKey(op string) string {
	if !t.movesOpenings {
		return op
	}
	if p, err := tournament.ParseOpening(t.game, op); err == nil {
		return p
	}
	return op
}
