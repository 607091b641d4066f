package population

import (
	"context"
	"math/rand/v2"
)

// maxExtraPairs bounds the extra colour-swapped pairs that break a tied
// knockout match; a match still tied after them is decided at random.
const maxExtraPairs = 4

// runKnockout is the checkers report's tuner, round after round:
//
//  1. Candidates genomes: the current winner (the base; zeros or the start
//     weights in round 0) and Candidates-1 challengers whose every weight is
//     the base's plus Scale times the sum of ten uniform draws in [-1, 1],
//     clamped to the range and snapped to the step;
//  2. a single-elimination bracket in candidate order (padded to a power of
//     two, byes to the first candidates), each match best-of-BestOf games
//     with colours alternating and one opening per pair; a tied match is
//     decided at random (the report) or by extra pairs ("extra");
//  3. the bracket's winner is the next base.
//
// It stops after Rounds rounds or when the normalised distance between
// successive winners has stayed below Threshold for Window rounds in a row.
func (t *Tuner) runKnockout(ctx context.Context) (Result, error) {
	cfg := t.cfg
	base := make([]float64, len(t.ev.Features))
	if t.start != nil {
		copy(base, t.start)
	}
	for i := range base {
		base[i] = t.space.snap(i, base[i])
	}
	baseID := DefaultsID - 100 // the base of round 0 is no genome of the run
	var res Result
	var distances []float64
	for round := 0; round < cfg.Rounds; round++ {
		cands := make([]Genome, cfg.Candidates)
		for i := range cands {
			id := round*cfg.Candidates + i
			if i == 0 {
				cands[i] = Genome{ID: id, Weights: append([]float64(nil), base...)}
				if baseID >= 0 {
					cands[i].Parents = []int{baseID}
				}
				continue
			}
			rng := rngFor(cfg.Seed, "candidate", round, i)
			cands[i] = Genome{ID: id, Weights: t.tenDraws(rng, base)}
			if baseID >= 0 {
				cands[i].Parents = []int{baseID}
			}
		}
		winner, matches, err := t.bracket(ctx, round, cands)
		if err != nil {
			return res, err
		}
		summary := t.summarise(round, cands)
		w := cands[winner]
		summary.Best, summary.Matches = w.ID, matches
		summary.BestFitness = w.Fitness
		summary.Distance = t.space.distance(base, w.Weights)
		distances = append(distances, summary.Distance)
		if t.shouldMeasure(round, cfg.Rounds-1) {
			y, err := t.yardstick(ctx, round, w)
			if err != nil {
				return res, err
			}
			summary.Yardstick, res.Yardstick = y, y
		}
		summary.Converged = stable(distances, cfg.Window, cfg.Threshold)
		if err := t.store.RecordGeneration(summary); err != nil {
			return res, err
		}
		if t.OnGeneration != nil {
			t.OnGeneration(summary)
		}
		res.Best, res.Generations, res.Converged = w, round+1, summary.Converged
		if summary.Converged {
			break
		}
		base, baseID = w.Weights, w.ID
	}
	return res, nil
}

// stable reports whether the last window distances are all below threshold.
func stable(distances []float64, window int, threshold float64) bool {
	if len(distances) < window {
		return false
	}
	for _, d := range distances[len(distances)-window:] {
		if d >= threshold {
			return false
		}
	}
	return true
}

// tenDraws is the report's rule: base plus Scale times the sum of ten
// uniform draws in [-1, 1], per weight.
func (t *Tuner) tenDraws(rng *rand.Rand, base []float64) []float64 {
	w := make([]float64, len(base))
	for i := range w {
		sum := 0.0
		for k := 0; k < 10; k++ {
			sum += 2*rng.Float64() - 1
		}
		w[i] = t.space.snap(i, base[i]+t.cfg.Scale*sum)
	}
	return w
}

