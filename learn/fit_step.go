package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/gametune/gametune/engine"
	"github.com/gametune/gametune/games"
)

const (
	shardSize = 1024 // positions of a shard: a batch's unit of parallel work
	buckets   = 64   // entry ranges of a step's merge and update
	adamB1    = 0.9
	adamB2    = 0.999
	adamEps   = 1e-12 // the gradients are batch means, often near 1e-7
)

// fitter is one fit's state.
type fitter struct {
	ev      *games.Evaluator
	set     *Set
	opts    FitOptions
	w       []float64
	startW  []float64 // the starting weights: quietLeaf's
	scalars []int     // the scalar weights the fit moves
	fixed   []bool    // the entries it keeps as they start (FitOptions.Tables); nil: none
	k       float64
	scoreK  float64 // the scale of the scores in the labels (Set.Lambda); 0 before it is fitted, or without scores

	data, m, v []float32 // the tables and Adam's moments of each entry
	sm, sv     []float64 // Adam's moments of each weight (scalars only)
	gsum       []float64 // a step's gradient of each entry
	gstamp     []uint32  // the step that last touched each entry
	touched    [buckets][]int32
	t          int // Adam's steps

	cached        bool
	entryMult     []float32
	train, held   cache
	trainGames    []int
	heldGames     []int
	gamesPerShard int
	perm          []uint32
	workers       []*fitWorker
	outs          []shardOut
	perPosition   float64
}

// fitWorker is one goroutine's scratch: its sparse accumulation of a
// shard's gradient (acc, touched), Terms' and FeatureValues' buffers, the
// replay buffer and, while the cache is built, the multipliers it saw.
type fitWorker struct {
	acc       []float64
	touched   []int32
	terms     []games.TableTerm
	values    []float64
	local     positions
	entryMult []float32
	mixed     bool
	quiet     *engine.Searcher // quietLeaf's, made on first use
	leaf      []games.Move
	noisy     []games.Move // quietLeaf's test for a quiet position
}

// shardOut is one shard's contribution to a step, by bucket of entries.
type shardOut struct {
	grads  [buckets][]entryGrad
	scalar []float64
	loss   float64
	n      int
}

type entryGrad struct {
	entry int32
	grad  float64
}

// shard is a shard's positions: indices into the training cache, a
// segment's range, or games to replay.
type shard struct {
	idx    []uint32
	seg    *positions
	lo, hi int
	games  []int
}

func newFitter(ev *games.Evaluator, w []float64, set *Set, opts FitOptions) (*fitter, error) {
	if err := checkFit(ev, w, set, &opts); err != nil {
		return nil, err
	}
	fixed, err := fitMask(ev, opts.Tables)
	if err != nil {
		return nil, err
	}
	f := &fitter{ev: ev, set: set, opts: opts, w: append([]float64(nil), w...), startW: append([]float64(nil), w...), fixed: fixed}
	for i := range ev.Features {
		// Without tables every feature is a weight the fit moves: a scale
		// of tables it does not see is a weight like any (population's
		// Texel tuner fits evaluators so).
		if (len(ev.Tables) == 0 || !ev.IsScale(i)) && f.fixed == nil {
			f.scalars = append(f.scalars, i)
		}
	}
	n := len(ev.Data)
	f.data = append([]float32(nil), ev.Data...)
	for i, x := range f.data {
		if !(math.Abs(float64(x)) <= TableBound) {
			f.data[i] = float32(max(-TableBound, min(TableBound, float64(x))))
			if x != x {
				f.data[i] = 0
			}
		}
	}
	f.m, f.v, f.gsum, f.gstamp = make([]float32, n), make([]float32, n), make([]float64, n), make([]uint32, n)
	f.sm, f.sv = make([]float64, len(w)), make([]float64, len(w))
	for range opts.Workers {
		f.workers = append(f.workers, &fitWorker{acc: make([]float64, n), values: make([]float64, len(w)), local: positions{perTerm: true}})
	}
	f.outs = make([]shardOut, (opts.BatchSize+shardSize-1)/shardSize)
	for i := range f.outs {
		f.outs[i].scalar = make([]float64, len(w))
	}
	return f, nil
}

