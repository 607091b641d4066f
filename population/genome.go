package population

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/gametune/gametune/games"
	"github.com/gametune/gametune/tournament/stats"
)

// Genome is one weight vector of a population. Its embedded record
// (Wins, Draws, Losses, Games(), Points()) counts the games it played in
// its generation or knockout round.
type Genome struct {
	// ID names the genome in its run. A genome carried unchanged into the
	// next generation or round (a genetic elite, a knockout's defending
	// winner) keeps it, so one id is one genome however long it survives.
	ID      int
	Parents []int // ids of the parents; none for a random genome
	Weights []float64
	Fitness float64
	stats.WDL
	// Prior is the record an elite carries from the generations it passed
	// unchanged: its fitness and its claim to be the champion count every
	// game it played, not only this generation's few.
	Prior stats.WDL
}

// Total is the genome's record with its prior: every game it played.
func (g Genome) Total() stats.WDL {
	return stats.WDL{Wins: g.Wins + g.Prior.Wins, Draws: g.Draws + g.Prior.Draws, Losses: g.Losses + g.Prior.Losses}
}

// evidence is a lower confidence bound of the genome's score over every
// game it played (a normal bound at about 95% on the score with one win
// and one loss added, so that few games count for little): the champion of
// a generation is the genome with the most evidence of playing well, not
// the luckiest of a few games.
func (g Genome) evidence() float64 {
	r := g.Total()
	n := float64(r.Games() + 2)
	p := (r.Points() + 1) / n
	return p - 1.96*math.Sqrt(p*(1-p)/n)
}

// space is the box of weights a tuner explores: each feature's range and step.
type space struct {
	features []games.Feature
}

// snap clamps v into feature i's range and rounds it to its step, counted
// from the range's minimum.
func (s space) snap(i int, v float64) float64 {
	f := s.features[i]
	if math.IsNaN(v) {
		v = f.Default
	}
	v = min(max(v, f.Min), f.Max)
	if f.Step > 0 {
		v = f.Min + math.Round((v-f.Min)/f.Step)*f.Step
		v = min(max(v, f.Min), f.Max)
		// Remove the float noise of the multiplication: keep 9 decimals.
		v = math.Round(v*1e9) / 1e9
	}
	return v
}

// random draws each weight uniformly in its range, snapped to its step.
func (s space) random(rng *rand.Rand) []float64 {
	w := make([]float64, len(s.features))
	for i, f := range s.features {
		w[i] = s.snap(i, f.Min+rng.Float64()*(f.Max-f.Min))
	}
	return w
}

// RandomStart draws the start weights of a run started with
// --start random: each weight uniform in its range and snapped to its
// step, from the run seed alone.
func RandomStart(ev *games.Evaluator, seed uint64) []float64 {
	return space{features: ev.Features}.random(rngFor(seed, "start", 0, 0))
}

// distance is the Euclidean distance between a and b with each weight
// scaled by its range, divided by the square root of the number of
// weights: 0 for equal vectors, 1 for opposite corners of the box.
func (s space) distance(a, b []float64) float64 {
	sum := 0.0
	for i, f := range s.features {
		r := f.Max - f.Min
		if r <= 0 {
			continue
		}
		d := (a[i] - b[i]) / r
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(s.features)))
}

// meanStd returns the mean and the standard deviation of each weight.
func meanStd(pop []Genome) (mean, std []float64) {
	n := len(pop[0].Weights)
	mean, std = make([]float64, n), make([]float64, n)
	for _, g := range pop {
		for i, v := range g.Weights {
			mean[i] += v
		}
	}
	for i := range mean {
		mean[i] /= float64(len(pop))
	}
	for _, g := range pop {
		for i, v := range g.Weights {
			d := v - mean[i]
			std[i] += d * d
		}
	}
	for i := range std {
		std[i] = math.Sqrt(std[i] / float64(len(pop)))
	}
	return mean, std
}

// diversity is the mean distance between every two genomes. It costs
// O(len(pop)^2) distances, and checks ctx once per genome.
func (s space) diversity(ctx context.Context, pop []Genome) (float64, error) {
	sum, n := 0.0, 0
	for i := range pop {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for j := i + 1; j < len(pop); j++ {
			sum += s.distance(pop[i].Weights, pop[j].Weights)
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	return sum / float64(n), nil
}

// rngFor returns the generator of one place of a run: the run seed and the
// place's coordinates, so that every random choice is reproducible alone.
func rngFor(seed uint64, stage string, generation, index int) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, c := range []byte(stage) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	h = games.Mix(h ^ uint64(generation)<<32 ^ uint64(index))
	return rand.New(rand.NewPCG(seed, h))
}