// bracket plays a single-elimination bracket between cands and returns the
// winner's index and every match. Each candidate's record and fitness
// (points per game) are set from its bracket games.
func (t *Tuner) bracket(ctx context.Context, round int, cands []Genome) (int, []Match, error) {
	size := 1
	for size < len(cands) {
		size *= 2
	}
	// Standard seeding: slot order so that seeds 0 and 1 meet only in the
	// final, and the byes (missing seeds) fall to the first seeds.
	slots := seedOrder(size)
	alive := make([]int, size) // candidate index or -1 for a bye
	for i, s := range slots {
		alive[i] = -1
		if s < len(cands) {
			alive[i] = s
		}
	}
	var matches []Match
	for br := 0; len(alive) > 1; br++ {
		type pairing struct{ a, b, match int }
		var live []pairing
		next := make([]int, len(alive)/2)
		for m := 0; m < len(alive)/2; m++ {
			a, b := alive[2*m], alive[2*m+1]
			switch {
			case a < 0 && b < 0:
				next[m] = -1
			case b < 0 || a < 0:
				w := max(a, b)
				next[m] = w
				matches = append(matches, Match{Round: br, A: cands[w].ID, B: ByeID, Winner: cands[w].ID})
			default:
				live = append(live, pairing{a, b, m})
			}
		}
		// Play every live match of this bracket round as one batch, then the
		// extra pairs of tied matches.
		scores := make([][2]float64, len(live))
		played := make([]int, len(live))
		var batch []game
		var owner []int
		// addGames adds n games (1 or 2) of pair number pair of live match l,
		// colours alternating from one opening.
		addGames := func(l, pair, n int) {
			p := live[l]
			a, b := cands[p.a], cands[p.b]
			idx := br<<20 | p.match<<10 | 2*pair
			op := t.opening(StageKnockout, round, idx)
			batch = append(batch, game{key: GameKey{StageKnockout, round, idx}, first: a.ID, second: b.ID, wFirst: a.Weights, wSecond: b.Weights, opening: op})
			owner = append(owner, l)
			if n == 2 {
				batch = append(batch, game{key: GameKey{StageKnockout, round, idx + 1}, first: b.ID, second: a.ID, wFirst: b.Weights, wSecond: a.Weights, opening: op})
				owner = append(owner, l)
			}
		}
		// playBatch plays the batch and credits every game to its match.
		playBatch := func() error {
			recs, err := t.play(ctx, batch)
			if err != nil {
				return err
			}
			for i, r := range recs {
				l := owner[i]
				s := r.Score()
				if batch[i].first != cands[live[l].a].ID {
					s = 1 - s
				}
				scores[l][0] += s
				scores[l][1] += 1 - s
				played[l]++
				t.credit(cands, live[l].a, live[l].b, s)
			}
			batch, owner = batch[:0], owner[:0]
			return nil
		}
		bestOf := t.cfg.BestOf
		for l := range live {
			for g := 0; g < bestOf; g += 2 {
				addGames(l, g/2, min(2, bestOf-g))
			}
		}
		if err := playBatch(); err != nil {
			return 0, nil, err
		}
		tieBreak := make([]string, len(live))
		for pair := (bestOf + 1) / 2; ; pair++ {
			var tied []int
			for l := range live {
				if scores[l][0] == scores[l][1] {
					tied = append(tied, l)
				}
			}
			if len(tied) == 0 || t.cfg.Ties == "random" || pair >= (bestOf+1)/2+maxExtraPairs {
				for _, l := range tied {
					rng := rngFor(t.cfg.Seed, "tie", round, br<<10|live[l].match)
					if rng.IntN(2) == 0 {
						scores[l][0] += 0.001
					} else {
						scores[l][1] += 0.001
					}
					tieBreak[l] = "random"
				}
				break
			}
			for _, l := range tied {
				addGames(l, pair, 2)
				tieBreak[l] = "extra"
			}
			if err := playBatch(); err != nil {
				return 0, nil, err
			}
		}
		for l, p := range live {
			w := p.a
			if scores[l][1] > scores[l][0] {
				w = p.b
			}
			next[p.match] = w
			matches = append(matches, Match{Round: br, A: cands[p.a].ID, B: cands[p.b].ID,
				ScoreA: roundScore(scores[l][0]), ScoreB: roundScore(scores[l][1]), Games: played[l],
				Winner: cands[w].ID, TieBreak: tieBreak[l]})
		}
		alive = next
	}
	for i := range cands {
		n := float64(max(cands[i].Games(), 1))
		cands[i].Fitness = cands[i].Points() / n
	}
	return alive[0], matches, nil
}

// credit adds one game's result (s, a's points) to both candidates' records.
func (t *Tuner) credit(cands []Genome, a, b int, s float64) {
	switch s {
	case 1:
		cands[a].Wins++
		cands[b].Losses++
	case 0:
		cands[a].Losses++
		cands[b].Wins++
	default:
		cands[a].Draws++
		cands[b].Draws++
	}
}

// roundScore drops the random tie-break's thousandth.
func roundScore(s float64) float64 { return float64(int(s*2+0.01)) / 2 }

// seedOrder returns the bracket slots of seeds 0..size-1 (size a power of
// two) so that the first seeds meet last: 0,3,1,2 for four; 0,7,3,4,1,6,2,5
// for eight.
func seedOrder(size int) []int {
	order := []int{0}
	for n := 1; n < size; n *= 2 {
		next := make([]int, 0, 2*n)
		for _, s := range order {
			next = append(next, s, 2*n-1-s)
		}
		order = next
	}
	return order
}