// prepare splits the games, caches the positions when they fit under the
// memory cap, and fits K.
func (f *fitter) prepare(ctx context.Context) error {
	moves := 0
	for gi, g := range f.set.Games {
		moves += max(len(g.Moves), 1)
		if f.isHeldOut(gi) {
			f.heldGames = append(f.heldGames, gi)
		} else {
			f.trainGames = append(f.trainGames, gi)
		}
	}
	f.gamesPerShard = max(1, int(math.Round(shardSize*float64(len(f.set.Games))/float64(max(1, moves)))))
	if f.set.Lambda > 0 {
		// The scores' scale is K fitted on the results alone, over the
		// first games replayed (nothing is cached yet).
		if err := f.fitK(ctx); err != nil {
			return err
		}
		f.scoreK = f.k
	}
	perPosition, total, err := f.estimate()
	if err != nil {
		return err
	}
	f.perPosition = perPosition
	if float64(total)*(perPosition+4) <= float64(f.opts.MemoryMiB)*(1<<20) {
		if f.cached, err = f.buildCache(ctx); err != nil {
			return err
		}
	}
	if f.cached {
		f.perm = make([]uint32, f.train.n)
		if n := f.train.n + f.held.n; n > 0 {
			f.perPosition = float64(f.train.bytes()+f.held.bytes()) / float64(n)
		}
	}
	return f.fitK(ctx)
}

