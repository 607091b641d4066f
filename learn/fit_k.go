package learn

import (
	"context"
	"math"

	"github.com/gametune/gametune/tournament/stats"
)

// kSample is the most training positions K is fitted on.
const kSample = 1 << 18

// fitK sets K: the option's, or the one minimising the loss of the
// starting weights over kSample training positions (evenly spread over the
// cache, or the first ones replayed), found by a
// golden-section search of log K over [1e-6, 10]. Positions that all
// evaluate to 0, or a minimum at the search's low end (the evaluations say
// nothing of the results), give DefaultK.
func (f *fitter) fitK(ctx context.Context) error {
	if f.opts.K > 0 {
		f.k = f.opts.K
		return nil
	}
	var es, ys []float64
	add := func(st *positions, i int) {
		es, ys = append(es, f.eval(st, i)), append(ys, float64(st.labels[i]))
	}
	if f.cached {
		step := max(1, f.train.n/kSample)
		for g := 0; g < f.train.n; g += step {
			add(f.train.at(g))
		}
	} else {
		st := &positions{perTerm: true}
		for _, gi := range f.trainGames {
			if st.len() >= kSample {
				break
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := f.replay(f.workers[0], gi, st); err != nil {
				return err
			}
		}
		for i := range st.len() {
			add(st, i)
		}
	}
	signal := false
	for _, e := range es {
		signal = signal || e != 0
	}
	f.k = DefaultK
	if !signal {
		return nil
	}
	loss := func(logK float64) float64 {
		k, sum := math.Exp(logK), 0.0
		for i, e := range es {
			d := sigmoid(k*e) - ys[i]
			sum += d * d
		}
		return sum
	}
	lo, hi := math.Log(1e-6), math.Log(10)
	x := stats.GoldenMin(loss, lo, hi, 1e-5)
	if x > lo+1e-3 {
		f.k = math.Exp(x)
	}
	return nil
}

// memory is the bytes the fit holds: the cache and the order of its
// positions; each entry's value, Adam moments, gradient, stamp and
// multiplier; each worker's accumulator, replay buffer and (while the cache
// is built) multipliers; the shards' outputs. Measured from the capacities
// of the slices at the end of the fit.
func (f *fitter) memory() int64 {
	n := int64(len(f.data))
	mem := f.train.bytes() + f.held.bytes() + 4*int64(cap(f.perm)) + n*(4+4+4+8+4+4)
	for _, wk := range f.workers {
		mem += 8*n + 4*n + wk.local.bytes() + 4*int64(cap(wk.touched))
	}
	for i := range f.outs {
		for _, g := range f.outs[i].grads {
			mem += 16 * int64(cap(g))
		}
	}
	for _, t := range f.touched {
		mem += 4 * int64(cap(t))
	}
	return mem
}

func (f *fitter) bytesPerPosition() float64 { return f.perPosition }