// parallel calls fn for 0..n-1 on the workers, each item once, and returns
// the first error (ctx's when it is cancelled).
func (f *fitter) parallel(ctx context.Context, n int, fn func(wk *fitWorker, i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, len(f.workers))
	for wi := range min(len(f.workers), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if err := ctx.Err(); err != nil {
					errs[wi] = err
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(f.workers[wi], i); err != nil {
					errs[wi] = err
					next.Store(int64(n))
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// walk calls fn with every position of sh.
func (f *fitter) walk(wk *fitWorker, sh shard, fn func(st *positions, i int)) error {
	switch {
	case sh.idx != nil:
		for _, g := range sh.idx {
			st, i := f.train.at(int(g))
			fn(st, i)
		}
	case sh.seg != nil:
		for i := sh.lo; i < sh.hi; i++ {
			fn(sh.seg, i)
		}
	default:
		wk.local.reset()
		for _, gi := range sh.games {
			if err := f.replay(wk, gi, &wk.local); err != nil {
				return err
			}
		}
		for i := range wk.local.len() {
			fn(&wk.local, i)
		}
	}
	return nil
}

// shardWork measures the loss of sh's positions into out and, when grad is
// set, their gradient: each entry's sum in the order of the positions.
func (f *fitter) shardWork(wk *fitWorker, sh shard, out *shardOut, grad bool) error {
	out.loss, out.n = 0, 0
	for b := range out.grads {
		out.grads[b] = out.grads[b][:0]
	}
	clear(out.scalar)
	wk.touched = wk.touched[:0]
	err := f.walk(wk, sh, func(st *positions, i int) {
		s := sigmoid(f.k * f.eval(st, i))
		d := s - float64(st.labels[i])
		out.loss += d * d
		out.n++
		if !grad {
			return
		}
		g := 2 * d * s * (1 - s) * f.k
		lo, hi, slo, shi := st.spans(i)
		for j := lo; j < hi; j++ {
			x := st.entries[j]
			m := f.entryMultOf(st, j, x)
			if wk.acc[x] == 0 {
				wk.touched = append(wk.touched, x)
			}
			wk.acc[x] += g * m
		}
		for j := slo; j < shi; j++ {
			out.scalar[st.scalarFeat[j]] += g * float64(st.scalarVal[j])
		}
	})
	size := int64(len(f.data))
	for _, x := range wk.touched {
		b := int64(x) * buckets / size
		out.grads[b] = append(out.grads[b], entryGrad{x, wk.acc[x]})
		wk.acc[x] = 0
	}
	return err
}

func (f *fitter) entryMultOf(st *positions, j int, x int32) float64 {
	if st.perTerm {
		return float64(st.mults[j])
	}
	return float64(f.entryMult[x])
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// step makes one Adam step over the shards of a batch, and returns the
// batch's loss (summed) and positions.
func (f *fitter) step(ctx context.Context, shards []shard) (float64, int, error) {
	outs := f.outs[:len(shards)]
	loss, n, err := f.runShards(ctx, shards, outs, true)
	if err != nil || n == 0 {
		return 0, 0, err
	}
	f.t++
	lr := f.opts.Rate * math.Sqrt(1-math.Pow(adamB2, float64(f.t))) / (1 - math.Pow(adamB1, float64(f.t)))
	err = f.parallel(ctx, buckets, func(_ *fitWorker, b int) error {
		f.updateBucket(b, outs, float64(n), lr)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	f.updateScalars(outs, float64(n), lr)
	return loss, n, nil
}

// updateBucket sums the shards' gradients of bucket b's entries, in the
// shards' order, and moves each entry touched by Adam, lazily.
func (f *fitter) updateBucket(b int, outs []shardOut, n, lr float64) {
	stamp := uint32(f.t)
	touched := f.touched[b][:0]
	for i := range outs {
		for _, eg := range outs[i].grads[b] {
			if f.gstamp[eg.entry] != stamp {
				f.gstamp[eg.entry] = stamp
				touched = append(touched, eg.entry)
			}
			f.gsum[eg.entry] += eg.grad
		}
	}
	l2 := 2 * f.opts.L2
	for _, x := range touched {
		g := f.gsum[x]/n + l2*float64(f.data[x])
		f.gsum[x] = 0
		if f.fixed != nil && f.fixed[x] {
			continue
		}
		m := adamB1*float64(f.m[x]) + (1-adamB1)*g
		v := adamB2*float64(f.v[x]) + (1-adamB2)*g*g
		f.m[x], f.v[x] = float32(m), float32(v)
		d := float64(f.data[x]) - lr*m/(math.Sqrt(v)+adamEps)
		f.data[x] = float32(max(-TableBound, min(TableBound, d)))
	}
	f.touched[b] = touched
}

// updateScalars moves the scalar weights by Adam, within their ranges. A
// scalar's step is its feature's Step at the default Rate (and scales with
// Rate): a table entry is in the evaluation's units, a scalar weight in its
// own (a material value in centipawns, the scale of a bonus table in
// fractions), and Step says how fine those are.
func (f *fitter) updateScalars(outs []shardOut, n, lr float64) {
	for _, i := range f.scalars {
		g := 0.0
		for s := range outs {
			g += outs[s].scalar[i]
		}
		g /= n
		f.sm[i] = adamB1*f.sm[i] + (1-adamB1)*g
		f.sv[i] = adamB2*f.sv[i] + (1-adamB2)*g*g
		ft := f.ev.Features[i]
		step := lr
		if ft.Step > 0 {
			step = lr * ft.Step / defaultRate
		}
		w := f.w[i] - step*f.sm[i]/(math.Sqrt(f.sv[i])+adamEps)
		f.w[i] = max(ft.Min, min(ft.Max, w))
	}
}

// epoch makes one pass over the training positions in an order drawn
// from the seed and the epoch, and returns its mean loss and positions.
func (f *fitter) epoch(ctx context.Context, epoch int) (float64, int, error) {
	rng := rand.New(rand.NewPCG(f.opts.Seed, uint64(epoch)))
	per := len(f.outs)
	var shards []shard
	if f.cached {
		for i := range f.perm {
			f.perm[i] = uint32(i)
		}
		rng.Shuffle(len(f.perm), func(i, j int) { f.perm[i], f.perm[j] = f.perm[j], f.perm[i] })
		for a := 0; a < len(f.perm); a += shardSize {
			shards = append(shards, shard{idx: f.perm[a:min(a+shardSize, len(f.perm))]})
		}
	} else {
		order := append([]int(nil), f.trainGames...)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		shards = gameShards(order, f.gamesPerShard)
	}
	loss, n := 0.0, 0
	for a := 0; a < len(shards); a += per {
		l, m, err := f.step(ctx, shards[a:min(a+per, len(shards))])
		if err != nil {
			return 0, 0, err
		}
		loss, n = loss+l, n+m
	}
	if n == 0 {
		return 0, 0, nil
	}
	return loss / float64(n), n, nil
}

func gameShards(order []int, per int) []shard {
	var shards []shard
	for a := 0; a < len(order); a += per {
		shards = append(shards, shard{games: order[a:min(a+per, len(order))]})
	}
	return shards
}

// inOrder cuts the positions of c (when the fit is cached) or of the games
// gs (when not) into shards, in their order.
func (f *fitter) inOrder(c *cache, gs []int) []shard {
	if !f.cached {
		return gameShards(gs, f.gamesPerShard)
	}
	var shards []shard
	for _, st := range c.segs {
		for a := 0; a < st.len(); a += shardSize {
			shards = append(shards, shard{seg: st, lo: a, hi: min(a+shardSize, st.len())})
		}
	}
	return shards
}

// heldOutLoss is the mean loss of the held-out positions, and their count.
func (f *fitter) heldOutLoss(ctx context.Context) (float64, int, error) {
	shards := f.inOrder(&f.held, f.heldGames)
	loss, n, err := f.runShards(ctx, shards, make([]shardOut, len(shards)), false)
	if err != nil || n == 0 {
		return 0, 0, err
	}
	return loss / float64(n), n, nil
}

// runShards works the shards on every core into outs (with the gradient
// when train is set) and returns their summed loss and positions, summed
// in shard order.
func (f *fitter) runShards(ctx context.Context, shards []shard, outs []shardOut, train bool) (float64, int, error) {
	err := f.parallel(ctx, len(shards), func(wk *fitWorker, i int) error {
		return f.shardWork(wk, shards[i], &outs[i], train)
	})
	if err != nil {
		return 0, 0, err
	}
	loss, n := 0.0, 0
	for i := range outs {
		loss += outs[i].loss
		n += outs[i].n
	}
	return loss, n, nil
}
